// A pinned root (issue 30, section 2): the bundled walk with its root's horizontal translation
// held at frame 0, as converters that fix the root write it. Its feet slide around the still
// root; clean carries the body with its planted feet, so planted feet stay put (measured under
// the contacts of the walk as captured) and the pelvis travels about as far as the walk did.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "footfix/core/fk.h"
#include "footfix/eval/metrics.h"
#include "footfix/eval/sliding.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "footfix/solve/pinned_root.h"
#include "support/capture_noise.h"
#include "support/capture_targets.h"
#include "support/paths.h"
#include "support/world_distance.h"

namespace footfix {
namespace {

using test::horizontal_distance;

/// `clip` with the root's horizontal translation held at frame 0, as converters that fix the root
/// write it.
Clip pinned_copy(const Clip& clip, int root) {
  Clip pinned = clip;
  const Vec3 first = pinned.translation(0, root);
  for (int f = 0; f < pinned.frame_count; ++f) {
    pinned.translation(f, root).x = first.x;
    pinned.translation(f, root).z = first.z;
  }
  return pinned;
}

/// Cleans `pinned` and expects it carried (one "pinned root" warning) with its slide, measured
/// under `mask` (the contacts of the clip before pinning), within the capture targets.
void expect_carried(const Clip& pinned, const Rig& rig, const ContactMask& mask) {
  const CleanResult r = clean_clip(pinned, rig, CleanSettings{});
  int said = 0;
  for (const std::string& w : r.warnings) said += w.find("pinned root") != std::string::npos;
  EXPECT_EQ(said, 1);
  const ClipMetrics m = compare_clips(pinned, r.cleaned, rig, mask);
  EXPECT_LE(m.cleaned_slide.mean_mm_per_frame, test::k_capture_max_residual * m.source_slide.mean_mm_per_frame);
  EXPECT_LT(m.pop_ratio, test::k_capture_max_pop);
}

TEST(CleanPinnedRoot, PlantedFeetCarryThePinnedBody) {
  for (const char* name : {"cmu_07_01_walk.bvh", "cmu3dsmax_131_01_start_walk_stop.bvh"}) {
    SCOPED_TRACE(name);
    const LoadedClip loaded = load_clip(test::data_clip(name));
    const Rig& rig = loaded.rig;
    const ContactMask mask = contact_mask(detect_contacts(loaded.clip, rig, ContactSettings{}));
    const Clip pinned = pinned_copy(loaded.clip, rig.translation_joint);
    const CleanResult r = clean_clip(pinned, rig, CleanSettings{});
    EXPECT_FALSE(r.treadmill);
    const ClipMetrics m = compare_clips(pinned, r.cleaned, rig, mask);
    EXPECT_LE(m.cleaned_slide.mean_mm_per_frame, 0.15 * m.source_slide.mean_mm_per_frame);
    EXPECT_LT(m.pop_ratio, 1.5);
    EXPECT_LE(m.max_pelvis_drop_cm, 2.0);
    const int last = pinned.frame_count - 1;
    const int root = rig.translation_joint;
    const double walked = horizontal_distance(joint_world_position(loaded.clip, last, root),
                                              joint_world_position(loaded.clip, 0, root));
    const double carried = horizontal_distance(joint_world_position(r.cleaned, last, root),
                                               joint_world_position(r.cleaned, 0, root));
    EXPECT_NEAR(carried, walked, 0.1 * walked);
    int said = 0;
    for (const std::string& w : r.warnings) said += w.find("pinned root") != std::string::npos;
    EXPECT_EQ(said, 1);
  }
}

TEST(CleanPinnedRoot, AskedForATreadmillItStaysInPlace) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const int root = loaded.rig.translation_joint;
  const Clip pinned = pinned_copy(loaded.clip, root);
  CleanSettings settings;
  settings.treadmill.mode = TreadmillMode::on;
  const CleanResult r = clean_clip(pinned, loaded.rig, settings);
  EXPECT_TRUE(r.treadmill);
  std::vector<Vec3> path(static_cast<size_t>(pinned.frame_count));
  joint_trajectory(r.cleaned, root, path);
  EXPECT_LT(horizontal_distance(path.back(), path.front()), 0.05);
}

// Two-feet jumps with a pinned root: the body travels in the flight and pushes off from, and lands
// on, both feet. Its travel is carried from the planted feet up to the take-off and from the
// landing, not spread over the stances around the flight (where the planted feet would then slide
// and their contacts go unseen). Measured under the contacts of the clip as captured.
TEST(CleanPinnedRoot, TwoFeetJumpsKeepTheirStancesUpToTheTakeOff) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_01_01_hops_turnaround.bvh"));
  const Rig& rig = loaded.rig;
  const ContactMask mask = contact_mask(detect_contacts(loaded.clip, rig, ContactSettings{}));
  const Clip pinned = pinned_copy(loaded.clip, rig.translation_joint);
  const CleanResult r = clean_clip(pinned, rig, CleanSettings{});
  const ClipMetrics m = compare_clips(pinned, r.cleaned, rig, mask);
  EXPECT_LT(m.cleaned_slide.p95_cm_per_s, test::k_capture_still_p95_cm_s);
  EXPECT_LE(m.cleaned_slide.mean_mm_per_frame, test::k_capture_max_residual * m.source_slide.mean_mm_per_frame);
  EXPECT_LT(m.pop_ratio, test::k_capture_max_pop);
}

