// Treadmill decision and mapping on synthetic walks (no clip): an in-place walk is recognised
// and its ground velocity found; root-motion walks, sliding or not, are left in world space.
#include "footfix/solve/treadmill.h"

#include <gtest/gtest.h>

#include "footfix/core/error.h"
#include "support/synthetic_walk.h"

namespace footfix {
namespace {

using test::SyntheticWalk;

/// The synthetic walk with its forward travel removed: the ground moves at -speed along Z.
OfflineSolveInput in_place(const SyntheticWalk& walk) {
  OfflineSolveInput in = walk.make();
  shift_by_ground(in.pelvis_ws, in.toe_ws, {0, 0, walk.speed_mps}, walk.fps, -1);
  EXPECT_NEAR(in.pelvis_ws.back().z, in.pelvis_ws.front().z, 1e-9);
  return in;
}

TEST(Treadmill, InPlaceWalkIsDetectedWithItsGroundVelocity) {
  SyntheticWalk walk;
  walk.slide_scale = 1;
  TreadmillDecision d = decide_treadmill(in_place(walk), {});
  EXPECT_TRUE(d.on);
  EXPECT_NEAR(d.ground_velocity_mps.z, -walk.speed_mps, 1e-6);
  EXPECT_NEAR(d.ground_velocity_mps.x, 0, 1e-9);
  EXPECT_EQ(d.ground_velocity_mps.y, 0);
}

TEST(Treadmill, InPlaceWalkWhoseRootWandersAndComesBackIsDetected) {
  // A treadmill capture: the body drifts 0.6 m sideways on the belt and back, four times over
  // the clip, faster than half the belt's speed over half-second windows, so only its net
  // travel (none) shows it is in place. The ground still runs back at -speed along Z.
  SyntheticWalk walk;
  walk.slide_scale = 1;
  OfflineSolveInput in = in_place(walk);
  const double duration_s = (walk.frames - 1) / walk.fps;
  for (int f = 0; f < walk.frames; ++f) {
    const Vec3 drift{0.6 * std::sin(8 * k_pi * (f / walk.fps) / duration_s), 0, 0};
    in.pelvis_ws[f] += drift;
    for (auto& toes : in.toe_ws) toes[f] += drift;
  }
  ASSERT_GT(root_travel_speed(in.pelvis_ws, walk.fps), k_treadmill_max_root_fraction * walk.speed_mps);
  EXPECT_LT(root_net_speed(in.pelvis_ws, walk.fps), 1e-9);
  TreadmillDecision d = decide_treadmill(in, {});
  EXPECT_TRUE(d.on);
  EXPECT_NEAR(d.ground_velocity_mps.z, -walk.speed_mps, 0.05);
}

TEST(Treadmill, RootMotionWalksStayInWorldSpace) {
  for (double scale : {1.0, 1.25, 0.75}) {
    SyntheticWalk walk;
    walk.slide_scale = scale;
    TreadmillDecision d = decide_treadmill(walk.make(), {});
    EXPECT_FALSE(d.on) << scale;
    EXPECT_EQ(d.ground_velocity_mps, Vec3{}) << scale;
  }
}

TEST(Treadmill, ModesAndAGivenVelocityOverrideDetection) {
  SyntheticWalk walk;
  walk.slide_scale = 1;
  TreadmillSettings off;
  off.mode = TreadmillMode::off;
  EXPECT_FALSE(decide_treadmill(in_place(walk), off).on);
  TreadmillSettings on;
  on.mode = TreadmillMode::on;
  TreadmillDecision forced = decide_treadmill(walk.make(), on);
  EXPECT_TRUE(forced.on);
  EXPECT_LT(length(forced.ground_velocity_mps), 1e-9);  // a root-motion walk's ground stands still
  TreadmillSettings given;
  given.mode = TreadmillMode::off;
  given.ground_velocity_mps = Vec3{0.3, 7.0, -1.2};
  TreadmillDecision g = decide_treadmill(walk.make(), given);
  EXPECT_TRUE(g.on);
  EXPECT_EQ(g.ground_velocity_mps, (Vec3{0.3, 0.0, -1.2}));
  given.ground_velocity_mps = Vec3{std::nan(""), 0, 0};
  EXPECT_THROW(given.validate(), Error);
}

TEST(Treadmill, GroundVelocityIsTheGroundsTravelUnderPlantedFeet) {
  // One foot planted on a ground at (0.5, 0, -1) m/s with one outlier frame (it cancels within
  // its contact); the other foot never planted. Unplanted frames take the planted ones' speed.
  const double fps = 30;
  std::array<std::vector<Vec3>, 2> toes;
  std::array<std::vector<std::uint8_t>, 2> contact;
  for (int f = 0; f < 20; ++f) {
    toes[0].push_back(Vec3{0.5, 0, -1} * (f / fps));
    toes[1].push_back(Vec3{3.0 * f, 0, 0});
    contact[0].push_back(f < 15);
    contact[1].push_back(0);
  }
  toes[0][7].x += 1.0;
  Vec3 g = estimate_ground_velocity(toes, contact, fps);
  EXPECT_NEAR(g.x, 0.5, 1e-9);
  EXPECT_NEAR(g.z, -1.0, 1e-9);
  contact[0].assign(20, 0);
  EXPECT_EQ(estimate_ground_velocity(toes, contact, fps), Vec3{});
}

TEST(Treadmill, GroundVelocityWeighsEveryFrameAlike) {
  // Planted feet at 1 m/s for 10 frames, then 0.25 m/s for 30 (a body that walks, then stands on
  // a slower ground): the ground's travel is 10 + 7.5 steps' worth over 40 frames, whatever the
  // number of feet planted in each phase (both in the second).
  const double fps = 10;
  std::array<std::vector<Vec3>, 2> toes;
  std::array<std::vector<std::uint8_t>, 2> contact;
  double x = 0;
  for (int f = 0; f <= 40; ++f) {
    toes[0].push_back({x, 0, 0});
    toes[1].push_back({x + 0.3, 0.5, 0});
    contact[0].push_back(1);
    contact[1].push_back(f > 10);
    x += (f < 10 ? 1.0 : 0.25) / fps;
  }
  EXPECT_NEAR(estimate_ground_velocity(toes, contact, fps).x, (10 * 1.0 + 30 * 0.25) / 40, 1e-12);
  // The mean over planted frame pairs instead counts the second phase's frames twice.
  EXPECT_NEAR(planted_mean_velocity(toes, contact, fps).x, (10 * 1.0 + 2 * 29 * 0.25) / (10 + 2 * 29 + 1) +
                                                               0.25 / (10 + 2 * 29 + 1), 1e-12);
  // Frames without a planted foot are interpolated between their neighbours' steps.
  contact[0].assign(41, 0);
  contact[1].assign(41, 0);
  for (int f = 0; f <= 5; ++f) contact[0][f] = 1;
  for (int f = 30; f <= 40; ++f) contact[0][f] = 1;
  const std::vector<Vec3> steps = ground_steps(toes, contact);
  EXPECT_NEAR(steps[5].x, 0.1, 1e-12);
  EXPECT_NEAR(steps[31].x, 0.025, 1e-12);
  EXPECT_NEAR(steps[18].x, 0.1 + (0.025 - 0.1) * 13 / 26, 1e-12);
  EXPECT_EQ(steps[0], Vec3{});
}

TEST(Treadmill, ShiftMapsThereAndBack) {
  SyntheticWalk walk;
  walk.frames = 50;
  OfflineSolveInput a = walk.make(), b = a;
  const Vec3 g{0.2, 5.0, -0.7};
  shift_by_ground(b.pelvis_ws, b.toe_ws, g, walk.fps, -1);
  EXPECT_NEAR(b.pelvis_ws[30].x - a.pelvis_ws[30].x, -0.2 * 30 / walk.fps, 1e-12);
  EXPECT_EQ(b.pelvis_ws[30].y, a.pelvis_ws[30].y);  // horizontal only
  shift_by_ground(b.pelvis_ws, b.toe_ws, g, walk.fps, +1);
  for (int f = 0; f < walk.frames; ++f) EXPECT_LT(length(b.toe_ws[1][f] - a.toe_ws[1][f]), 1e-12);
}

}  // namespace
}  // namespace footfix
