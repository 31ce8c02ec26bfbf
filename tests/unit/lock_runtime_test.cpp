// The runtime lock as a whole: causal (a frame's output never depends on later frames), only the
// legs and the pelvis height change, a locked toe held when the body runs ahead (heel lift, then
// pelvis drop, then release), the causal detector's documented delays, bad poses and one-frame
// clips.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "footfix/eval/sliding.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/lock/causal_contacts.h"
#include "footfix/lock/lock_clip.h"
#include "footfix/lock/runtime_lock.h"
#include "footfix/lock/stance_heights.h"
#include "footfix/rig/pop_measure.h"
#include "support/paths.h"

namespace footfix {
namespace {

using test::data_clip;

Clip first_frames(const Clip& clip, int frames) {
  Clip out = clip;
  out.frame_count = frames;
  const auto n = static_cast<long>(frames) * clip.joint_count();
  out.rotations.assign(clip.rotations.begin(), clip.rotations.begin() + n);
  out.translations.assign(clip.translations.begin(), clip.translations.begin() + n);
  return out;
}

TEST(LockRuntime, OutputNeverDependsOnLaterFrames) {
  LoadedClip walk = load_clip(data_clip("cmu_07_01_walk.bvh"));
  const RuntimeLockSettings settings;
  LockClipResult full = lock_clip(walk.clip, walk.rig, settings);
  // The same clip cut at 200 frames, and the same clip with frames after 200 replaced by frame 0.
  Clip cut = first_frames(walk.clip, 200);
  Clip changed = walk.clip;
  for (int f = 200; f < changed.frame_count; ++f)
    for (int j = 0; j < changed.joint_count(); ++j) {
      changed.rotation(f, j) = walk.clip.rotation(0, j);
      changed.translation(f, j) = walk.clip.translation(0, j);
    }
  // lock_clip calibrates the leg height clamps on the first frame, the same in the three runs.
  LockClipResult a = lock_clip(cut, walk.rig, settings), b = lock_clip(changed, walk.rig, settings);
  int locked_frames = 0;
  for (int f = 0; f < 200; ++f) {
    for (int s = 0; s < 2; ++s) {
      ASSERT_EQ(full.feet[s].locked[f], b.feet[s].locked[f]) << "frame " << f;
      locked_frames += full.feet[s].locked[f];
    }
    for (int j = 0; j < walk.clip.joint_count(); ++j) {
      const Quat q = full.locked.rotation(f, j);
      ASSERT_EQ(q, b.locked.rotation(f, j)) << "frame " << f << " joint " << j;
      ASSERT_EQ(q, a.locked.rotation(f, j)) << "frame " << f << " joint " << j;
    }
  }
  EXPECT_GT(locked_frames, 100);  // the test is about a clip that really locks
}

TEST(LockRuntime, ChangesOnlyLegRotationsAndThePelvisHeight) {
  LoadedClip walk = load_clip(data_clip("cmu_07_01_walk.bvh"));
  const RuntimeLockSettings settings;
  LockClipResult r = lock_clip(walk.clip, walk.rig, settings);
  // The translation joint only comes down, by at most max_pelvis_drop_m; no other moves.
  const int root = walk.rig.translation_joint;
  double largest_drop = 0;
  for (int f = 0; f < walk.clip.frame_count; ++f) {
    for (int j = 0; j < walk.clip.joint_count(); ++j) {
      if (j == root) continue;
      ASSERT_EQ(r.locked.translation(f, j), walk.clip.translation(f, j)) << j << " frame " << f;
    }
    const Vec3 before = joint_world(walk.clip, f, root).translation, after = joint_world(r.locked, f, root).translation;
    EXPECT_NEAR(after.x, before.x, 1e-12);
    EXPECT_NEAR(after.z, before.z, 1e-12);
    EXPECT_LE(after.y, before.y + 1e-12);
    largest_drop = std::max(largest_drop, before.y - after.y);
  }
  EXPECT_LE(largest_drop, settings.max_pelvis_drop_m + 1e-12);
  int changed_leg_values = 0;
  for (int j = 0; j < walk.clip.joint_count(); ++j) {
    bool leg = false;
    for (const LegChain& chain : walk.rig.legs) leg = leg || j == chain.hip || j == chain.knee || j == chain.heel || j == chain.toe;
    for (int f = 0; f < walk.clip.frame_count; ++f) {
      if (leg) {
        changed_leg_values += r.locked.rotation(f, j) != walk.clip.rotation(f, j);
      } else {
        ASSERT_EQ(r.locked.rotation(f, j), walk.clip.rotation(f, j)) << walk.clip.skeleton.names[j] << " frame " << f;
      }
    }
  }
  EXPECT_GT(changed_leg_values, 100);
}

TEST(LockRuntime, HoldsALockedToeWhenTheBodyRunsAhead) {
  // The walk's root travel stretched by 1.25: the planted feet are left behind the body. The
  // pelvis comes down (within its bound) to keep them, and a toe it cannot keep, or whose input
  // lifts off, is let go instead of being dragged while flagged locked.
  LoadedClip walk = load_clip(data_clip("cmu_07_01_walk.bvh"));
  const Clip ahead = make_sliding(walk.clip, walk.rig, 1.25);
  RuntimeLockSettings no_drop;
  no_drop.max_pelvis_drop_m = 0;
  no_drop.release_miss_m = 1;  // the lock as it was: never lowered, never let go
  no_drop.lift_release_height_m = 1;
  no_drop.lock.unlock_distance_m = 0.25;  // and unlocked only once its input is 25 cm away
  const LockHold before = lock_hold(lock_clip(ahead, walk.rig, no_drop), walk.rig);
  const LockClipResult locked = lock_clip(ahead, walk.rig, RuntimeLockSettings{});
  const LockHold after = lock_hold(locked, walk.rig);
  EXPECT_GT(before.max_miss_m, 0.10);
  EXPECT_LE(after.max_miss_m, RuntimeLockSettings{}.release_miss_m);
  EXPECT_GT(after.held_share(), before.held_share() + 0.1);
  // Still locks most of what it sees in contact (toes lifting off, and toes out of reach with
  // the pelvis down, are let go).
  EXPECT_GT(locked_share_of_contacts(locked), 0.7);
}

TEST(LockRuntime, AToeFlaggedLockedIsWithinTheReleaseMissOfItsContactPoint) {
  // The body running ahead (x1.25) on a 120 Hz and a 30 Hz walk: wherever the leg, with the
  // pelvis as low as it is, leaves a locked toe farther than release_miss_m from its contact
  // point, that update already reads unlocked. So on every settled locked frame the toe is
  // within release_miss_m of its contact point, for the default (1 cm) and a tighter 5 mm.
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  for (const char* name : {"cmu_07_01_walk.bvh", "bandai1_walk_normal_001.bvh"}) {
    LoadedClip walk = load_clip(name[0] == 'c' ? data_clip(name) : test::shared_clips_dir() / name);
    const Clip ahead = make_sliding(walk.clip, walk.rig, 1.25);
    for (double miss : {0.01, 0.005}) {
      RuntimeLockSettings s;
      s.release_miss_m = miss;
      const LockClipResult locked = lock_clip(ahead, walk.rig, s);
      const LockHold hold = lock_hold(locked, walk.rig);
      EXPECT_GT(hold.settled_frames, 50) << name << " " << miss;
      EXPECT_LE(hold.max_miss_m, miss + 1e-12) << name << " " << miss;
      EXPECT_GT(locked_share_of_contacts(locked), 0.5) << name << " " << miss;
    }
  }
}

TEST(LockRuntime, ThePelvisLeadKeepsMoreToesLocked) {
  // The drop a body running ahead needs grows steadily; the spring follows a growing target
  // about 2 x pelvis_drop_time_s late, so without the lead more toes are out of reach (and let
  // go) before the pelvis is down.
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  LoadedClip walk = load_clip(test::shared_clips_dir() / "bandai1_walk_normal_001.bvh");
  const Clip ahead = make_sliding(walk.clip, walk.rig, 1.25);
  RuntimeLockSettings no_lead;
  no_lead.pelvis_drop_lead_s = 0;
  const double without = locked_share_of_contacts(lock_clip(ahead, walk.rig, no_lead));
  const double with = locked_share_of_contacts(lock_clip(ahead, walk.rig, RuntimeLockSettings{}));
  EXPECT_GT(with, without + 0.05);
  EXPECT_THROW(
      [] {
        RuntimeLockSettings bad;
        bad.pelvis_drop_lead_s = -0.1;
        bad.validate();
      }(),
      Error);
}

TEST(LockRuntime, LiftsTheHeelThenLowersThePelvisThenLetsGo) {
  // The body running ahead as above, with the heel lift on and each stage added in turn, none let
  // go (release_miss_m huge) until the last: the heel lift keeps more frames on the contact point
  // than the leg alone, the pelvis drop brings the worst miss down further, and with the release
  // a lock that lifts its heel and lowers the pelvis first stays locked longer than one that is
  // let go at once.
  LoadedClip walk = load_clip(data_clip("cmu_07_01_walk.bvh"));
  const Clip ahead = make_sliding(walk.clip, walk.rig, 1.25);
  RuntimeLockSettings s;
  s.max_pelvis_drop_m = 0;
  s.release_miss_m = 1;
  s.lift_release_height_m = 1;  // none let go as its input lifts off either
  const LockHold leg_only = lock_hold(lock_clip(ahead, walk.rig, s), walk.rig);
  s.heel_lift = 1;
  const LockHold heel = lock_hold(lock_clip(ahead, walk.rig, s), walk.rig);
  s.max_pelvis_drop_m = RuntimeLockSettings{}.max_pelvis_drop_m;
  const LockHold pelvis = lock_hold(lock_clip(ahead, walk.rig, s), walk.rig);
  EXPECT_GT(heel.held_share(), leg_only.held_share() + 0.1);
  EXPECT_LT(heel.max_miss_m, leg_only.max_miss_m);
  EXPECT_LT(pelvis.max_miss_m, heel.max_miss_m - 0.01);

  RuntimeLockSettings release_only;
  release_only.max_pelvis_drop_m = 0;
  release_only.lift_release_height_m = 1;
  const LockHold released = lock_hold(lock_clip(ahead, walk.rig, release_only), walk.rig);
  s.release_miss_m = RuntimeLockSettings{}.release_miss_m;
  const LockHold all = lock_hold(lock_clip(ahead, walk.rig, s), walk.rig);
  EXPECT_GT(all.settled_frames, released.settled_frames * 5 / 4);
  EXPECT_THROW(
      [] {
        RuntimeLockSettings bad;
        bad.heel_lift = 1.5;
        bad.validate();
      }(),
      Error);
}

/// The walk's first pose held for a second while its root dips `dip_m` and comes back up (a
/// smooth cosine; the toes' own acceleration at most dip_m / 2 x (2 pi)^2 m/s^2).
Clip dipping_stance(const LoadedClip& walk, double dip_m) {
  Clip out = first_frames(walk.clip, 1);
  const int frames = static_cast<int>(std::lround(walk.clip.fps));
  out.frame_count = frames;
  out.rotations.clear();
  out.translations.clear();
  for (int f = 0; f < frames; ++f) {
    out.rotations.insert(out.rotations.end(), walk.clip.rotations.begin(), walk.clip.rotations.begin() + walk.clip.joint_count());
    out.translations.insert(out.translations.end(), walk.clip.translations.begin(),
                            walk.clip.translations.begin() + walk.clip.joint_count());
    out.translation(f, walk.rig.translation_joint).y -= dip_m * (1 - std::cos(2 * k_pi * f / frames)) / 2;
  }
  return out;
}

/// `clip` through RuntimeLock with no contact given (both feet free) over `floors`: the output's
/// contact joint track of leg `side`.
std::vector<Vec3> free_toe_track(const Clip& clip, const Rig& rig, const std::array<LegHeights, 2>& floors, int side) {
  RuntimeLock runtime(clip.skeleton, rig, floors, RuntimeLockSettings{}, clip.fps);
  Clip out = clip;
  const auto joints = static_cast<size_t>(clip.joint_count());
  for (int f = 0; f < clip.frame_count; ++f) {
    const size_t first = clip.index(f, 0);
    const PoseView pose{{clip.rotations.data() + first, joints}, {clip.translations.data() + first, joints}};
    const RuntimeFrame& frame = runtime.update(pose, clip.frame_time(), std::array<GivenContact, 2>{});
    std::copy(frame.rotations.begin(), frame.rotations.end(), out.rotations.begin() + static_cast<long>(first));
    std::copy(frame.translations.begin(), frame.translations.end(), out.translations.begin() + static_cast<long>(first));
  }
  std::vector<Vec3> track(static_cast<size_t>(clip.frame_count));
  joint_trajectory(out, rig.legs[side].contact_joint(), track);
  return track;
}

TEST(LockRuntime, AFreeToeMeetsItsFloorWithoutAJolt) {
  // A standing character dips 4 cm and comes back up; its floor stands 1.5 cm under its toes, so
  // its free toes go down through the floor at about 0.12 m/s and come back up (their own
  // acceleration under 1 m/s^2). Stopped on the floor within one frame at 120 Hz, a toe jolts at
  // 8-12 m/s^2; over the rounded floor it stops over about 0.1 s, about v^2 / (2 x 5 mm) = 1.5
  // m/s^2. It never goes under the floor, and stands on it while its input is under it.
  LoadedClip walk = load_clip(data_clip("cmu_07_01_walk.bvh"));
  const Clip dip = dipping_stance(walk, 0.04);
  std::array<LegHeights, 2> floors = stance_leg_heights(dip, walk.rig);
  for (LegHeights& h : floors) h.toe_min_m -= 0.015;
  for (int side = 0; side < 2; ++side) {
    const std::vector<Vec3> toe = free_toe_track(dip, walk.rig, floors, side);
    double worst = 0, below = 0, over = 0;
    for (size_t f = 1; f + 1 < toe.size(); ++f)
      worst = std::max(worst, acceleration_mps2(toe[f - 1], toe[f], toe[f + 1], dip.fps));
    for (const Vec3& p : toe) below = std::max(below, floors[side].toe_min_m - p.y);
    for (size_t f = toe.size() / 3; f < toe.size() * 2 / 3; ++f) over = std::max(over, toe[f].y - floors[side].toe_min_m);
    EXPECT_LE(worst, 4.0) << "side " << side;
    EXPECT_LT(below, 1e-6) << "side " << side;
    EXPECT_LT(over, 0.0013) << "side " << side;
  }
}

TEST(LockRuntime, CausalDetectorDelaysAreTheDocumentedOnes) {
  // Default windows: the signal's window is half the majority window, 5/120 s. At 120 Hz a
  // contact starts once the foot has been still for 0.75 x 5/120 s = 3.75 ticks, on the 4th still
  // frame (3 frames after the first); it ends once it has moved for 0.5 x 5/120 s = 2.5 ticks,
  // on the 3rd moving frame (2 after the first).
  ContactSettings settings;
  CausalContactDetector detector(settings, 120.0);
  EXPECT_NEAR(detector.window_s(), 5.0 / 120, 1e-12);
  EXPECT_EQ(detector.onset_delay_frames(120), 3);
  EXPECT_EQ(detector.release_delay_frames(120), 2);
  // A foot on the ground moving at 1 m/s (sideways: no body-speed tolerance) stops at frame 30
  // and moves again from frame 90.
  const double dt = 1.0 / 120;
  double x = 0;
  int started = -1, ended = -1;
  for (int f = 0; f < 150; ++f) {
    if (f < 30 || f >= 90) x += 1.0 * dt;
    const auto& feet = detector.update({Vec3{x, 0.02, 0}, Vec3{x, 0.02, 0.3}}, Vec3{x, 0.9, 0.15}, dt);
    if (feet[0].contact && started < 0) started = f;
    if (started >= 0 && !feet[0].contact && ended < 0) ended = f;
  }
  EXPECT_EQ(started, 30 + 3);
  EXPECT_EQ(ended, 90 + 2);
}

TEST(LockRuntime, CausalReleaseFallsOnTheNearestTick) {
  // A contact ends once the foot has moved for 0.5 x 5/120 s = 20.8 ms. At 60 Hz that is 1.25
  // ticks: the nearest tick is the first moving frame (its tick of motion is 4 ms short of it; the
  // next is 12.5 ms past it). A foot still on the ground moves at 1 m/s sideways from frame 30.
  ContactSettings settings;
  CausalContactDetector detector(settings, 60.0);
  EXPECT_EQ(detector.release_delay_frames(60), 0);
  const double dt = 1.0 / 60;
  double x = 0;
  int ended = -1;
  bool was_contact = false;
  for (int f = 0; f < 50; ++f) {
    if (f >= 30) x += 1.0 * dt;
    const auto& feet = detector.update({Vec3{x, 0.02, 0}, Vec3{x, 0.02, 0.3}}, Vec3{x, 0.9, 0.15}, dt);
    if (f == 29) was_contact = feet[0].contact;
    if (f >= 30 && !feet[0].contact && ended < 0) ended = f;
  }
  ASSERT_TRUE(was_contact);
  EXPECT_EQ(ended, 30);
}

TEST(LockRuntime, CausalDetectorCountsALandingFrameAsStill) {
  // 30 Hz: one still tick (33 ms) is longer than the 31 ms of stillness a contact needs, so a
  // contact starts on the first still frame. A foot falls straight down at 1 m/s, lands on the
  // ground (0.02 m) on frame 20 after a slower last descent, and stays. The landing frame's
  // backward difference (0.5 m/s down) is the foot stopping, not sliding: the contact starts on
  // frame 20, not 21. A steady fall is no contact.
  ContactSettings settings;
  CausalContactDetector detector(settings, 30.0);
  ASSERT_EQ(detector.onset_delay_frames(30), 0);
  const double dt = 1.0 / 30;
  int started = -1;
  for (int f = 0; f < 30; ++f) {
    const double y = f < 20 ? 0.02 + (19.5 - f) * 1.0 * dt : 0.02;
    const auto& feet = detector.update({Vec3{0, y, 0}, Vec3{0, y, 0.3}}, Vec3{0, 0.9, 0.15}, dt);
    if (feet[0].contact && started < 0) started = f;
  }
  EXPECT_EQ(started, 20);
}

TEST(LockRuntime, RejectsAPoseOfTheWrongSize) {
  LoadedClip walk = load_clip(data_clip("cmu_07_01_walk.bvh"));
  RuntimeLock runtime(walk.clip.skeleton, walk.rig, {}, RuntimeLockSettings{}, walk.clip.fps);
  std::vector<Quat> rotations(3);
  std::vector<Vec3> translations(3);
  try {
    runtime.update({rotations, translations}, 1.0 / 120);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("3 rotations"), std::string::npos) << e.what();
  }
}

TEST(LockRuntime, OneFrameClipIsUnchangedWithANote) {
  LoadedClip walk = load_clip(data_clip("cmu_07_01_walk.bvh"));
  Clip one = first_frames(walk.clip, 1);
  LockClipResult r = lock_clip(one, walk.rig, RuntimeLockSettings{});
  EXPECT_EQ(r.locked.rotations, one.rotations);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("one frame"), std::string::npos);
  Clip none = first_frames(walk.clip, 0);
  try {
    lock_clip(none, walk.rig, RuntimeLockSettings{});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::process);
  }
}

}  // namespace
}  // namespace footfix
