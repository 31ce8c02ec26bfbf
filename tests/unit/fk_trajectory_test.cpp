// joint_trajectory (positions only, no rotation products) gives exactly the translation of
// joint_world for every joint and frame of a real clip, and moves with the clip; over a range of
// frames it gives the same positions, as do the foot tip's and the pop measure's trajectories.
#include <gtest/gtest.h>

#include <vector>

#include "footfix/core/fk.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/rig/pop_measure.h"
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

// Ranges that start on odd and even frames, of odd and even lengths, at both ends of the clip.
std::vector<std::pair<int, int>> ranges(int frames) { return {{0, 1}, {3, 7}, {4, 10}, {frames - 5, 5}, {0, frames}}; }

TEST(FkTrajectory, FrameRangeEqualsJointWorldPositionToTheBit) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip& clip = loaded.clip;
  for (const auto& [first, count] : ranges(clip.frame_count)) {
    std::vector<Vec3> track(static_cast<size_t>(count));
    for (int j = 0; j < clip.joint_count(); ++j) {
      joint_trajectory(clip, j, first, track);
      for (int f = 0; f < count; ++f)
        ASSERT_EQ(track[f], joint_world_position(clip, first + f, j)) << "joint " << j << " frame " << first + f;
    }
  }
}

TEST(FkTrajectory, FootTipAndPopTrackedTrajectoriesEqualTheirFrameByFramePositions) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip& clip = loaded.clip;
  for (const LegChain& rig_leg : loaded.rig.legs) {
    LegChain with_toe_end = rig_leg;  // a rig with a toe end joint: the tip is that joint
    with_toe_end.toe_end = rig_leg.contact_joint();
    for (const LegChain& leg : {rig_leg, with_toe_end}) {
      for (const auto& [first, count] : ranges(clip.frame_count)) {
        std::vector<Vec3> track(static_cast<size_t>(count));
        foot_tip_trajectory(clip, leg, first, track);
        for (int f = 0; f < count; ++f) ASSERT_EQ(track[f], foot_tip_world(clip, first + f, leg)) << "frame " << first + f;
        for (int joint : pop_tracked_joints(leg)) {
          pop_tracked_trajectory(clip, leg, joint, first, track);
          for (int f = 0; f < count; ++f)
            ASSERT_EQ(track[f], pop_tracked_position(clip, first + f, leg, joint)) << "joint " << joint << " frame " << first + f;
        }
      }
    }
    // The end site's tip is not the toe joint's position: both kinds of rig were covered.
    EXPECT_NE(foot_tip_world(clip, 0, rig_leg), foot_tip_world(clip, 0, with_toe_end));
  }
}

}  // namespace
}  // namespace footfix
