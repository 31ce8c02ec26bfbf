#include "footfix/solve/loop.h"

#include <algorithm>
#include <cmath>

#include "footfix/core/fk.h"

namespace footfix {

Vec3 loop_travel(const Clip& clip, const Rig& rig) {
  if (clip.frame_count < 2) return {};
  const int j = rig.translation_joint;
  Vec3 d = joint_world(clip, clip.frame_count - 1, j).translation - joint_world(clip, 0, j).translation;
  return {d.x, 0.0, d.z};
}

bool is_loop(const Clip& clip, const Rig& rig) {
  const int n = clip.frame_count;
  if (n < 8) return false;
  for (int j = 0; j < clip.joint_count(); ++j) {
    if (angle_of(inverse(clip.rotation(0, j)) * clip.rotation(n - 1, j)) > k_loop_max_angle_rad) return false;
  }
  const int root = rig.translation_joint;
  const Vec3 r0 = joint_world(clip, 0, root).translation, r1 = joint_world(clip, n - 1, root).translation;
  if (std::abs(r1.y - r0.y) > k_loop_max_offset_m) return false;
  for (const auto& leg : rig.legs) {
    const Vec3 a = joint_world(clip, 0, leg.contact_joint()).translation - r0;
    const Vec3 b = joint_world(clip, n - 1, leg.contact_joint()).translation - r1;
    if (length(b - a) > k_loop_max_offset_m) return false;
  }
  return true;
}

Clip wrap_loop(const Clip& clip, const Rig& rig, int pad) {
  const int n = clip.frame_count, period = n - 1;
  pad = std::clamp(pad, 0, std::max(0, n - 2));
  const Vec3 travel = loop_travel(clip, rig);
  const int root = rig.translation_joint, parent = clip.skeleton.parents[root];
  Clip out = clip;
  out.source.reset();
  out.resize(n + 2 * pad);
  for (int e = 0; e < out.frame_count; ++e) {
    const int o = e - pad;
    const int cycle = o < 0 ? -1 : (o >= n ? 1 : 0);
    const int src = o - cycle * period;
    for (int j = 0; j < clip.joint_count(); ++j) {
      out.rotation(e, j) = clip.rotation(src, j);
      out.translation(e, j) = clip.translation(src, j);
    }
    if (cycle != 0) {
      const Quat parent_rot = parent >= 0 ? joint_world(clip, src, parent).rotation : Quat{};
      out.translation(e, root) += rotate(inverse(parent_rot), travel * static_cast<double>(cycle));
    }
  }
  return out;
}

}  // namespace footfix
