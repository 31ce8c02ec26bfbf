#include "footfix/core/math.h"

#include <cmath>

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


double angle_of(Quat q) {
  double v = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
  return 2.0 * std::atan2(v, std::abs(q.w));
}

}  // namespace footfix
