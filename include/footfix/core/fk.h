// Forward kinematics: local joint transforms to world (model) space.
#pragma once

#include <optional>
#include <span>

#include "footfix/core/clip.h"

namespace footfix {

/// World transforms of every joint at `frame`, written to `world_out` (size joint_count).
void world_pose(const Clip& clip, int frame, std::span<Transform> world_out);

/// World positions of joint `joint` for every frame, written to `out` (size frame_count).
/// Cost O(frames * depth).
void joint_trajectory(const Clip& clip, int joint, std::span<Vec3> out);

/// World positions of joint `joint` for frames [first, first + out.size()), written to `out`
/// (joint_world_position's result to the bit, frame by frame).
void joint_trajectory(const Clip& clip, int joint, int first, std::span<Vec3> out);

/// A point carried by a joint: the joint's own position, or a point fixed in the joint's frame
/// (`site`, an offset from it in the clip's units, e.g. its end site).
struct JointPoint {
  int joint = -1;
  std::optional<Vec3> site;
};

/// World positions of `points` at frames [first, first + count): out[k][i] is points[k]'s at
/// frame first + i (each out[k] has room for count positions). Each frame's world transforms are
/// composed parent first, each joint of the points' chains once (world_pose's products, so its
/// positions to the bit; a site is apply(world transform, site)): several joints of one chain
/// (a leg's) cost about what its deepest alone costs. joint_world_position multiplies the other
/// way round (child first): the two agree within round-off, not to the bit.
void point_trajectories(const Clip& clip, std::span<const JointPoint> points, int first, int count,
                        std::span<Vec3* const> out);

/// World transform of one joint at one frame (walks the parent chain).
Transform joint_world(const Clip& clip, int frame, int joint);

/// World position of one joint at one frame (meters when the clip is internal): joint_world's
/// translation to the bit, without computing the rotation.
Vec3 joint_world_position(const Clip& clip, int frame, int joint);

/// World position of a joint's end site (or of the joint itself if it has none).
Vec3 end_site_world(const Clip& clip, int frame, int joint);

}  // namespace footfix
