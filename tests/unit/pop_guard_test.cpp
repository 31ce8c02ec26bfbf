// The pop guard (solve/pop_guard.h) on the bundled CMU walk: a box put into one knee's rotation
// (a correction that switches on in one frame and off in another, as an unblended lock would)
// pops the leg at both edges; the guard smooths the edges until the per-frame pop measure of the
// metrics is under its limit, and leaves the rest of the clip - other frames, other joints - bit
// for bit. The box sits where the source walks calmly (its jolts, up to 177 m/s^2 at the hips,
// come later: a correction held over such a jolt is the guard's stall case, where smoothing
// alone cannot help; clean_reach_test meets it).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "footfix/core/error.h"
#include "footfix/core/math.h"
#include "footfix/eval/metrics.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/core/fk.h"
#include "footfix/ik/leg_ik.h"
#include "footfix/solve/pop_guard.h"
#include "solve/guard_pops.h"
#include "support/paths.h"

namespace footfix {
namespace {

constexpr int k_box_first = 40, k_box_end = 90;
constexpr double k_step_deg = 6;

/// `clip` with the left knee bent k_step_deg more over frames [k_box_first, k_box_end).
Clip with_knee_step(const Clip& clip, const LegChain& leg) {
  Clip out = clip;
  for (int f = k_box_first; f < k_box_end; ++f)
    out.rotation(f, leg.knee) = normalize(out.rotation(f, leg.knee) * axis_angle(leg.knee_side_ls, k_step_deg * k_pi / 180));
  return out;
}

ContactMask no_contacts(const Clip& clip) {
  return {std::vector<std::uint8_t>(static_cast<size_t>(clip.frame_count), 0),
          std::vector<std::uint8_t>(static_cast<size_t>(clip.frame_count), 0)};
}

bool same_frame(const Clip& a, const Clip& b, int f) {
  for (int j = 0; j < a.joint_count(); ++j)
    if (a.rotation(f, j) != b.rotation(f, j) || a.translation(f, j) != b.translation(f, j)) return false;
  return true;
}

TEST(PopGuard, SmoothsAStepInAKneeUnderTheLimitAndLeavesTheRestAlone) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip& source = loaded.clip;
  const LegChain& left = loaded.rig.legs[0];
  const Clip stepped = with_knee_step(source, left);
  const ContactMask mask = no_contacts(source);
  const ClipMetrics before = compare_clips(source, stepped, loaded.rig, mask);
  ASSERT_GT(before.pop_ratio, 2.0) << "the step must be a pop to begin with";
  EXPECT_TRUE(std::abs(before.pop_frame - k_box_first) <= 1 || std::abs(before.pop_frame - k_box_end) <= 1) << before.pop_frame;

  const PopGuardSettings settings;  // limit 1.4
  Clip guarded = stepped;
  const PopGuardReport report = guard_pops(guarded, loaded.rig, capture_pop_guard_source(source, loaded.rig, settings), settings);
  const ClipMetrics after = compare_clips(source, guarded, loaded.rig, mask);
  std::printf("pop guard: knee step pop %.2f -> %.2f, %d frames smoothed in %d passes\n", before.pop_ratio, after.pop_ratio,
              report.frames_smoothed, report.passes);
  EXPECT_LT(after.pop_ratio, settings.max_ratio + 1e-3);
  EXPECT_EQ(report.frames_over, 0);
  EXPECT_GT(report.frames_smoothed, 0);
  EXPECT_TRUE(after.non_leg_unchanged());
  EXPECT_LE(after.max_new_penetration_mm, before.max_new_penetration_mm);

  // Only the edges' neighbourhoods (within 0.25 s) changed; the box itself is kept between them.
  const int reach = static_cast<int>(0.25 * source.fps);
  int first_changed = -1, last_changed = -1;
  for (int f = 0; f < source.frame_count; ++f) {
    if (same_frame(guarded, stepped, f)) continue;
    if (first_changed < 0) first_changed = f;
    last_changed = f;
    EXPECT_TRUE(std::abs(f - k_box_first) <= reach || std::abs(f - k_box_end) <= reach) << "frame " << f;
  }
  ASSERT_GE(first_changed, 0);
  // Frames it changed: only leg rotations and the root's translation.
  const Rig& rig = loaded.rig;
  for (int f = first_changed; f <= last_changed; ++f)
    for (int j = 0; j < source.joint_count(); ++j) {
      bool leg_joint = false;
      for (const LegChain& leg : rig.legs) leg_joint = leg_joint || j == leg.hip || j == leg.knee || j == leg.heel || j == leg.toe;
      if (!leg_joint) {
        EXPECT_EQ(guarded.rotation(f, j), stepped.rotation(f, j)) << "joint " << j << " frame " << f;
      }
      if (j != rig.translation_joint) {
        EXPECT_EQ(guarded.translation(f, j), stepped.translation(f, j)) << "joint " << j << " frame " << f;
      }
    }
}

TEST(PopGuard, OffOrNothingToSmoothChangesNothing) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip stepped = with_knee_step(loaded.clip, loaded.rig.legs[0]);
  PopGuardSettings off;
  off.max_ratio = 0;
  Clip guarded = stepped;
  EXPECT_EQ(guard_pops(guarded, loaded.rig, capture_pop_guard_source(loaded.clip, loaded.rig, off), off).frames_smoothed, 0);
  for (int f = 0; f < guarded.frame_count; ++f) ASSERT_TRUE(same_frame(guarded, stepped, f)) << f;