// At 30 Hz the hops' contacts hold little of each push-off, and the clip hops out, turns and
// hops back: the net ground velocity of its planted feet is small, but the travel they imply is a
// root's. The body is carried.
TEST(CleanPinnedRoot, HopsOutAndBackAt30HzAreCarried) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_01_01_hops_turnaround.bvh"));
  const Rig& rig = loaded.rig;
  const Clip slow = test::resampled(loaded.clip, 30);
  const ContactMask mask = contact_mask(detect_contacts(slow, rig, ContactSettings{}));
  expect_carried(pinned_copy(slow, rig.translation_joint), rig, mask);
}

TEST(CleanPinnedRoot, RepeatedTwoFeetJumpsKeepTheirSlideSmall) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  const LoadedClip loaded = load_clip(test::shared_clips_dir() / "sfu_0005_2FeetJump001_inches.bvh");
  const Rig& rig = loaded.rig;
  const ContactMask mask = contact_mask(detect_contacts(loaded.clip, rig, ContactSettings{}));
  const Clip pinned = pinned_copy(loaded.clip, rig.translation_joint);
  const CleanResult r = clean_clip(pinned, rig, CleanSettings{});
  const ClipMetrics m = compare_clips(pinned, r.cleaned, rig, mask);
  EXPECT_LE(m.cleaned_slide.mean_mm_per_frame, test::k_capture_max_residual * m.source_slide.mean_mm_per_frame);
  EXPECT_LT(m.pop_ratio, test::k_capture_max_pop);
}

// Repeated two-feet hops pinned at low rates: the stances are a few frames between flights, and
// the planted feet move at the body's speed there, so a speed gate sees no contact in them. The
// feet standing together are read as planted, and the body is carried there too: the slide left
// is at most 5% of the input's, a third of the capture target (k_capture_max_residual).
constexpr double k_pinned_low_rate_max_residual = 0.05;

/// `clip` resampled to `hz`, pinned and cleaned, measured under the contacts of the resampled clip.
ClipMetrics clean_pinned_at(const Clip& clip, const Rig& rig, double hz) {
  const Clip slow = test::resampled(clip, hz);
  const ContactMask mask = contact_mask(detect_contacts(slow, rig, ContactSettings{}));
  const Clip pinned = pinned_copy(slow, rig.translation_joint);
  const CleanResult r = clean_clip(pinned, rig, CleanSettings{});
  return compare_clips(pinned, r.cleaned, rig, mask);
}

TEST(CleanPinnedRoot, TwoFeetHopsPinnedAtLowRatesAreCarriedThroughEveryStance) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_01_01_hops_turnaround.bvh"));
  for (double hz : {24.0, 20.0}) {
    SCOPED_TRACE(hz);
    const ClipMetrics m = clean_pinned_at(loaded.clip, loaded.rig, hz);
    EXPECT_LE(m.cleaned_slide.mean_mm_per_frame, k_pinned_low_rate_max_residual * m.source_slide.mean_mm_per_frame);
    EXPECT_LT(m.pop_ratio, test::k_capture_max_pop);
  }
}

TEST(CleanPinnedRoot, RepeatedTwoFeetJumpsPinnedAtLowRatesKeepTheirSlideSmall) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  const LoadedClip loaded = load_clip(test::shared_clips_dir() / "sfu_0005_2FeetJump001_inches.bvh");
  for (double hz : {30.0, 24.0, 20.0}) {
    SCOPED_TRACE(hz);
    const ClipMetrics m = clean_pinned_at(loaded.clip, loaded.rig, hz);
    EXPECT_LE(m.cleaned_slide.mean_mm_per_frame, test::k_capture_max_residual * m.source_slide.mean_mm_per_frame);
    EXPECT_LT(m.pop_ratio, test::k_capture_max_pop);
  }
}

