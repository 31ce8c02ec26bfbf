// Terminal stance of the procedural walk (private to the walk module): the heel of a foot in its
// toe off rises as far as the pelvis's path asks of a near-straight leg, rather than on the
// plan's schedule, so the trailing knee does not bend while the pelvis is still high; it joins
// the planned rise before the lift.
#pragma once

#include <array>
#include <vector>

#include "footfix/core/math.h"
#include "footfix/walk/gait.h"

namespace footfix {

/// A leg's lengths (m): thigh and shin, and the hip-to-ankle distance terminal stance keeps.
struct LegReach {
  double thigh_m = 0, shin_m = 0, reach_m = 0;
};

/// Rewrites each toe off in `feet` (per frame and Side, as sample_foot gives them). Its heel
/// pitch is the least that keeps the ankle within `legs[side].reach_m` of the hip at
/// `hips[side][frame]` (world, m) and the ankle's dorsiflexion within its range, never falling
/// and never above the plan's, except where the hips drop toward a lower stair tread (this
/// foot's step or the other foot's landing goes down) and the plan's leaves the ankle past that
/// range (then at most the step's toe off angle); from the other foot's heel strike on it moves into the plan's
/// pitch (minimum-jerk) where that is higher, so the lift keeps its pitch and pitch rate.
void fit_heel_rise(const GaitPlan& plan, const FeetGeometry& geometry, const std::array<std::vector<Vec3>, 2>& hips,
                   const std::array<LegReach, 2>& legs, std::vector<std::array<FootSample, 2>>& feet);

}  // namespace footfix
