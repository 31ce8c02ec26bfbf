// How far apply_offline_solve lets the leg IK straighten a leg beyond the source's pose: by 5% of
// the leg's slack at that frame (thigh + shin less the source's hip-heel distance). A bent knee
// reaches a target a few millimetres beyond its pose; a straight leg is never made straighter.
// The foot pitch is off here, so the reach comes from the knee alone.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "footfix/ik/leg_ik.h"
#include "solve/offline_apply.h"
#include "support/leg_test_rig.h"

namespace footfix {
namespace {

constexpr int k_extension_frames = 3;
constexpr int k_extension_hips = 0;
constexpr double k_thigh_m = 0.42, k_shin_m = 0.42;  // leg_test_rig.h

struct Scene {
  test::TestRig rig = test::make_rig(k_extension_frames);
  std::array<LegChain, 2> legs{rig.left, rig.right};
  Clip input;
  /// Both knees bent by `knee_rad` (0: a straight leg).
  explicit Scene(double knee_rad) {
    for (int f = 0; f < k_extension_frames; ++f)
      for (const LegChain& leg : legs) rig.clip.rotation(f, leg.knee) = axis_angle(test::k_x, knee_rad);
    input = rig.clip;
  }
  /// Moves every toe target `beyond_m` farther from its hip along hip -> heel, hips kept, and
  /// applies that as a solve result.
  OfflineApplyReport apply(double beyond_m) {
    OfflineSolveResult solved;
    solved.pelvis_ws.resize(k_extension_frames);
    for (int f = 0; f < k_extension_frames; ++f) solved.pelvis_ws[f] = test::pos(input, f, k_extension_hips);
    std::array<LegHeights, 2> heights;
    for (int s = 0; s < 2; ++s) {
      heights[s] = LegHeights{};  // no height clamps: only the reach limits the leg
      for (int f = 0; f < k_extension_frames; ++f) {
        const Vec3 hip = test::pos(input, f, legs[s].hip), heel = test::pos(input, f, legs[s].heel);
        solved.toe_ws[s].push_back(test::pos(input, f, legs[s].toe) + (heel - hip) * (beyond_m / length(heel - hip)));
      }
    }
    LegIkSettings ik;
    ik.max_foot_pitch_deg = 0;
    return apply_offline_solve(rig.clip, k_extension_hips, legs, solved, constant_heights(heights, k_extension_frames), ik);
  }
};

TEST(OfflineApplyExtension, BentKneeStraightensALittleToReachItsTarget) {
  // Knee bent 1.2 rad: hip-heel 0.84 cos 0.6 = 0.693 m, slack 147 mm, so the leg may reach 7.3 mm
  // beyond its pose and a target 2 mm beyond lies before the 5 mm soft limit begins. With the
  // leg held at its pose's extension the soft limit leaves the toe about 3 mm short.
  Scene scene(1.2);
  const OfflineApplyReport report = scene.apply(0.002);
  for (int s = 0; s < 2; ++s) {
    EXPECT_EQ(report.unreached_frames[s], 0) << s;
    EXPECT_LT(report.max_miss_m[s], k_leg_ik_reach_tolerance_m) << s;
    for (int f = 0; f < k_extension_frames; ++f)
      EXPECT_NEAR(test::hip_heel(scene.rig.clip, f, scene.legs[s]), test::hip_heel(scene.input, f, scene.legs[s]) + 0.002,
                  1e-6);
  }
}

TEST(OfflineApplyExtension, TargetFarBeyondStraightensByAtMostTheSlackShare) {
  for (double knee_rad : {0.3, 0.8, 1.2}) {
    Scene scene(knee_rad);
    scene.apply(0.05);
    for (int s = 0; s < 2; ++s)
      for (int f = 0; f < k_extension_frames; ++f) {
        const double source_m = test::hip_heel(scene.input, f, scene.legs[s]);
        const double limit_m = source_m + 0.05 * (k_thigh_m + k_shin_m - source_m);
        const double cleaned_m = test::hip_heel(scene.rig.clip, f, scene.legs[s]);
        EXPECT_LE(cleaned_m, limit_m + 1e-12) << knee_rad;
        EXPECT_GT(cleaned_m, source_m) << knee_rad;  // it does use some of the slack
      }
  }
}

TEST(OfflineApplyExtension, StraightLegIsNeverMadeStraighter) {
  Scene scene(0.0);
  const OfflineApplyReport report = scene.apply(0.03);
  for (int s = 0; s < 2; ++s) {
    EXPECT_GT(report.max_miss_m[s], 0.005) << s;  // the target stays out of reach (the foot turns towards it)
    for (int f = 0; f < k_extension_frames; ++f)
      EXPECT_LE(test::hip_heel(scene.rig.clip, f, scene.legs[s]), test::hip_heel(scene.input, f, scene.legs[s]) + 1e-12);
  }
}

}  // namespace
}  // namespace footfix
