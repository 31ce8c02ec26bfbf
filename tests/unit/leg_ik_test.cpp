// Leg chain solve on a synthetic two-leg skeleton: root -> pelvis -> hip -> knee -> heel -> toe
// (+ end site), plus a spine joint that the solve must never touch.
#include "footfix/ik/leg_ik.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "support/leg_test_rig.h"

namespace footfix {
namespace {

using namespace footfix::test;

TEST(LegIk, ReachesReachableTargetsWithinMicrometer) {
  // Offsets from the current toe, all well inside the leg's reach.
  const Vec3 offsets[] = {{0.05, 0.03, 0.04},
                          {-0.06, 0.02, -0.05},
                          {0, 0.1, 0.1},
                          {0.1, 0.05, -0.1},
                          {-0.02, 0.04, 0.08}};
  for (Vec3 off : offsets) {
    TestRig r = make_rig();
    double max_ext = hip_heel(r.clip, 1, r.left);
    Vec3 target = pos(r.clip, 1, r.left.toe) + off;
    // Precondition: the heel target is inside the soft limit's linear range.
    Vec3 heel_target = target + pos(r.clip, 1, r.left.heel) - pos(r.clip, 1, r.left.toe);
    ASSERT_LT(length(heel_target - pos(r.clip, 1, r.left.hip)), max_ext - 0.005);
    LegIkResult res = solve_leg(r.clip, 1, r.left, target, {}, max_ext, {});
    Vec3 toe = pos(r.clip, 1, r.left.toe);
    EXPECT_LT(length(toe - target), 1e-6) << off.x << " " << off.y << " " << off.z;
    EXPECT_TRUE(res.reached);
    EXPECT_NEAR(res.miss_m, length(toe - target), 1e-12);
    EXPECT_LE(hip_heel(r.clip, 1, r.left), max_ext + 1e-12);
  }
}

TEST(LegIk, OffPlaneBendAxisStillReachesTarget) {
  // A rig constant 17 degrees off the true bend-plane normal: the refinement passes must still
  // put the toe on target.
  TestRig r = make_rig();
  r.left.knee_side_ls = normalize(Vec3{1, 0.3, 0});
  double max_ext = hip_heel(r.clip, 1, r.left);
  Vec3 target = pos(r.clip, 1, r.left.toe) + Vec3{0.04, 0.08, 0.05};
  LegIkResult res = solve_leg(r.clip, 1, r.left, target, {}, max_ext, {});
  EXPECT_TRUE(res.reached);
  EXPECT_LT(length(pos(r.clip, 1, r.left.toe) - target), 1e-6);
}

TEST(LegIk, UnreachableTargetNeverOverextends) {
  TestRig r = make_rig();
  double max_ext = hip_heel(r.clip, 1, r.left);
  const Vec3 targets[] = {{0.1, -0.6, 0.1}, {2.0, 0.0, 0.0}, {0.1, 0.05, -1.5}};
  for (Vec3 target : targets) {
    TestRig t = make_rig();
    LegIkResult res = solve_leg(t.clip, 1, t.left, target, {}, max_ext, {});
    EXPECT_FALSE(res.reached);
    EXPECT_GT(res.miss_m, 0.1);
    EXPECT_TRUE(std::isfinite(res.miss_m));
    EXPECT_TRUE(all_finite(t.clip));
    EXPECT_LE(hip_heel(t.clip, 1, t.left), max_ext + 1e-12);
    // The soft limit keeps the heel within s of the limit, and approaches it closely.
    EXPECT_GT(hip_heel(t.clip, 1, t.left), max_ext - 0.005);
  }
}

TEST(LegIk, SoftReachFollowsTheDocumentedCurve) {
  EXPECT_DOUBLE_EQ(soft_reach_m(0.5, 0.9, 0.005), 0.5);
  EXPECT_DOUBLE_EQ(soft_reach_m(0.895, 0.9, 0.005), 0.895);
  EXPECT_NEAR(soft_reach_m(0.9, 0.9, 0.005), 0.9 - 0.005 * std::exp(-1.0), 1e-15);
  EXPECT_NEAR(soft_reach_m(5.0, 0.9, 0.005), 0.9, 1e-15);
  EXPECT_LT(soft_reach_m(5.0, 0.9, 0.005), 0.9 + 1e-15);
}

TEST(LegIk, StraightLegKeepsItsBendSide) {
  // A fully straight leg (the bend plane is undefined) pushed around its reach limit: the rig
  // constant must keep the knee bending forward in every case.
  const Vec3 offsets[] = {
      {0, 0, 0}, {0, 0, 0.02}, {0, 0, -0.02}, {0.01, -0.01, 0}, {0, 0.03, 0.01}};
  for (Vec3 off : offsets) {
    TestRig r = make_rig();
    for (int j : {r.left.hip, r.left.knee, r.left.heel}) r.clip.rotation(1, j) = Quat{};
    double max_ext = hip_heel(r.clip, 1, r.left);
    ASSERT_NEAR(max_ext, 0.84, 1e-12);
    Vec3 target = pos(r.clip, 1, r.left.toe) + off;
    solve_leg(r.clip, 1, r.left, target, {}, max_ext, {});
    EXPECT_TRUE(all_finite(r.clip));
    EXPECT_GT(bend_sign(r.clip, 1, r.left), 0.0) << off.x << " " << off.y << " " << off.z;
    EXPECT_LE(hip_heel(r.clip, 1, r.left), max_ext + 1e-12);
  }
}

TEST(LegIk, NearlyStraightLegDoesNotFlipWhenExtended) {
  TestRig r = make_rig();
  r.clip.rotation(1, r.left.hip) = axis_angle(k_x, -0.02);
  r.clip.rotation(1, r.left.knee) = axis_angle(k_x, 0.04);
  ASSERT_GT(bend_sign(r.clip, 1, r.left), 0.0);
  double max_ext = hip_heel(r.clip, 1, r.left);
  Vec3 target = pos(r.clip, 1, r.left.toe) + Vec3{0, -0.05, 0.03};  // beyond reach
  solve_leg(r.clip, 1, r.left, target, {}, max_ext, {});
  EXPECT_GT(bend_sign(r.clip, 1, r.left), 0.0);
}

TEST(LegIk, TargetAtCurrentPoseLeavesPoseUnchanged) {
  TestRig r = make_rig();
  const Clip before = r.clip;
  // The input pose was more extended (e.g. another frame's reach): no soft limit here.
  double max_ext = hip_heel(r.clip, 1, r.left) + 0.05;
  LegIkResult res = solve_leg(r.clip, 1, r.left, pos(r.clip, 1, r.left.toe), {}, max_ext, {});
  EXPECT_TRUE(res.reached);
  for (size_t i = 0; i < before.rotations.size(); ++i) {
    EXPECT_NEAR(r.clip.rotations[i].w, before.rotations[i].w, 1e-9) << i;
    EXPECT_NEAR(r.clip.rotations[i].x, before.rotations[i].x, 1e-9) << i;
    EXPECT_NEAR(r.clip.rotations[i].y, before.rotations[i].y, 1e-9) << i;
    EXPECT_NEAR(r.clip.rotations[i].z, before.rotations[i].z, 1e-9) << i;
  }
}

TEST(LegIk, TargetAtCurrentPoseAtFullInputReachShortensBySOverE) {
  // At exactly the input reach, the documented soft limit pulls the heel in by s/e.
  TestRig r = make_rig();
  double max_ext = hip_heel(r.clip, 1, r.left);
  solve_leg(r.clip, 1, r.left, pos(r.clip, 1, r.left.toe), {}, max_ext, {});
  EXPECT_NEAR(hip_heel(r.clip, 1, r.left), max_ext - 0.005 * std::exp(-1.0), 1e-9);
}

TEST(LegIk, HeelToeAndTipStayAboveTheirMinima) {
  TestRig r = make_rig();
  // Toe bent down so the foot tip sits below the toe.
  r.clip.rotation(1, r.left.toe) = axis_angle(k_x, 0.5);
  LegHeights h{0.04, 0.09, 0.035};
  double max_ext = hip_heel(r.clip, 1, r.left);
  Vec3 toe_now = pos(r.clip, 1, r.left.toe);
  Vec3 target{toe_now.x + 0.03, -0.2, toe_now.z + 0.02};  // below the floor
  LegIkResult res = solve_leg(r.clip, 1, r.left, target, h, max_ext, {});
  Vec3 toe = pos(r.clip, 1, r.left.toe);
  EXPECT_GE(pos(r.clip, 1, r.left.heel).y, h.heel_min_m - 1e-9);
  EXPECT_GE(toe.y, h.toe_min_m - 1e-9);
  EXPECT_GE(foot_tip_world(r.clip, 1, r.left).y, h.toe_end_min_m - 1e-9);
  // The tip was lifted exactly onto its minimum, not above it.
  EXPECT_NEAR(foot_tip_world(r.clip, 1, r.left).y, h.toe_end_min_m, 1e-9);
  // The clamped toe target (height 0.04) is reachable; the heel clamp lifts the heel, so the
  // toe keeps its heading at the clamped target but may miss by the foot's tilt change only.
  EXPECT_NEAR(toe.y, h.toe_min_m, 0.02);
  EXPECT_TRUE(std::isfinite(res.miss_m));
}

TEST(LegIk, ManyTargetsNeverPushJointsBelowTheirMinima) {
  // 400 targets on a grid around and below the foot, reachable or not.
  const LegHeights h{0.05, 0.1, 0.03};
  for (double dx : {-0.3, -0.1, 0.0, 0.1, 0.3})
    for (double dy : {-0.5, -0.2, -0.05, 0.0, 0.05, 0.2, 0.4, 0.7})
      for (double dz : {-0.5, -0.2, -0.05, 0.0, 0.05, 0.2, 0.4, 0.6, 0.9, 1.2}) {
        TestRig r = make_rig();
        r.clip.rotation(1, r.left.toe) = axis_angle(k_x, 0.4);  // tip below the toe
        double max_ext = hip_heel(r.clip, 1, r.left);
        Vec3 target = pos(r.clip, 1, r.left.toe) + Vec3{dx, dy, dz};
        LegIkResult res = solve_leg(r.clip, 1, r.left, target, h, max_ext, {});
        ASSERT_TRUE(all_finite(r.clip));
        ASSERT_TRUE(std::isfinite(res.miss_m));
        EXPECT_LE(hip_heel(r.clip, 1, r.left), max_ext + 1e-12);
        EXPECT_GE(pos(r.clip, 1, r.left.heel).y, h.heel_min_m - 1e-9)
            << dx << " " << dy << " " << dz;
        EXPECT_GE(foot_tip_world(r.clip, 1, r.left).y, h.toe_end_min_m - 1e-9)
            << dx << " " << dy << " " << dz;
        EXPECT_GE(pos(r.clip, 1, r.left.toe).y, h.toe_min_m - 1e-9) << dx << " " << dy << " " << dz;
      }
}

TEST(LegIk, ToeTargetIsHeightClampedAndReached) {
  TestRig r = make_rig();
  double max_ext = hip_heel(r.clip, 1, r.left);
  Vec3 toe_now = pos(r.clip, 1, r.left.toe);
  LegHeights h{toe_now.y + 0.02, -1e30, -1e30};
  Vec3 target{toe_now.x + 0.02, toe_now.y - 0.1, toe_now.z};
  LegIkResult res = solve_leg(r.clip, 1, r.left, target, h, max_ext, {});
  EXPECT_TRUE(res.reached);
  Vec3 toe = pos(r.clip, 1, r.left.toe);
  EXPECT_NEAR(toe.x, target.x, 1e-6);
  EXPECT_NEAR(toe.y, toe_now.y + 0.02, 1e-6);
  EXPECT_NEAR(toe.z, target.z, 1e-6);
}

TEST(LegIk, ChangesOnlyTheLegJointsOfTheFrame) {
  TestRig r = make_rig();
  const Clip before = r.clip;
  double max_ext = hip_heel(r.clip, 1, r.left);
  LegHeights h{0.0, 0.05, 0.02};
  solve_leg(r.clip, 1, r.left, pos(r.clip, 1, r.left.toe) + Vec3{0.05, -0.05, 0.05}, h, max_ext,
            {});
  const int leg_joints[] = {r.left.hip, r.left.knee, r.left.heel, r.left.toe};
  int changed = 0;
  for (int f = 0; f < r.clip.frame_count; ++f) {
    for (int j = 0; j < r.clip.joint_count(); ++j) {
      bool in_leg = f == 1 && std::find(std::begin(leg_joints), std::end(leg_joints), j) !=
                                  std::end(leg_joints);
      EXPECT_TRUE(r.clip.translation(f, j) == before.translation(f, j)) << f << " " << j;
      if (in_leg) {
        changed += r.clip.rotation(f, j) != before.rotation(f, j);
      } else {
        EXPECT_TRUE(r.clip.rotation(f, j) == before.rotation(f, j)) << f << " " << j;
      }
    }
  }
  EXPECT_GE(changed, 3);  // hip, knee and heel at least
}

TEST(LegIk, RigWithoutToeLocksTheHeel) {
  TestRig r = make_rig();
  r.left.toe = -1;
  r.clip.skeleton.end_sites[r.left.heel] = Vec3{0, -0.08, 0.15};
  double max_ext = hip_heel(r.clip, 1, r.left);
  Vec3 target = pos(r.clip, 1, r.left.heel) + Vec3{0.03, 0.04, -0.05};
  Quat toe_rot = r.clip.rotation(1, r.clip.skeleton.find("LeftToeBase"));
  LegIkResult res = solve_leg(r.clip, 1, r.left, target, {}, max_ext, {});
  EXPECT_TRUE(res.reached);
  EXPECT_LT(length(pos(r.clip, 1, r.left.heel) - target), 1e-6);
  EXPECT_TRUE(r.clip.rotation(1, r.clip.skeleton.find("LeftToeBase")) == toe_rot);
}

TEST(LegIk, ValidateRejectsBadSoftness) {
  for (double s : {0.0, -0.01, std::nan("")}) {
    LegIkSettings settings;
    settings.softness_m = s;
    try {
      settings.validate();
      ADD_FAILURE() << "accepted softness " << s;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::usage);
      EXPECT_NE(std::string(e.what()).find("softness_m"), std::string::npos);
    }
  }
  EXPECT_NO_THROW(LegIkSettings{}.validate());
}

/// The bent test leg asked to put its toe `beyond_m` further from the hip than the pose's
/// extension allows (out along hip -> heel), with the given foot pitch hint: the miss and how
/// far the heel rose against the toe.
struct PitchOutcome {
  double miss_m = 0, heel_rise_m = 0;
};
PitchOutcome reach_beyond(double beyond_m, double foot_pitch, double max_pitch_deg = 20) {
  TestRig r = make_rig();
  const double max_ext = hip_heel(r.clip, 1, r.left);
  const Vec3 hip = pos(r.clip, 1, r.left.hip), toe = pos(r.clip, 1, r.left.toe), heel = pos(r.clip, 1, r.left.heel);
  const Vec3 target = toe + normalize(heel - hip) * (max_ext + beyond_m - length(heel - hip));
  LegIkSettings settings;
  settings.max_foot_pitch_deg = max_pitch_deg;
  LegIkHints hints;
  hints.foot_pitch = foot_pitch;
  const LegIkResult res = solve_leg(r.clip, 1, r.left, target, {}, max_ext, settings, hints);
  EXPECT_LE(hip_heel(r.clip, 1, r.left), max_ext + 1e-9);  // never straighter than allowed
  PitchOutcome o;
  o.miss_m = res.miss_m;
  o.heel_rise_m = (pos(r.clip, 1, r.left.heel) - pos(r.clip, 1, r.left.toe)).y - (heel - toe).y;
  return o;
}

TEST(LegIk, FootPitchReachesATargetJustBeyondTheLegWithTheHeelRaised) {
  // 1 cm beyond the soft limit's end: without pitch the toe falls short; with it the foot turns
  // about the toe target (the heel rises) and the toe lands on it.
  const PitchOutcome none = reach_beyond(0.01, 0.0), pitched = reach_beyond(0.01, 1.0);
  EXPECT_GT(none.miss_m, 0.005);
  EXPECT_LT(pitched.miss_m, k_leg_ik_reach_tolerance_m);
  EXPECT_GT(pitched.heel_rise_m, 0.002);
  // Half the hint halves the pitch's limit, not the pitch: this target needs a small turn and
  // is still reached exactly; one 2 cm beyond needs more than the halved limit gives and is
  // reached part of the way (the full hint reaches it).
  EXPECT_LT(reach_beyond(0.01, 0.5).miss_m, k_leg_ik_reach_tolerance_m);
  const PitchOutcome full_far = reach_beyond(0.02, 1.0), half_far = reach_beyond(0.02, 0.5);
  EXPECT_LT(full_far.miss_m, k_leg_ik_reach_tolerance_m);
  EXPECT_GT(half_far.miss_m, 0.0005);
  EXPECT_LT(half_far.miss_m, reach_beyond(0.02, 0.0).miss_m);
  // A zero limit is no pitch at all.
  EXPECT_DOUBLE_EQ(reach_beyond(0.01, 1.0, 0).miss_m, none.miss_m);
}

/// Angle (radians) between a and b.
double angle_between(Vec3 a, Vec3 b) { return std::acos(std::clamp(dot(normalize(a), normalize(b)), -1.0, 1.0)); }

TEST(LegIk, PitchedHeelTargetTurnsTheRigidFootTowardsTheHipUpToItsLimit) {
  const Vec3 toe{0, 0, 0.3}, heel{0, 0.07, 0.17}, hip{0, 0.9, 0};
  const double foot = length(heel - toe), max_pitch = 20 * k_pi / 180;
  const double heel_hip = length(heel - hip);
  // Within reach: unchanged.
  EXPECT_EQ(length(pitched_heel_target(toe, heel, hip, heel_hip + 0.001, max_pitch, 1) - heel), 0.0);
  // 5 mm short of reach: the heel turns about the toe (the foot keeps its length) until it is
  // within reach (exactly: a pitch under 70% of the limit is not saturated), upwards, towards
  // the hip.
  const Vec3 turned = pitched_heel_target(toe, heel, hip, heel_hip - 0.005, max_pitch, 1);
  EXPECT_NEAR(length(turned - toe), foot, 1e-12);
  EXPECT_NEAR(length(turned - hip), heel_hip - 0.005, 1e-9);
  EXPECT_GT(turned.y, heel.y);
  // Far out of reach: the turn stops short of the limit, the weight times the max.
  for (double weight : {1.0, 0.5}) {
    const double turn = angle_between(pitched_heel_target(toe, heel, hip, 0.5, max_pitch, weight) - toe, heel - toe);
    EXPECT_LE(turn, weight * max_pitch + 1e-12) << weight;
    EXPECT_GT(turn, 0.9 * weight * max_pitch) << weight;
  }
  // No limit or no weight: unchanged.
  EXPECT_EQ(length(pitched_heel_target(toe, heel, hip, 0.5, 0, 1) - heel), 0.0);
  EXPECT_EQ(length(pitched_heel_target(toe, heel, hip, 0.5, max_pitch, 0) - heel), 0.0);
}

TEST(LegIk, PitchedHeelTargetGivesTheNeededTurnExactlyUpToExactFootPitch) {
  // The reach that needs a turn of `turn` (radians) towards the hip: |heel' - hip|^2 = h^2 + f^2
  // - 2 h f cos(alpha - turn), alpha the angle at the toe between the foot and the hip.
  const Vec3 toe{0, 0, 0.3}, heel{0, 0.07, 0.17}, hip{0, 0.9, 0};
  const double h = length(hip - toe), f = length(heel - toe), alpha = angle_between(heel - toe, hip - toe);
  auto reach_for = [&](double turn) { return std::sqrt(h * h + f * f - 2 * h * f * std::cos(alpha - turn)); };
  const double max_pitch = 40 * k_pi / 180;
  for (double weight : {1.0, 0.5}) {
    const double exact = exact_foot_pitch_rad(weight * max_pitch);
    ASSERT_GT(exact, 0.0);
    // Just within: the heel lands at that reach. Beyond: short of it (the turn saturates).
    EXPECT_NEAR(length(pitched_heel_target(toe, heel, hip, reach_for(0.99 * exact), max_pitch, weight) - hip),
                reach_for(0.99 * exact), 1e-9) << weight;
    EXPECT_GT(length(pitched_heel_target(toe, heel, hip, reach_for(1.2 * exact), max_pitch, weight) - hip),
              reach_for(1.2 * exact) + 1e-4) << weight;
  }
}

TEST(LegIk, ValidateRejectsBadFootPitch) {
  for (double d : {-1.0, 61.0, std::nan("")}) {
    LegIkSettings settings;
    settings.max_foot_pitch_deg = d;
    EXPECT_THROW(settings.validate(), Error) << d;
  }
}

}  // namespace
}  // namespace footfix
