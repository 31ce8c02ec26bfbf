#include "loading_response.h"

#include <algorithm>
#include <cmath>

#include "walk_curves.h"

namespace footfix {
namespace {

/// The yield's peak (degrees of knee flexion) from k_loading_full_speed_mps, and the shares of
/// the gait cycle after the heel strike where it is reached, where it starts to fall and where
/// it is gone (before mid-stance). The pelvis, its acceleration bounded, stays below the height
/// this leaves as it rises over the stance leg, and bends the knee further than the peak: past
/// adults' textbook 15-20 degrees of loading response, toward the larger flexion of the shared
/// optical-mocap walks. A larger or later yield keeps the knee bent into mid-stance
/// (docs/tuning.md).
constexpr double k_loading_knee_deg = 16;
constexpr double k_loading_peak = 0.08;
constexpr double k_loading_hold = 0.1;
constexpr double k_loading_end = 0.24;
/// The yield grows with speed from none at k_loading_from_speed_mps (adults flex the knee less
/// in slow walking; at 0.8 m/s the pelvis's dip is shallow and a yield would deepen it).
constexpr double k_loading_from_speed_mps = 0.5;
constexpr double k_loading_full_speed_mps = 1.3;

}  // namespace

double loading_knee_rad(const GaitPlan& plan, const FootSample& s, double t, bool stairs) {
  if (stairs || s.swinging || s.heel_rise_u >= 0) return 0;
  const Footstep& at = plan.steps[s.foothold];
  if (at.state != GaitState::left_go && at.state != GaitState::right_go) return 0;
  const double u = (t - at.heel_strike_s) / (2 * plan.step_period_s);
  if (u <= 0 || u >= k_loading_end) return 0;
  const double speed = plan.step_length_m / plan.step_period_s;
  const double ramp = k_loading_full_speed_mps - k_loading_from_speed_mps;
  const double by_speed = std::clamp((speed - k_loading_from_speed_mps) / ramp, 0.0, 1.0);
  const double w = u < k_loading_peak   ? min_jerk(u / k_loading_peak)
                   : u < k_loading_hold ? 1.0
                                        : 1 - min_jerk((u - k_loading_hold) / (k_loading_end - k_loading_hold));
  return by_speed * k_loading_knee_deg * k_deg_to_rad * w;
}

double bent_leg_span_m(double thigh_m, double shin_m, double knee_rad) {
  if (knee_rad == 0) return thigh_m + shin_m;
  return std::sqrt(thigh_m * thigh_m + shin_m * shin_m + 2 * thigh_m * shin_m * std::cos(knee_rad));
}

}  // namespace footfix
