// End Sites as joints (core/end_site_joints.h): which End Sites become joints, where they stand,
// and that folding them gives back the clip as it was.
#include <gtest/gtest.h>

#include "footfix/core/end_site_joints.h"
#include "footfix/core/fk.h"

namespace footfix {
namespace {

// root -> hip -> foot (End Site), root -> arm (End Site, and a child: its End Site is not a leaf's)
Clip small_clip() {
  Clip clip;
  Skeleton& sk = clip.skeleton;
  sk.add_joint("root", -1, {0, 1, 0});
  const int hip = sk.add_joint("hip", 0, {0.1, 0, 0});
  const int foot = sk.add_joint("foot", hip, {0, -0.8, 0});
  const int arm = sk.add_joint("arm", 0, {0, 0.5, 0});
  sk.add_joint("hand", arm, {0.3, 0, 0});
  sk.end_sites[static_cast<size_t>(foot)] = Vec3{0, -0.05, 0.15};
  sk.end_sites[static_cast<size_t>(arm)] = Vec3{9, 9, 9};  // not a leaf: stays an End Site
  clip.resize(3);
  for (int f = 0; f < 3; ++f) {
    clip.translation(f, 0) = {0.2 * f, 1, 0};
    clip.rotation(f, hip) = normalize(Quat{1, 0.1 * f, 0, 0});
    clip.rotation(f, foot) = normalize(Quat{1, 0, 0.2 * f, 0});
  }
  return clip;
}

TEST(EndSiteJoints, LeafEndSitesBecomeJointsAtTheirOffset) {
  const Clip before = small_clip();
  Clip clip = before;
  ASSERT_EQ(add_end_site_joints(clip), 1);
  const Skeleton& sk = clip.skeleton;
  ASSERT_EQ(sk.joint_count(), 6);
  EXPECT_EQ(sk.names[5], "foot End Site");
  EXPECT_EQ(sk.parents[5], 2);
  EXPECT_TRUE(sk.is_end_site_joint(5));
  EXPECT_FALSE(sk.is_end_site_joint(4));
  EXPECT_FALSE(sk.end_sites[2].has_value());
  EXPECT_TRUE(sk.end_sites[3].has_value());
  for (int f = 0; f < clip.frame_count; ++f) {
    const Vec3 joint = joint_world_position(clip, f, 5), site = end_site_world(before, f, 2);
    EXPECT_NEAR(length(joint - site), 0, 1e-12) << "frame " << f;
    EXPECT_EQ(joint_world_position(clip, f, 4), joint_world_position(before, f, 4));
  }
}

TEST(EndSiteJoints, FoldingGivesTheClipBack) {
  const Clip before = small_clip();
  Clip clip = before;
  add_end_site_joints(clip);
  clip.rotation(1, 5) = normalize(Quat{1, 1, 0, 0});  // an End Site joint's rotation is not kept
  const Clip folded = fold_end_site_joints(clip);
  EXPECT_EQ(folded.skeleton.names, before.skeleton.names);
  EXPECT_EQ(folded.skeleton.parents, before.skeleton.parents);
  EXPECT_EQ(folded.skeleton.end_site_joints, 0);
  ASSERT_EQ(folded.skeleton.end_sites.size(), before.skeleton.end_sites.size());
  for (size_t j = 0; j < before.skeleton.end_sites.size(); ++j) {
    ASSERT_EQ(folded.skeleton.end_sites[j].has_value(), before.skeleton.end_sites[j].has_value()) << j;
    if (before.skeleton.end_sites[j]) {
      EXPECT_EQ(*folded.skeleton.end_sites[j], *before.skeleton.end_sites[j]) << j;
    }
  }
  EXPECT_EQ(folded.rotations, before.rotations);
  ASSERT_EQ(folded.translations.size(), before.translations.size());
  for (size_t i = 0; i < before.translations.size(); ++i) EXPECT_EQ(folded.translations[i], before.translations[i]) << i;
}

TEST(EndSiteJoints, NoLeafEndSiteAddsNothing) {
  Clip clip = small_clip();
  clip.skeleton.end_sites[2].reset();
  const auto rotations = clip.rotations;
  EXPECT_EQ(add_end_site_joints(clip), 0);
  EXPECT_EQ(clip.joint_count(), 5);
  EXPECT_EQ(clip.skeleton.end_site_joints, 0);
  EXPECT_EQ(clip.rotations, rotations);
}

}  // namespace
}  // namespace footfix
