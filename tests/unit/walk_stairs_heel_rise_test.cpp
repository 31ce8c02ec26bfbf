// Stairs push-off: where a skeleton's ankle cannot hold the full heel rise on a tread, the walk
// lowers the rise instead of letting the planted foot miss its target.
#include <gtest/gtest.h>

#include <algorithm>

#include "footfix/walk/walk.h"

namespace footfix {
namespace {

double largest_heel_rise_deg(const GaitPlan& plan) {
  double r = 0;
  for (const Footstep& s : plan.steps) r = std::max(r, s.toe_off_rad * k_rad_to_deg);
  return r;
}

/// An ankle that plantar-flexes at most 20 degrees: too little for the full heel rise on a tread.
WalkSettings stiff_ankle() {
  WalkSettings s;
  s.gait.duration_s = 5;
  s.limits[LegJoint::ankle].swing_x.max = 20 * k_deg_to_rad;
  return s;
}

TEST(WalkStairsHeelRise, AnkleThatCannotHoldTheRiseGetsALowerOne) {
  const WalkSettings s = stiff_ankle();
  const WalkResult stairs = generate_walk(parse_terrain_spec("stairs"), s);
  EXPECT_LT(stairs.max_ik_error_m, 0.001);
  EXPECT_LT(largest_heel_rise_deg(stairs.plan), s.gait.toe_off_deg - 0.5);
  // Level ground keeps the full rise: the lowering is for treads only.
  const WalkResult flat = generate_walk(parse_terrain_spec("flat"), s);
  EXPECT_NEAR(largest_heel_rise_deg(flat.plan), s.gait.toe_off_deg, 1e-9);
}

}  // namespace
}  // namespace footfix
