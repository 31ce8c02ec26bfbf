// Joint limits as swing-twist. A joint's local rotation, relative to
// its rest orientation (BVH rest poses have identity local rotations), is split into a twist
// about the bone axis and a swing about an axis perpendicular to it. The twist is limited once,
// to [twist_min, twist_max]; the swing, written as a rotation vector, is limited by a
// rectangular (pyramid) range of its two components: about `swing_x_axis` (the character's
// left-right axis: positive bends a hanging bone backwards, i.e. hip extension, knee flexion,
// ankle plantar flexion, toe flexion) and about `swing_z_axis` = bone axis x swing_x_axis.
// Angles are radians in code and degrees in JSON profiles.
#pragma once

#include <array>
#include <string>

#include "footfix/core/math.h"

namespace footfix {

/// Range [min, max] of one angle (radians).
struct AngleRange {
  double min = 0, max = 0;
  bool contains(double a, double tolerance = 0) const { return a >= min - tolerance && a <= max + tolerance; }
  double clamp(double a) const { return a < min ? min : (a > max ? max : a); }
};

/// Limits of one joint, in the anatomical convention of the left leg. For the right leg the
/// swing_z and twist ranges are mirrored ([min, max] -> [-max, -min]).
struct JointLimit {
  AngleRange twist;    ///< about the bone axis
  AngleRange swing_x;  ///< about the left-right axis
  AngleRange swing_z;  ///< about bone axis x left-right axis
  JointLimit mirrored() const;
};

/// The local axes a limit is measured in (unit vectors in the joint's local rest frame).
struct LimitFrame {
  Vec3 bone_axis{0, -1, 0};    ///< twist axis: toward the child joint
  Vec3 swing_x_axis{1, 0, 0};  ///< perpendicular to bone_axis
  Vec3 swing_z_axis{0, 0, 1};  ///< bone_axis x swing_x_axis
  /// Frame from a bone direction and the character's left axis (both in the joint's local
  /// space; they need not be unit or perpendicular, but must not be parallel).
  static LimitFrame from(Vec3 bone, Vec3 left);
};

/// A local rotation split into swing and twist angles (radians) in a LimitFrame.
struct SwingTwistAngles {
  double twist = 0, swing_x = 0, swing_z = 0;
};

/// Decomposes q = swing * twist and expresses both as angles in `frame`.
SwingTwistAngles swing_twist_angles(Quat q, const LimitFrame& frame);
/// The rotation with the given angles (the inverse of swing_twist_angles).
Quat from_swing_twist(const SwingTwistAngles& a, const LimitFrame& frame);

/// q with its twist and its two swing angles clamped to `limit` (each clamped once).
Quat clamp_to_limit(Quat q, const JointLimit& limit, const LimitFrame& frame);
/// True when q is inside `limit` within `tolerance_rad` on every angle.
bool within_limit(Quat q, const JointLimit& limit, const LimitFrame& frame, double tolerance_rad = 1e-6);

enum class LegJoint { hip = 0, knee = 1, ankle = 2, toe = 3 };
constexpr int k_leg_joint_count = 4;
const char* to_string(LegJoint j);

/// Per leg joint limits (left-leg convention), indexed by LegJoint.
struct LegLimits {
  std::array<JointLimit, k_leg_joint_count> joints;
  const JointLimit& operator[](LegJoint j) const { return joints[static_cast<int>(j)]; }
  JointLimit& operator[](LegJoint j) { return joints[static_cast<int>(j)]; }
};

/// Human defaults (degrees): hip flexion 120 / extension 30, abduction 45 / adduction 30, twist
/// +-35; knee flexion 0..140, +-3 sideways, +-10 twist; ankle dorsiflexion 40 (weight-bearing) / plantar flexion
/// 45, +-20 sideways, +-25 inversion/eversion; toe extension 60 / flexion 35, +-10, +-10.
LegLimits default_leg_limits();

/// Parses a joint-limits profile (schemas/joint_limits.schema.json): every joint and key
/// optional, unspecified ones keep `defaults`. `name` prefixes messages. Throws Error(usage)
/// with the file and the JSON path of the bad value ("limits.json: knee.swing_x_deg: min 10 is
/// greater than max 5"), or with line and column for malformed JSON.
LegLimits parse_leg_limits(const std::string& text, const std::string& name, const LegLimits& defaults = default_leg_limits());
/// Reads and parses a profile file. Throws Error(read) when it cannot be read.
LegLimits read_leg_limits(const std::string& path);

}  // namespace footfix
