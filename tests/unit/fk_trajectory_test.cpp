// joint_trajectory (positions only, no rotation products) gives exactly the translation of
// joint_world for every joint and frame of a real clip, and moves with the clip.
#include <gtest/gtest.h>

#include <vector>

#include "footfix/core/fk.h"
#include "footfix/pipeline/load_clip.h"
#include "support/paths.h"

namespace footfix {
namespace {

TEST(FkTrajectory, EqualsJointWorldTranslationToTheBit) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip& clip = loaded.clip;
  ASSERT_GT(clip.frame_count, 10);
  std::vector<Vec3> track(static_cast<size_t>(clip.frame_count));
  for (int j = 0; j < clip.joint_count(); ++j) {
    joint_trajectory(clip, j, track);
    for (int f = 0; f < clip.frame_count; ++f)
      ASSERT_EQ(track[f], joint_world(clip, f, j).translation) << "joint " << j << " frame " << f;
  }
  // Not a constant: the toe travels over the walk.
  const int toe = loaded.rig.legs[0].contact_joint();
  joint_trajectory(clip, toe, track);
  EXPECT_GT(length(track.back() - track.front()), 0.5);
}

}  // namespace
}  // namespace footfix
