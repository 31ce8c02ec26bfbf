#include "footfix/walk/joint_limits.h"

#include <cmath>

namespace footfix {

JointLimit JointLimit::mirrored() const {
  JointLimit m = *this;
  m.twist = {-twist.max, -twist.min};
  m.swing_z = {-swing_z.max, -swing_z.min};
  return m;
}

LimitFrame LimitFrame::from(Vec3 bone, Vec3 left) {
  LimitFrame f;
  f.bone_axis = normalize(bone);
  f.swing_x_axis = normalize(left - f.bone_axis * dot(left, f.bone_axis));
  f.swing_z_axis = cross(f.bone_axis, f.swing_x_axis);
  return f;
}

SwingTwistAngles swing_twist_angles(Quat q, const LimitFrame& frame) {
  if (q.w < 0) q = {-q.w, -q.x, -q.y, -q.z};
  const Vec3 t = frame.bone_axis;
  const double proj = q.x * t.x + q.y * t.y + q.z * t.z;
  SwingTwistAngles a;
  Quat twist{1, 0, 0, 0};
  if (q.w * q.w + proj * proj > 1e-24) {
    twist = normalize(Quat{q.w, t.x * proj, t.y * proj, t.z * proj});
    a.twist = 2.0 * std::atan2(proj, q.w);
  }
  Quat swing = q * conjugate(twist);
  if (swing.w < 0) swing = {-swing.w, -swing.x, -swing.y, -swing.z};
  const Vec3 v{swing.x, swing.y, swing.z};
  const double s = length(v);
  if (s > 1e-300) {
    const Vec3 rv = v * (2.0 * std::atan2(s, swing.w) / s);
    a.swing_x = dot(rv, frame.swing_x_axis);
    a.swing_z = dot(rv, frame.swing_z_axis);
  }
  return a;
}

Quat from_swing_twist(const SwingTwistAngles& a, const LimitFrame& frame) {
  const Vec3 rv = frame.swing_x_axis * a.swing_x + frame.swing_z_axis * a.swing_z;
  const double angle = length(rv);
  const Quat swing = angle > 1e-300 ? axis_angle(rv / angle, angle) : Quat{};
  return swing * axis_angle(frame.bone_axis, a.twist);
}

Quat clamp_to_limit(Quat q, const JointLimit& limit, const LimitFrame& frame) {
  SwingTwistAngles a = swing_twist_angles(q, frame);
  if (limit.twist.contains(a.twist) && limit.swing_x.contains(a.swing_x) && limit.swing_z.contains(a.swing_z))
    return q;
  a.twist = limit.twist.clamp(a.twist);
  a.swing_x = limit.swing_x.clamp(a.swing_x);
  a.swing_z = limit.swing_z.clamp(a.swing_z);
  return from_swing_twist(a, frame);
}

bool within_limit(Quat q, const JointLimit& limit, const LimitFrame& frame, double tolerance_rad) {
  const SwingTwistAngles a = swing_twist_angles(q, frame);
  return limit.twist.contains(a.twist, tolerance_rad) && limit.swing_x.contains(a.swing_x, tolerance_rad) &&
         limit.swing_z.contains(a.swing_z, tolerance_rad);
}

const char* to_string(LegJoint j) {
  switch (j) {
    case LegJoint::hip: return "hip";
    case LegJoint::knee: return "knee";
    case LegJoint::ankle: return "ankle";
    case LegJoint::toe: return "toe";
  }
  return "?";
}

LegLimits default_leg_limits() {
  auto deg = [](double lo, double hi) { return AngleRange{lo * k_deg_to_rad, hi * k_deg_to_rad}; };
  LegLimits l;
  l[LegJoint::hip] = {deg(-35, 35), deg(-120, 30), deg(-30, 45)};
  l[LegJoint::knee] = {deg(-10, 10), deg(0, 140), deg(-3, 3)};
  l[LegJoint::ankle] = {deg(-25, 25), deg(-40, 45), deg(-20, 20)};
  l[LegJoint::toe] = {deg(-10, 10), deg(-60, 35), deg(-10, 10)};
  return l;
}

}  // namespace footfix