// A pinned root's pelvis still moves by its rounding (a file's last digits, the arithmetic of the
// read and of the joints' rotations): a nanometre a frame is no travel, whichever way it points.
// Pointing back, as the planted feet slide, it must not make the sliding feet read as moving
// with the body: the ground under them is seen and the body carried.
constexpr double k_rounding_drift_m = 1e-9;

/// `clip` pinned (pinned_copy), its root then drifting back by k_rounding_drift_m a frame against
/// the clip's own travel from its first frame to its last.
Clip pinned_with_rounding_drift(const Clip& clip, int root) {
  Vec3 travelled = joint_world_position(clip, clip.frame_count - 1, root) - joint_world_position(clip, 0, root);
  travelled.y = 0;
  const Vec3 back = normalize(travelled) * -k_rounding_drift_m;
  Clip pinned = pinned_copy(clip, root);
  for (int f = 0; f < pinned.frame_count; ++f) move_body(pinned, f, root, back * static_cast<double>(f));
  std::vector<Vec3> path(static_cast<size_t>(pinned.frame_count));
  joint_trajectory(pinned, root, path);
  EXPECT_TRUE(root_is_pinned(path));
  return pinned;
}

TEST(CleanPinnedRoot, ARoundingDriftOfThePinnedRootDoesNotHideTheGround) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Rig& rig = loaded.rig;
  const ContactMask mask = contact_mask(detect_contacts(loaded.clip, rig, ContactSettings{}));
  expect_carried(pinned_with_rounding_drift(loaded.clip, rig.translation_joint), rig, mask);
}

// The same on a short noisy clip at a low rate: the Mixamo walk (binary FBX) resampled to 20 Hz
// (about a second), pinned, with light joint noise (0.3-0.6 degrees a joint, none on the root).
TEST(CleanPinnedRoot, ARoundingDriftOfANoisyPinnedWalkAt20HzDoesNotHideTheGround) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  const LoadedClip loaded = load_clip(test::shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx");
  const Rig& rig = loaded.rig;
  const Clip slow = test::resampled(loaded.clip, 20);
  const ContactMask mask = contact_mask(detect_contacts(slow, rig, ContactSettings{}));
  Clip pinned = pinned_with_rounding_drift(slow, rig.translation_joint);
  test::add_capture_noise(pinned, rig.translation_joint, 13, 0.0, 0.3, 0.6);
  expect_carried(pinned, rig, mask);
}

// Feet planted together on a pinned root move as one at the body's speed; a foot that lifts, or
// feet that move apart, do not stand together, and neither does a passing moment.
TEST(PinnedRoot, FeetPlantedTogetherMoveAsOneOnTheFloor) {
  constexpr double fps = 30, speed = 0.25, height = 0.1;
  const int n = 12;
  std::array<std::vector<Vec3>, 2> toes{std::vector<Vec3>(n), std::vector<Vec3>(n)};
  std::array<std::vector<double>, 2> heights{std::vector<double>(n, 0.01), std::vector<double>(n, 0.01)};
  for (int f = 0; f < n; ++f) {
    toes[0][f] = {-1.0 * f / fps, 0.02, 0.1};  // both moving back at 1 m/s, 20 cm apart
    toes[1][f] = {-1.0 * f / fps, 0.02, -0.1};
  }
  // Frames 6..8: the right foot rises 5 cm a frame; from frame 10 it moves off the left at 0.75 m/s.
  for (int f = 6; f <= 8; ++f) toes[1][f].y += 0.05 * (f - 5), heights[1][f] += 0.05 * (f - 5);
  for (int f = 10; f < n; ++f) toes[1][f].z -= 0.025 * (f - 9);
  const std::vector<std::uint8_t> together = feet_planted_together(toes, heights, speed, height, fps);
  const std::vector<std::uint8_t> expected{1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(together, expected);
  // One step together (frames 0..1, 0.067 s) is shorter than k_together_min_s.
  for (int f = 2; f < n; ++f) toes[1][f].z -= 0.03 * (f - 1);
  EXPECT_EQ(feet_planted_together(toes, heights, speed, height, fps), std::vector<std::uint8_t>(n, 0));
}

TEST(PinnedRoot, ASwayingInPlaceRootIsNotPinned) {
  std::vector<Vec3> still(10, Vec3{0.3, 0.9, -0.2});
  EXPECT_TRUE(root_is_pinned(still));
  std::vector<Vec3> sway = still;
  sway[5].x += 0.02;  // an in-place loop's sway
  EXPECT_FALSE(root_is_pinned(sway));
  EXPECT_FALSE(root_is_pinned({Vec3{}}));
}

}  // namespace
}  // namespace footfix
