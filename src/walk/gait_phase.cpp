#include <algorithm>
#include <cmath>

#include "footfix/walk/gait.h"
#include "walk_curves.h"

namespace footfix {
namespace {

double phase_of(const Footstep& s) { return s.side == Side::left ? 0.0 : 0.5; }

}  // namespace

GaitPhase gait_phase(const GaitPlan& plan, double t) {
  GaitPhase out;
  const double ts = plan.step_period_s;
  // Walking steps in time order: heel strikes h_k, each half a cycle after the previous.
  const Footstep* prev = nullptr;
  double cycle = 0;
  for (const Footstep& s : plan.steps) {
    if (s.state == GaitState::idle) continue;
    if (prev) cycle += 0.5;
    else cycle = phase_of(s);
    if (s.heel_strike_s > t) {
      if (!prev) {
        out.cycle = cycle - 0.5 * (s.heel_strike_s - t) / ts;
      } else {
        out.cycle = cycle - 0.5 * (s.heel_strike_s - t) / std::max(1e-9, s.heel_strike_s - prev->heel_strike_s);
      }
      break;
    }
    out.cycle = cycle + 0.5 * (t - s.heel_strike_s) / ts;
    prev = &s;
  }
  // Weight: up from the START step's heel rise to one step after its heel strike, down from one
  // step before the first STOP heel strike to the last STOP's plant.
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const Footstep& s = plan.steps[i];
    if (s.state != GaitState::start) continue;
    size_t j = i;
    while (j + 1 < plan.steps.size() && plan.steps[j + 1].state != GaitState::start) ++j;
    size_t stop = i;
    while (stop <= j && plan.steps[stop].state != GaitState::left_stop && plan.steps[stop].state != GaitState::right_stop) ++stop;
    const double up0 = s.roll_begin_s, up1 = s.heel_strike_s + ts;
    const double down0 = stop <= j ? plan.steps[stop].heel_strike_s - ts : plan.steps[j].plant_s;
    const double down1 = plan.steps[j].plant_s;
    if (t < up0 || t > down1) continue;
    const double up = min_jerk((t - up0) / std::max(1e-9, up1 - up0));
    const double down = 1 - min_jerk((t - down0) / std::max(1e-9, down1 - down0));
    out.weight = std::max(out.weight, std::min(up, down));
  }
  return out;
}

}  // namespace footfix
