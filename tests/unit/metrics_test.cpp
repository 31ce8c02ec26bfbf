// Metrics must see what they claim to measure: slide, penetration, changed joints, pops.
#include <gtest/gtest.h>

#include "footfix/core/fk.h"
#include "footfix/eval/metrics.h"
#include "footfix/pipeline/load_clip.h"
#include "support/paths.h"

namespace footfix {
namespace {

struct Fixture {
  LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  ContactMask all_contact() const {
    return {std::vector<std::uint8_t>(loaded.clip.frame_count, 1), std::vector<std::uint8_t>(loaded.clip.frame_count, 1)};
  }
};

TEST(Metrics, IdenticalClipsMeasureZeroChange) {
  Fixture fx;
  ClipMetrics m = compare_clips(fx.loaded.clip, fx.loaded.clip, fx.loaded.rig, fx.all_contact());
  EXPECT_EQ(m.max_new_penetration_mm, 0.0);
  EXPECT_EQ(m.max_deviation_cm, 0.0);
  EXPECT_DOUBLE_EQ(m.leg_accel_ratio, 1.0);
  EXPECT_TRUE(m.non_leg_unchanged());
  EXPECT_DOUBLE_EQ(m.source_slide.mean_mm_per_frame, m.cleaned_slide.mean_mm_per_frame);
}

TEST(Metrics, SlideIsTheHorizontalContactJointMotion) {
  Fixture fx;
  Clip moved = fx.loaded.clip;
  const int root = fx.loaded.rig.translation_joint;
  // Root moving 2 mm per frame along X (and 5 mm per frame up, which does not count).
  for (int f = 0; f < moved.frame_count; ++f) {
    moved.translation(f, root).x = 0.002 * f;
    moved.translation(f, root).y = 1.0 + 0.005 * f;
    moved.translation(f, root).z = 0;
  }
  Clip still = moved;
  for (int f = 0; f < still.frame_count; ++f) still.translation(f, root) = moved.translation(0, root);
  // With the rest of the body frozen at one pose, the toes move exactly with the root.
  for (int f = 0; f < still.frame_count; ++f)
    for (int j = 0; j < still.joint_count(); ++j) {
      if (j == root) continue;
      still.rotation(f, j) = still.rotation(0, j);
      moved.rotation(f, j) = still.rotation(0, j);
    }
  for (int f = 0; f < still.frame_count; ++f) moved.rotation(f, root) = still.rotation(f, root) = still.rotation(0, root);
  SlideStats s = contact_slide(moved, fx.loaded.rig, fx.all_contact());
  EXPECT_NEAR(s.mean_mm_per_frame, 2.0, 1e-9);
  EXPECT_NEAR(s.p95_cm_per_s, 0.2 * moved.fps, 1e-9);
  EXPECT_EQ(s.samples, 2 * (moved.frame_count - 1));
  EXPECT_NEAR(contact_slide(still, fx.loaded.rig, fx.all_contact()).mean_mm_per_frame, 0.0, 1e-12);
}

TEST(Metrics, PenetrationAndChangedJointsAreFound) {
  Fixture fx;
  const Clip& source = fx.loaded.clip;
  Clip lowered = source;
  // Whole body 12 mm lower at one frame: every foot joint that reaches its lowest point around
  // there goes below its source floor; the root is the translation joint, so no non-leg change.
  int lowest_frame = 0;
  const int toe = fx.loaded.rig.legs[0].toe;
  double lowest = 1e9;
  for (int f = 0; f < source.frame_count; ++f) {
    double y = joint_world(source, f, toe).translation.y;
    if (y < lowest) lowest = y, lowest_frame = f;
  }
  lowered.translation(lowest_frame, fx.loaded.rig.translation_joint).y -= 0.012;
  ClipMetrics m = compare_clips(source, lowered, fx.loaded.rig, fx.all_contact());
  EXPECT_NEAR(m.max_new_penetration_mm, 12.0, 1e-6);
  EXPECT_TRUE(m.non_leg_unchanged());
  EXPECT_GT(m.leg_accel_ratio, 1.0);

  Clip spine = source;
  int head = spine.skeleton.find("Head");
  spine.rotation(5, head) = normalize(Quat{spine.rotation(5, head).w + 1e-3, spine.rotation(5, head).x,
                                           spine.rotation(5, head).y, spine.rotation(5, head).z});
  ClipMetrics s = compare_clips(source, spine, fx.loaded.rig, fx.all_contact());
  ASSERT_EQ(s.changed_non_leg_joints.size(), 1u);
  EXPECT_EQ(s.changed_non_leg_joints[0], "Head");
}

}  // namespace
}  // namespace footfix
