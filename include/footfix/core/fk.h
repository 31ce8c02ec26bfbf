// Forward kinematics: local joint transforms to world (model) space.
#pragma once

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

/// World transform of one joint at one frame (walks the parent chain).
Transform joint_world(const Clip& clip, int frame, int joint);

/// World position of one joint at one frame (meters when the clip is internal): joint_world's
/// translation to the bit, without computing the rotation.
Vec3 joint_world_position(const Clip& clip, int frame, int joint);

/// World position of a joint's end site (or of the joint itself if it has none).
Vec3 end_site_world(const Clip& clip, int frame, int joint);

}  // namespace footfix
