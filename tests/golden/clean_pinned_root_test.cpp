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
#include "support/paths.h"
#include "support/world_distance.h"

namespace footfix {
namespace {

using test::horizontal_distance;

TEST(CleanPinnedRoot, PlantedFeetCarryThePinnedBody) {
  for (const char* name : {"cmu_07_01_walk.bvh", "cmu3dsmax_131_01_start_walk_stop.bvh"}) {
    SCOPED_TRACE(name);
    const LoadedClip loaded = load_clip(test::data_clip(name));
    const Rig& rig = loaded.rig;
    const ContactMask mask = contact_mask(detect_contacts(loaded.clip, rig, ContactSettings{}));
    Clip pinned = loaded.clip;
    const Vec3 first = pinned.translation(0, rig.translation_joint);
    for (int f = 0; f < pinned.frame_count; ++f) {
      pinned.translation(f, rig.translation_joint).x = first.x;
      pinned.translation(f, rig.translation_joint).z = first.z;
    }
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
  Clip pinned = loaded.clip;
  const int root = loaded.rig.translation_joint;
  for (int f = 0; f < pinned.frame_count; ++f) {
    pinned.translation(f, root).x = pinned.translation(0, root).x;
    pinned.translation(f, root).z = pinned.translation(0, root).z;
  }
  CleanSettings settings;
  settings.treadmill.mode = TreadmillMode::on;
  const CleanResult r = clean_clip(pinned, loaded.rig, settings);
  EXPECT_TRUE(r.treadmill);
  std::vector<Vec3> path(static_cast<size_t>(pinned.frame_count));
  joint_trajectory(r.cleaned, root, path);
  EXPECT_LT(horizontal_distance(path.back(), path.front()), 0.05);
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
