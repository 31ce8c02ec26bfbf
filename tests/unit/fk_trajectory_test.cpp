// joint_trajectory (positions only, no rotation products) gives exactly the translation of
// joint_world for every joint and frame of a real clip, and moves with the clip; over a range of
// frames it gives the same positions. point_trajectories gives world_pose's positions (several
// joints and end sites at once), within round-off of those, for the foot tip and the pop
// measure's points too.
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

// The foot tip's point and the pop measure's points, composed over ranges of frames: the
// positions foot_tip_world and pop_tracked_position give frame by frame, within round-off.
// point_trajectories' positions of `points` at frames [first, first + count), one vector a point.
std::vector<std::vector<Vec3>> composed(const Clip& clip, const std::vector<JointPoint>& points, int first, int count) {
  std::vector<std::vector<Vec3>> tracks(points.size(), std::vector<Vec3>(static_cast<size_t>(count)));
  std::vector<Vec3*> out;
  for (auto& t : tracks) out.push_back(t.data());
  point_trajectories(clip, points, first, count, out);
  return tracks;
}

TEST(FkTrajectory, FootTipAndPopTrackedPointsAreTheirFrameByFramePositions) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip& clip = loaded.clip;
  for (const LegChain& rig_leg : loaded.rig.legs) {
    LegChain with_toe_end = rig_leg;  // a rig with a toe end joint: the tip is that joint
    with_toe_end.toe_end = rig_leg.contact_joint();
    for (const LegChain& leg : {rig_leg, with_toe_end}) {
      std::vector<JointPoint> points = pop_tracked_points(clip, leg);
      const std::vector<int> joints = pop_tracked_joints(leg);
      ASSERT_EQ(points.size(), joints.size());
      points.push_back(foot_tip_point(clip, leg));
      for (const auto& [first, count] : ranges(clip.frame_count)) {
        const std::vector<std::vector<Vec3>> tracks = composed(clip, points, first, count);
        for (int f = 0; f < count; ++f) {
          for (size_t k = 0; k < joints.size(); ++k)
            ASSERT_LT(length(tracks[k][f] - pop_tracked_position(clip, first + f, leg, joints[k])), 1e-12)
                << "joint " << joints[k] << " frame " << first + f;
          ASSERT_LT(length(tracks.back()[f] - foot_tip_world(clip, first + f, leg)), 1e-12) << "tip, frame " << first + f;
        }
      }
    }
    // The end site's tip is not the toe joint's position: both kinds of rig were covered.
    EXPECT_NE(foot_tip_world(clip, 0, rig_leg), foot_tip_world(clip, 0, with_toe_end));
  }
}

// Every joint and every end site of a real clip at once, over ranges of frames: world_pose's
// positions to the bit (and apply(world transform, site) for a site); within round-off of
// joint_world_position's, which multiplies the other way round.
TEST(FkTrajectory, PointTrajectoriesEqualWorldPoseToTheBit) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip& clip = loaded.clip;
  std::vector<JointPoint> points;
  for (int j = 0; j < clip.joint_count(); ++j) {
    points.push_back({j, std::nullopt});
    if (clip.skeleton.end_sites[j]) points.push_back({j, clip.skeleton.end_sites[j]});
  }
  ASSERT_GT(points.size(), static_cast<size_t>(clip.joint_count()));  // sites too
  std::vector<Transform> world(static_cast<size_t>(clip.joint_count()));
  for (const auto& [first, count] : ranges(clip.frame_count)) {
    const std::vector<std::vector<Vec3>> tracks = composed(clip, points, first, count);
    for (int f = 0; f < count; ++f) {
      world_pose(clip, first + f, world);
      for (size_t k = 0; k < points.size(); ++k) {
        const Transform& w = world[static_cast<size_t>(points[k].joint)];
        const Vec3 expected = points[k].site ? apply(w, *points[k].site) : w.translation;
        ASSERT_EQ(tracks[k][f], expected) << "point " << k << " frame " << first + f;
        ASSERT_LT(length(tracks[k][f] - (points[k].site ? end_site_world(clip, first + f, points[k].joint)
                                                         : joint_world_position(clip, first + f, points[k].joint))),
                  1e-12);
      }
    }
  }
  // A single deep joint alone (its chain only): the same positions.
  const int toe = loaded.rig.legs[1].contact_joint();
  const std::vector<Vec3> alone = composed(clip, {JointPoint{toe, std::nullopt}}, 0, clip.frame_count)[0];
  for (int f = 0; f < clip.frame_count; ++f) {
    world_pose(clip, f, world);
    ASSERT_EQ(alone[f], world[static_cast<size_t>(toe)].translation) << "frame " << f;
  }
}

}  // namespace
}  // namespace footfix