  // The source against itself: no correction, nothing over the limit.
  const PopGuardSettings on;
  Clip same = loaded.clip;
  const PopGuardReport report = guard_pops(same, loaded.rig, capture_pop_guard_source(loaded.clip, loaded.rig, on), on);
  EXPECT_EQ(report.frames_smoothed, 0);
  for (int f = 0; f < same.frame_count; ++f) ASSERT_TRUE(same_frame(same, loaded.clip, f)) << f;
}

TEST(PopGuard, SettingsOutsideTheirRangeAreUsageErrors) {
  for (double bad : {1.0, -1.0, 101.0, std::nan("")}) {
    PopGuardSettings s;
    s.max_ratio = bad;
    EXPECT_THROW(s.validate(), Error) << bad;
  }
  PopGuardSettings off;
  off.max_ratio = 0;
  EXPECT_NO_THROW(off.validate());
}

// A planted leg hangs from the root: smoothing the root's correction where only the other leg
// pops would move that planted toe. The left knee steps (as above) while the root carries a
// wobbling correction (down 0-6 mm, 4 Hz, as a solve's pelvis correction may) that the right
// leg, planted all along, undoes by IK, so its toe stands still. Given the contacts, the guard
// smooths the left leg's step without moving the right toe; without them (nothing known to be
// planted) it smooths the root too, and the right toe moves.
TEST(PopGuard, HoldsTheRootWhereAPlantedLegHangsFromIt) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip& source = loaded.clip;
  const Rig& rig = loaded.rig;
  const LegChain& right = rig.legs[1];
  Clip cleaned = with_knee_step(source, rig.legs[0]);
  std::vector<Vec3> right_toe(static_cast<size_t>(source.frame_count));
  for (int f = 0; f < source.frame_count; ++f) {
    right_toe[f] = joint_world_position(source, f, right.contact_joint());
    cleaned.translation(f, rig.translation_joint).y -= 0.003 * (1 - std::cos(2 * k_pi * 4 * f / source.fps));
    const double straight_m = length(joint_world_position(source, f, right.knee) - joint_world_position(source, f, right.hip)) +
                              length(joint_world_position(source, f, right.heel) - joint_world_position(source, f, right.knee));
    // The root only comes down: the leg bends to hold its toe (its soft reach limit set beyond
    // the straight leg, so a leg straight in the source is not held short).
    const LegIkResult held = solve_leg(cleaned, f, right, right_toe[f], LegHeights{}, straight_m + 0.05, LegIkSettings{});
    ASSERT_LT(held.miss_m, 1e-4) << "frame " << f;
  }
  ContactResult contacts;
  for (int s = 0; s < 2; ++s) contacts.feet[s].contact.assign(static_cast<size_t>(source.frame_count), s == 1 ? 1 : 0);

  const PopGuardSettings settings;
  const PopGuardSource captured = capture_pop_guard_source(source, rig, settings);
  auto right_toe_moved_m = [&](const Clip& clip) {
    double worst = 0;
    for (int f = 0; f < clip.frame_count; ++f)
      worst = std::max(worst, length(joint_world_position(clip, f, right.contact_joint()) - right_toe[f]));
    return worst;
  };
  Clip held = cleaned, unheld = cleaned;
  const PopGuardReport with_contacts = guard_pops(held, rig, captured, settings, &contacts);
  const PopGuardReport without = guard_pops(unheld, rig, captured, settings);
  std::printf("pop guard: right toe moved %.4f mm with contacts, %.4f mm without (%d / %d frames smoothed)\n",
              1000 * right_toe_moved_m(held), 1000 * right_toe_moved_m(unheld), with_contacts.frames_smoothed,
              without.frames_smoothed);
  EXPECT_EQ(with_contacts.frames_over, 0);
  EXPECT_GT(with_contacts.frames_smoothed, 0);
  EXPECT_LT(compare_clips(source, held, rig, no_contacts(source)).pop_ratio, settings.max_ratio + 1e-3);
  EXPECT_LT(right_toe_moved_m(held), 1e-6);
  EXPECT_GT(right_toe_moved_m(unheld), 1e-4);
}

TEST(RotationVector, RoundTripsThroughTheExponentialMap) {
  const std::array<Quat, 5> rotations{Quat{}, axis_angle(normalize(Vec3{1, 2, 3}), 0.3), axis_angle({0, 1, 0}, 3.1),
                                      axis_angle(normalize(Vec3{-1, 0, 1}), 1e-9), normalize(Quat{-0.5, 0.5, 0.5, 0.5})};
  for (const Quat& q : rotations) {
    const Vec3 v = rotation_vector(q);
    EXPECT_NEAR(length(v), angle_of(q), 1e-12);
    const Quat back = from_rotation_vector(v);
    EXPECT_NEAR(std::abs(dot(back, q)), 1.0, 1e-12);  // the same rotation, up to the sign
  }
  // Known values: 90 degrees about Y.
  const Vec3 v = rotation_vector(axis_angle({0, 1, 0}, k_pi / 2));
  EXPECT_NEAR(v.x, 0, 1e-15);
  EXPECT_NEAR(v.y, k_pi / 2, 1e-15);
  EXPECT_NEAR(v.z, 0, 1e-15);
}

}  // namespace
}  // namespace footfix
