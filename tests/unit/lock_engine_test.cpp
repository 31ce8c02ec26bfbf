// What an engine needs from the runtime lock besides the pose (issue 33, section 3): the same
// contacts at any tick rate, a teleport detected without reset(), a one-frame root glitch skipped,
// an in-place clip locked on a treadmill given its ground velocity (and a warning without it), the
// lock blended out by weights, and a calibration from one stance pose.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "footfix/contacts/contact_eval.h"
#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "footfix/lock/event_pops.h"
#include "footfix/lock/lock_clip.h"
#include "footfix/lock/runtime_lock.h"
#include "footfix/lock/stance_heights.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/walk/walk.h"
#include "support/paths.h"

namespace footfix {
namespace {

WalkResult flat_walk(double fps, double duration_s = 6.0) {
  WalkSettings settings;
  settings.fps = fps;
  settings.gait.duration_s = duration_s;
  return generate_walk(Terrain{}, settings);
}

/// Contact runs of a lock_clip track, in seconds: when each turns on (its first frame) and off
/// (the frame after its last).
std::vector<std::pair<double, double>> contact_times(const std::vector<std::uint8_t>& contact, double fps) {
  std::vector<std::pair<double, double>> out;
  for (const ContactInterval& in : contact_runs(contact)) out.emplace_back(in.first_frame / fps, (in.last_frame + 1) / fps);
  return out;
}

TEST(LockEngine, SameContactsWithinOneTickAt30To480Hz) {
  // The same walk generated at four tick rates, through the causal detector: every contact
  // starts and ends within one tick (of the coarser rate) of where it does at 480 Hz.
  const double reference_fps = 480;
  // 8 s: at least five contacts a foot to compare.
  const WalkResult reference = flat_walk(reference_fps, 8.0);
  const LockClipResult fine = lock_clip(reference.clip, reference.rig, RuntimeLockSettings{});
  for (double fps : {30.0, 60.0, 144.0}) {
    const WalkResult walk = flat_walk(fps, 8.0);
    const LockClipResult r = lock_clip(walk.clip, walk.rig, RuntimeLockSettings{});
    const double tick = 1 / fps + 1 / reference_fps;
    for (int s = 0; s < 2; ++s) {
      const auto a = contact_times(r.feet[s].contact, fps), b = contact_times(fine.feet[s].contact, reference_fps);
      ASSERT_EQ(a.size(), b.size()) << fps << " Hz, side " << s;
      ASSERT_GE(a.size(), 5u);
      for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_NEAR(a[i].first, b[i].first, tick) << fps << " Hz, side " << s << ", contact " << i;
        EXPECT_NEAR(a[i].second, b[i].second, tick) << fps << " Hz, side " << s << ", contact " << i;
      }
    }
  }
}

TEST(LockEngine, ATeleportResetsTheLock) {
  // The walk's root moved 3 m sideways from a frame where a foot is locked, without reset(): the
  // frame of the jump shows the input's feet (nothing is dragged across the jump), and without
  // the detection (a threshold over the jump) the locked foot is left behind by about the jump.
  LoadedClip walk = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const LockClipResult plain = lock_clip(walk.clip, walk.rig, RuntimeLockSettings{});
  int jump_frame = 200;
  while (jump_frame < walk.clip.frame_count && !plain.feet[0].locked[jump_frame - 1]) ++jump_frame;
  ASSERT_LT(jump_frame, walk.clip.frame_count);
  Clip jumped = walk.clip;
  const int root = walk.rig.translation_joint;
  ASSERT_EQ(walk.clip.skeleton.parents[static_cast<size_t>(root)], -1);
  for (int f = jump_frame; f < jumped.frame_count; ++f) jumped.translation(f, root).x += 3.0;

  auto toe_gap_at_jump = [&](double teleport_distance_m, bool& teleported, bool& was_locked) {
    RuntimeLockSettings settings;
    settings.teleport_distance_m = teleport_distance_m;
    settings.glitch_distance_m = teleport_distance_m;  // a 3 m jump is no glitch to skip either
    RuntimeLock lock(jumped.skeleton, walk.rig, stance_leg_heights(jumped, walk.rig), settings, jumped.fps);
    const auto joints = static_cast<size_t>(jumped.joint_count());
    Clip out = jumped;
    double gap = 0;
    was_locked = false;
    for (int f = 0; f <= jump_frame; ++f) {
      const size_t first = jumped.index(f, 0);
      const RuntimeFrame& r = lock.update({{jumped.rotations.data() + first, joints}, {jumped.translations.data() + first, joints}},
                                          jumped.frame_time());
      if (f == jump_frame - 1) was_locked = r.feet[0].locked || r.feet[1].locked;
      if (f < jump_frame) continue;
      teleported = r.teleported;
      std::copy(r.rotations.begin(), r.rotations.end(), out.rotations.begin() + static_cast<long>(first));
      std::copy(r.translations.begin(), r.translations.end(), out.translations.begin() + static_cast<long>(first));
      for (const LegChain& leg : walk.rig.legs)
        gap = std::max(gap, length(joint_world(out, f, leg.contact_joint()).translation -
                                   joint_world(jumped, f, leg.contact_joint()).translation));
    }
    return gap;
  };
  bool teleported = false, was_locked = false;
  const double detected = toe_gap_at_jump(RuntimeLockSettings{}.teleport_distance_m, teleported, was_locked);
  EXPECT_TRUE(teleported);
  ASSERT_TRUE(was_locked);  // a foot was locked when the root jumped
  EXPECT_LT(detected, 0.005);
  const double undetected = toe_gap_at_jump(10.0, teleported, was_locked);
  EXPECT_FALSE(teleported);
  EXPECT_GT(undetected, 0.5);
}

TEST(LockEngine, AOneFrameRootGlitchIsSkipped) {
  // One frame of the walk with its root 20 cm off (under the teleport distance), in the middle of
  // a lock: the lock neither lets go nor locks again around it, the locked toe is back on its
  // contact point on the next frame, and no event pops. Without the glitch detection (a
  // threshold over the glitch) the foot unlocks, its toe off its contact point.
  LoadedClip walk = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const LockClipResult plain = lock_clip(walk.clip, walk.rig, RuntimeLockSettings{});
  const auto& locked = plain.feet[0].locked;
  int g = 200;
  while (g + 5 < walk.clip.frame_count && !(locked[g - 5] && locked[g + 5] && plain.feet[0].blend_weight[g - 1] >= 1)) ++g;
  ASSERT_LT(g + 5, walk.clip.frame_count);
  Clip glitched = walk.clip;
  const int root = walk.rig.translation_joint;
  ASSERT_EQ(walk.clip.skeleton.parents[static_cast<size_t>(root)], -1);
  glitched.translation(g, root).x += 0.2;
  ASSERT_LT(0.2, RuntimeLockSettings{}.teleport_distance_m);

  const LockClipResult skipped = lock_clip(glitched, walk.rig, RuntimeLockSettings{});
  EXPECT_EQ(count_locks(skipped), count_locks(plain));
  for (int f = g - 5; f <= g + 5; ++f) EXPECT_TRUE(skipped.feet[0].locked[f]) << "frame " << f;
  const int toe = walk.rig.legs[0].contact_joint();
  EXPECT_LT(length(joint_world(skipped.locked, g + 1, toe).translation - skipped.feet[0].contact_point_m[g + 1]), 0.001);
  const LockEventPops pops = lock_event_pops(glitched, skipped, walk.rig);
  EXPECT_LE(pops.worst_ratio, lock_event_pops(walk.clip, plain, walk.rig).worst_ratio + 0.01);

  RuntimeLockSettings blind;
  blind.glitch_distance_m = 0.3;
  const LockClipResult seen = lock_clip(glitched, walk.rig, blind);
  int unlocked = 0;  // frames of the glitch-free lock the blind one lets go
  for (int f = g; f <= g + 5; ++f) unlocked += plain.feet[0].locked[f] && !seen.feet[0].locked[f] ? 1 : 0;
  EXPECT_GT(unlocked, 0);
  double off = 0;  // how far the toe leaves the contact point the glitch-free lock holds
  for (int f = g; f <= g + 5; ++f) off = std::max(off, length(joint_world(seen.locked, f, toe).translation - plain.feet[0].contact_point_m[f]));
  EXPECT_GT(off, 0.05);
}

TEST(LockEngine, AnInPlaceClipLocksOnItsTreadmill) {
  // A generated walk made in place (the root's horizontal travel taken out at its mean
  // velocity): on a still ground its planted feet slide back at walking speed and nothing locks
  // (with a warning); given the ground's velocity, the feet lock where the ground truth has
  // them planted and the locked toes ride on the ground.
  const WalkResult walk = flat_walk(60, 8.0);
  Clip in_place = walk.clip;
  const int root = walk.rig.translation_joint;
  const int last = in_place.frame_count - 1;
  const double duration = last * in_place.frame_time();
  const Vec3 travel = walk.clip.translation(last, root) - walk.clip.translation(0, root);
  const Vec3 body_velocity{travel.x / duration, 0, travel.z / duration};
  for (int f = 0; f < in_place.frame_count; ++f) in_place.translation(f, root) -= body_velocity * (f * in_place.frame_time());
  const Vec3 ground = body_velocity * -1.0;

  const LockClipResult still = lock_clip(in_place, walk.rig, RuntimeLockSettings{});
  EXPECT_EQ(count_locks(still), 0);
  ASSERT_EQ(still.warnings.size(), 1u);
  EXPECT_NE(still.warnings[0].find("--ground-velocity"), std::string::npos) << still.warnings[0];

  const LockClipResult moving = lock_clip(in_place, walk.rig, RuntimeLockSettings{}, nullptr, ground);
  EXPECT_TRUE(moving.warnings.empty());
  EXPECT_GE(count_locks(moving), 10);
  ContactResult seen = walk.contacts;
  for (int s = 0; s < 2; ++s) seen.feet[s].contact = moving.feet[s].contact;
  EXPECT_GE(contact_agreement(seen, walk.contacts), 0.85);
  // Locked contact points ride on the ground, and the settled locked toes stay on them.
  for (int s = 0; s < 2; ++s)
    for (int f = 1; f < in_place.frame_count; ++f)
      if (moving.feet[s].locked[f] && moving.feet[s].locked[f - 1]) {
        const Vec3 step = moving.feet[s].contact_point_m[f] - moving.feet[s].contact_point_m[f - 1];
        ASSERT_LT(length(step - ground * in_place.frame_time()), 1e-9) << "side " << s << " frame " << f;
      }
  const LockHold hold = lock_hold(moving, walk.rig);
  EXPECT_GT(hold.settled_frames, 100);
  EXPECT_GE(hold.held_share(), 0.95);
}

TEST(LockEngine, WeightsBlendTheLockOut) {
  // Three locks on the same clip, weights 1, 0.5 and 0 (and one with only the left foot's weight
  // 0): weight 0 is the input pose exactly; 0.5 puts the toes halfway between the input's and
  // the full lock's (within the leg solve's tolerance, where the full lock's leg reaches).
  LoadedClip walk = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip& clip = walk.clip;
  const auto heights = stance_leg_heights(clip, walk.rig);
  RuntimeLock full(clip.skeleton, walk.rig, heights, RuntimeLockSettings{}, clip.fps);
  RuntimeLock half(clip.skeleton, walk.rig, heights, RuntimeLockSettings{}, clip.fps);
  RuntimeLock none(clip.skeleton, walk.rig, heights, RuntimeLockSettings{}, clip.fps);
  RuntimeLock right_only(clip.skeleton, walk.rig, heights, RuntimeLockSettings{}, clip.fps);
  half.set_weight(0.5);
  none.set_weight(0);
  right_only.set_foot_weight(Side::left, 0);
  const auto joints = static_cast<size_t>(clip.joint_count());
  Clip pose = clip;  // frame f of each output, written into frame f
  const int left = walk.rig.legs[0].contact_joint();
  double worst_half = 0, worst_target = 0, largest_correction = 0;
  for (int f = 0; f < clip.frame_count; ++f) {
    const size_t first = clip.index(f, 0);
    const PoseView in{{clip.rotations.data() + first, joints}, {clip.translations.data() + first, joints}};
    auto world = [&](const RuntimeFrame& r, int joint) {
      std::copy(r.rotations.begin(), r.rotations.end(), pose.rotations.begin() + static_cast<long>(first));
      std::copy(r.translations.begin(), r.translations.end(), pose.translations.begin() + static_cast<long>(first));
      return joint_world(pose, f, joint).translation;
    };
    const RuntimeFrame& n = none.update(in, clip.frame_time());
    for (size_t j = 0; j < joints; ++j) {
      ASSERT_EQ(n.rotations[j], in.rotations[j]) << "frame " << f;
      ASSERT_EQ(n.translations[j], in.translations[j]) << "frame " << f;
    }
    const RuntimeFrame& r = right_only.update(in, clip.frame_time());
    for (int j : {walk.rig.legs[0].hip, walk.rig.legs[0].knee, walk.rig.legs[0].heel})
      ASSERT_EQ(r.rotations[static_cast<size_t>(j)], in.rotations[static_cast<size_t>(j)]) << "frame " << f;
    const Vec3 input_toe = joint_world(clip, f, left).translation;
    const RuntimeFrame& full_frame = full.update(in, clip.frame_time());
    const Vec3 full_toe = world(full_frame, left), full_target = full_frame.feet[0].target_m;
    const RuntimeFrame& half_frame = half.update(in, clip.frame_time());
    const Vec3 half_toe = world(half_frame, left);
    largest_correction = std::max(largest_correction, length(full_toe - input_toe));
    worst_target = std::max(worst_target, length(half_frame.feet[0].target_m - (input_toe + full_target) * 0.5));
    // Where the full lock's leg cannot reach its target (an unlock blending from a contact point
    // the body ran away from), the half lock's misses by less: halfway holds for the targets only.
    if (length(full_toe - full_target) < 0.001) worst_half = std::max(worst_half, length(half_toe - (input_toe + full_toe) * 0.5));
  }
  EXPECT_GT(largest_correction, 0.015);  // the full lock does move the toe
  EXPECT_LT(worst_half, 0.005);
  EXPECT_LT(worst_target, 1e-9);
  EXPECT_THROW(half.set_weight(1.5), Error);
  EXPECT_THROW(half.set_foot_weight(Side::right, -0.1), Error);
}

TEST(LockEngine, StanceHeightsFromOnePose) {
  // The first frame of a generated walk (both feet planted on flat ground at 0): each leg's
  // contact joint clamp is the height the ground truth plants the toe joint at.
  const WalkResult walk = flat_walk(60, 3.0);
  const auto heights = stance_leg_heights(walk.clip, walk.rig, 0);
  for (int s = 0; s < 2; ++s) {
    ASSERT_FALSE(walk.contacts.feet[s].intervals.empty());
    EXPECT_NEAR(heights[s].toe_min_m, walk.contacts.feet[s].intervals[0].height_m, 0.002) << "side " << s;
  }
  EXPECT_THROW(stance_leg_heights(walk.clip, walk.rig, walk.clip.frame_count), Error);
}

}  // namespace
}  // namespace footfix
