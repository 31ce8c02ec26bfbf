// A pinned root (issue 30, section 2): the bundled walk with its root's horizontal translation
// held at frame 0, as converters that fix the root write it. Its feet slide around the still
// root; clean carries the body with its planted feet, so planted feet stay put (measured under
// the contacts of the walk as captured) and the pelvis travels about as far as the walk did.
#include <gtest/gtest.h>

#include <cmath>
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
  const Clip pinned = pinned_copy(slow, rig.translation_joint);
  const CleanResult r = clean_clip(pinned, rig, CleanSettings{});
  int said = 0;
  for (const std::string& w : r.warnings) said += w.find("pinned root") != std::string::npos;
  EXPECT_EQ(said, 1);
  const ClipMetrics m = compare_clips(pinned, r.cleaned, rig, mask);
  EXPECT_LE(m.cleaned_slide.mean_mm_per_frame, test::k_capture_max_residual * m.source_slide.mean_mm_per_frame);
  EXPECT_LT(m.pop_ratio, test::k_capture_max_pop);
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
