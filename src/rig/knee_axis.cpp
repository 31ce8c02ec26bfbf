#include "knee_axis.h"

#include <algorithm>
#include <cmath>

#include "footfix/core/fk.h"

namespace footfix::rig_detail {

KneeAxis derive_knee_side(const Clip& clip, const LegChain& leg, const std::function<Vec3()>& fallback_side_ws) {
  const double min_bend = std::sin(10.0 * k_deg_to_rad);
  int step = std::max(1, clip.frame_count / 400);
  Vec3 sum;
  double weight = 0;
  for (int f = 0; f < clip.frame_count; f += step) {
    Vec3 a = joint_world(clip, f, leg.hip).translation;
    Transform knee = joint_world(clip, f, leg.knee);
    Vec3 b = knee.translation;
    Vec3 c = joint_world(clip, f, leg.heel).translation;
    Vec3 thigh = normalize(b - a), shin = normalize(c - b);
    double bend = length(cross(thigh, shin));  // sin of the knee flexion
    if (bend < min_bend) continue;
    Vec3 n = normalize(cross(b - a, c - a));
    sum += rotate(inverse(knee.rotation), n) * bend;
    weight += bend;
  }
  KneeAxis out;
  if (weight > 0 && length(sum) > 0.5 * weight) {
    out.knee_side_ls = normalize(sum);
    out.from_bend = true;
  } else {
    Transform knee = joint_world(clip, 0, leg.knee);
    out.knee_side_ls = normalize(rotate(inverse(knee.rotation), fallback_side_ws()));
  }
  return out;
}

}  // namespace footfix::rig_detail
