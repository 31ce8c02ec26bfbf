// What the procedural walk needs to know about a skeleton, taken from its rest pose (every
// local rotation identity, the character standing): its heading and left axis, each foot's
// geometry in the canonical foot frame, each leg joint's swing-twist limit frame and limits, and
// the pelvis height above the soles. Meters, Y up.
#pragma once

#include <array>

#include "footfix/core/skeleton.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/walk/gait.h"
#include "footfix/walk/joint_limits.h"
#include "footfix/walk/leg_dls.h"

namespace footfix {

/// The leg joints a walk drives, by LegJoint (hip, knee, ankle, toe), as skeleton indices.
using LegJoints = std::array<int, k_leg_joint_count>;

struct WalkBody {
  double rest_yaw_rad = 0;  ///< the rest pose faces rot_y(rest_yaw) * +Z
  Vec3 left_ws{1, 0, 0};    ///< the character's left at rest (world)
  FeetGeometry feet;        ///< per Side
  std::array<LegJoints, 2> joints;
  std::array<std::array<LimitFrame, k_leg_joint_count>, 2> limit_frames;
  std::array<std::array<JointLimit, k_leg_joint_count>, 2> limits;  ///< mirrored for the right leg
  std::array<DlsLeg, 2> dls;
  std::array<Quat, 2> ankle_rest_ws, toe_rest_ws;  ///< rest world rotations
  std::array<double, 2> leg_length_m{};            ///< thigh + shin
  double pelvis_height_m = 0;  ///< pelvis above the soles at rest

  /// Rotation taking the rest pose's heading to +Z (the canonical frame).
  Quat to_canonical() const { return axis_angle({0, 1, 0}, -rest_yaw_rad); }
};

/// Derives the walk body of a skeleton whose legs are `rig`. Throws Error(process) when a leg
/// lacks a toe joint or its joints are not a hip - knee - ankle - toe parent chain.
WalkBody make_walk_body(const Skeleton& skeleton, const Rig& rig, const LegLimits& limits);

}  // namespace footfix
