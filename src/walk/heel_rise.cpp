#include "heel_rise.h"

#include <algorithm>
#include <cmath>

#include "walk_curves.h"

namespace footfix {
namespace {

/// Share of the heel rise (from its start) after which the pitch moves from the one the hip asks
/// for to the plan's: after the other foot's heel strike, the knee flexes into the swing. An
/// earlier blend bends the knee sooner than the shared walks do; a later one turns the heel so
/// fast that it jolts the knee at 1.8 m/s (docs/tuning.md).
constexpr double k_blend_begin = 0.6;
/// Largest dorsiflexion of the ankle from its rest pose that a low heel may leave: a flat foot
/// under a hip far ahead of it would pass the ankle's limit (the leg then misses its foot).
constexpr double k_max_dorsiflexion_rad = 30 * k_deg_to_rad;
/// Halvings of the pitch interval when searching the least heel pitch: [0, high] narrowed to
/// 1e-9 of its width.
constexpr int k_pitch_search_halvings = 30;

double angle_between_rad(Vec3 a, Vec3 b) {
  return std::acos(std::clamp(dot(a, b) / std::max(1e-12, length(a) * length(b)), -1.0, 1.0));
}

/// Least heel pitch in [0, high] that brings the ankle within `leg.reach_m` of `hip` and keeps
/// the ankle's dorsiflexion from the rest pose within k_max_dorsiflexion_rad, the knee bending
/// forward in the plane of the leg; where none does, the least in [high, ceiling], else the
/// larger of high and ceiling.
double least_heel_pitch(const GaitPlan& plan, const FootSample& s, const FootGeometry& foot, Vec3 hip, const LegReach& leg,
                        double high, double ceiling) {
  const double rest = angle_between_rad(Vec3{0, 1, 0}, foot.toe);
  auto too_low = [&](double p) {
    const FootSample r = with_heel_pitch(plan, s, foot, p);
    const double d = length(r.ankle - hip);
    if (d > leg.reach_m) return true;
    // The shin leans forward of the ankle-to-hip line by the triangle's angle at the ankle.
    const double lean = std::acos(std::clamp(
        (leg.shin_m * leg.shin_m + d * d - leg.thigh_m * leg.thigh_m) / (2 * leg.shin_m * d), -1.0, 1.0));
    return rest - angle_between_rad(hip - r.ankle, rotate(r.foot_rotation, foot.toe)) + lean > k_max_dorsiflexion_rad;
  };
  if (!too_low(0)) return 0;
  double low = 0;
  if (too_low(high)) {
    if (ceiling <= high) return high;
    if (too_low(ceiling)) return ceiling;
    low = high;
    high = ceiling;
  }
  for (int i = 0; i < k_pitch_search_halvings; ++i) {
    const double mid = 0.5 * (low + high);
    if (too_low(mid)) low = mid;
    else high = mid;
  }
  return high;
}

/// Whether `to` stands on a lower stair tread than `from`.
bool lower_tread(const Footstep& from, const Footstep& to) { return to.tread != from.tread && to.toe_m.y < from.toe_m.y; }

/// Highest heel pitch of a toe off from foothold `at` when the plan's pitch leaves the ankle past
/// its range: the step's toe off angle when the hips drop toward a lower stair tread during it
/// (the step goes down, or the other foot lands lower meanwhile) while this heel is still low,
/// else 0 (the plan's pitch is the most).
double descent_heel_ceiling_rad(const GaitPlan& plan, int at) {
  const Footstep& from = plan.steps[at];
  const std::vector<int>& ids = plan.per_side[static_cast<int>(from.side)];
  const auto next = std::find(ids.begin(), ids.end(), at) + 1;
  if (next >= ids.end()) return 0;
  const Footstep& to = plan.steps[*next];
  if (lower_tread(from, to)) return to.toe_off_rad;
  for (const Footstep& o : plan.steps)
    if (o.side != from.side && o.heel_strike_s >= to.roll_begin_s && o.heel_strike_s <= to.lift_s && lower_tread(from, o))
      return to.toe_off_rad;
  return 0;
}

}  // namespace

void fit_heel_rise(const GaitPlan& plan, const FeetGeometry& geometry, const std::array<std::vector<Vec3>, 2>& hips,
                   const std::array<LegReach, 2>& legs, std::vector<std::array<FootSample, 2>>& feet) {
  for (int side = 0; side < 2; ++side) {
    double risen = 0;  // the pitch so far in this toe off: the heel does not come back down
    int foothold = -1;
    for (size_t f = 0; f < feet.size(); ++f) {
      FootSample& s = feet[f][side];
      if (s.heel_rise_u < 0) {
        foothold = -1;
        continue;
      }
      if (s.foothold != foothold) risen = 0;
      foothold = s.foothold;
      const double planned = s.heel_pitch_rad;
      risen = std::max(risen, least_heel_pitch(plan, s, geometry[side], hips[side][f], legs[side], planned,
                                               descent_heel_ceiling_rad(plan, s.foothold)));
      const double w = min_jerk((s.heel_rise_u - k_blend_begin) / (1 - k_blend_begin));
      s = with_heel_pitch(plan, s, geometry[side], risen + w * std::max(0.0, planned - risen));
    }
  }
}

}  // namespace footfix
