// Damped-least-squares leg IK: convergence on reachable targets, a still stop on unreachable
// ones, limits respected.
#include <gtest/gtest.h>

#include <type_traits>

#include "footfix/walk/humanoid.h"
#include "footfix/walk/leg_dls.h"
#include "footfix/walk/walk_body.h"
#include "walk/leg_dls_points.h"  // internal to walk, not installed

namespace footfix {
namespace {

struct LegFixture {
  Clip clip = make_humanoid_clip();
  Rig rig = detect_rig(clip);
  WalkBody body = make_walk_body(clip.skeleton, rig, default_leg_limits());
  Transform pelvis{Quat{}, {0, 0.95, 0}};
  const DlsLeg& leg() const { return body.dls[0]; }
  /// World transform of the ankle for local rotations `q`.
  Transform ankle_of(const std::array<Quat, 3>& q) const {
    Transform t = pelvis;
    for (int j = 0; j < 3; ++j) t = t * Transform{q[j], leg().offsets[j]};
    return t;
  }
  /// Local rotation of leg joint `j` from swing-twist angles in degrees.
  Quat pose(int j, double twist, double swing_x, double swing_z) const {
    return from_swing_twist({twist * k_deg_to_rad, swing_x * k_deg_to_rad, swing_z * k_deg_to_rad}, leg().frames[j]);
  }
};

TEST(WalkIk, ReachesReachableTargetsWithinLimits) {
  LegFixture fx;
  // Targets made by posing the leg (within limits), solved from a different start pose.
  const std::array<std::array<double, 5>, 4> poses = {{{-30, 45, 5, -10, 5},
                                                      {15, 10, -5, 20, -8},
                                                      {-60, 90, 10, 30, 12},
                                                      {-5, 20, 0, -25, 0}}};
  for (const auto& p : poses) {
    const std::array<Quat, 3> truth = {fx.pose(0, 0, p[0], p[2]), fx.pose(1, 0, p[1], 0), fx.pose(2, p[4], p[3], 0)};
    const Transform target = fx.ankle_of(truth);
    std::array<Quat, 3> q = {fx.pose(0, 0, -10, 0), fx.pose(1, 0, 20, 0), Quat{}};
    const DlsResult r = solve_leg_dls(fx.leg(), fx.pelvis, q, target);
    EXPECT_TRUE(r.converged) << p[0] << " " << p[1];
    EXPECT_LT(r.foot_error_m, 1e-5);
    EXPECT_LT(r.error_m, 1e-5);
    EXPECT_GT(r.iterations, 0);
    EXPECT_LE(r.iterations, 60);
    const Transform reached = fx.ankle_of(q);
    EXPECT_LT(length(reached.translation - target.translation), 1e-5);
    for (int j = 0; j < 3; ++j) EXPECT_TRUE(within_limit(q[j], fx.leg().limits[j], fx.leg().frames[j], 1e-9)) << j;
  }
}

TEST(WalkIk, UnreachableTargetIsApproachedThenHeldWithoutOscillating) {
  LegFixture fx;
  std::array<Quat, 3> start = {fx.pose(0, 0, -10, 0), fx.pose(1, 0, 30, 0), Quat{}};
  const Transform target{Quat{}, fx.pelvis.translation + Vec3{0.3, -1.6, 0.4}};  // far beyond the leg
  // The squared error of the three points after k iterations never grows with k.
  const std::array<Vec3, 3> goal = dls_effector_points(fx.leg(), target);
  double previous = 1e9;
  for (int k = 1; k <= 40; ++k) {
    std::array<Quat, 3> q = start;
    DlsSettings s;
    s.max_iterations = k;
    solve_leg_dls(fx.leg(), fx.pelvis, q, target, s);
    const std::array<Vec3, 3> p = dls_effector_points(fx.leg(), fx.ankle_of(q));
    const double sse = length_sq(p[0] - goal[0]) + length_sq(p[1] - goal[1]) + length_sq(p[2] - goal[2]);
    EXPECT_LE(sse, previous) << k;
    previous = sse;
  }
  std::array<Quat, 3> q = start;
  const DlsResult r = solve_leg_dls(fx.leg(), fx.pelvis, q, target);
  EXPECT_FALSE(r.converged);
  EXPECT_LT(r.iterations, DlsSettings{}.max_iterations);  // it stopped by itself
  // The leg points at the target: the ankle is about (distance - leg length) short of it.
  const Vec3 hip = apply(fx.pelvis, fx.leg().offsets[0]);
  const double leg_length = length(fx.leg().offsets[1]) + length(fx.leg().offsets[2]);
  const double ankle_miss = length(fx.ankle_of(q).translation - target.translation);
  EXPECT_NEAR(ankle_miss, length(target.translation - hip) - leg_length, 0.02);
  // Solving again from where it stopped does not move the leg.
  const std::array<Quat, 3> held = q;
  solve_leg_dls(fx.leg(), fx.pelvis, q, target);
  for (int j = 0; j < 3; ++j) EXPECT_GT(std::abs(dot(q[j], held[j])), 1 - 1e-10) << j;
}

TEST(WalkIk, LimitsAreAppliedWhenTheTargetAsksForMore) {
  LegFixture fx;
  // A foot orientation the ankle cannot take (toes 80 degrees up relative to a straight shin).
  const std::array<Quat, 3> bent = {fx.pose(0, 0, -20, 0), fx.pose(1, 0, 40, 0), Quat{}};
  Transform target = fx.ankle_of(bent);
  target.rotation = axis_angle({1, 0, 0}, -80 * k_deg_to_rad) * target.rotation;
  std::array<Quat, 3> q = {Quat{}, fx.pose(1, 0, 10, 0), Quat{}};
  const DlsResult r = solve_leg_dls(fx.leg(), fx.pelvis, q, target);
  EXPECT_FALSE(r.converged);
  for (int j = 0; j < 3; ++j) EXPECT_TRUE(within_limit(q[j], fx.leg().limits[j], fx.leg().frames[j], 1e-9)) << j;
  // With the orientation only preferred, the ankle position is still reached.
  q = {Quat{}, fx.pose(1, 0, 10, 0), Quat{}};
  const DlsResult soft = solve_leg_dls(fx.leg(), fx.pelvis, q, target, DlsSettings{}, 0.1);
  EXPECT_TRUE(soft.converged);
  EXPECT_LT(length(fx.ankle_of(q).translation - target.translation), 1e-5);
}

// The solve's inputs and outputs own no heap memory (bench_walk counts the allocations of the
// solve itself: none).
static_assert(std::is_trivially_copyable_v<DlsLeg>);
static_assert(std::is_trivially_copyable_v<DlsSettings>);
static_assert(std::is_trivially_copyable_v<DlsResult>);

}  // namespace
}  // namespace footfix
