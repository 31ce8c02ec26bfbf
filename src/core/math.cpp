#include "footfix/core/math.h"

#include <algorithm>

namespace footfix {

Quat rotation_between(Vec3 p, Vec3 q) {
  double lp = length_sq(p), lq = length_sq(q);
  if (lp < 1e-300 || lq < 1e-300) return {};
  Vec3 c = cross(p, q);
  double w = std::sqrt(lp * lq) + dot(p, q);
  if (w < 1e-12 * std::sqrt(lp * lq)) {
    // Opposite directions: 180 degrees about any axis perpendicular to p.
    Vec3 axis = std::abs(p.x) < std::abs(p.z) ? cross(p, Vec3{1, 0, 0}) : cross(p, Vec3{0, 0, 1});
    axis = normalize(axis);
    return {0, axis.x, axis.y, axis.z};
  }
  return normalize(Quat{w, c.x, c.y, c.z});
}

Quat slerp(Quat a, Quat b, double t) {
  double d = dot(a, b);
  if (d < 0) {
    b = {-b.w, -b.x, -b.y, -b.z};
    d = -d;
  }
  if (d > 0.9995) {
    return normalize(Quat{a.w + (b.w - a.w) * t, a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t,
                          a.z + (b.z - a.z) * t});
  }
  double theta = std::acos(std::clamp(d, -1.0, 1.0));
  double s = std::sin(theta);
  double wa = std::sin((1 - t) * theta) / s, wb = std::sin(t * theta) / s;
  return {a.w * wa + b.w * wb, a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb};
}

double angle_of(Quat q) {
  double v = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
  return 2.0 * std::atan2(v, std::abs(q.w));
}

Vec3 rotation_vector(Quat q) {
  if (q.w < 0) q = {-q.w, -q.x, -q.y, -q.z};
  const double v = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
  // angle / sin(angle / 2), with its limit 2 near identity
  const double angle = 2.0 * std::atan2(v, q.w);
  const double scale = v > 1e-12 ? angle / v : 2.0;
  return {q.x * scale, q.y * scale, q.z * scale};
}

Quat from_rotation_vector(Vec3 v) {
  const double angle = length(v);
  if (angle < 1e-12) return normalize(Quat{1.0, 0.5 * v.x, 0.5 * v.y, 0.5 * v.z});
  return axis_angle(v / angle, angle);
}

}  // namespace footfix
