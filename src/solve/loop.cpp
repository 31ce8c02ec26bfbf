#include "loop_wrap.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

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

namespace {

/// Frame `src` of `clip` as the wrapped clip shows it `cycle` cycles on (-1, 0 or 1): the
/// translation joint moved by cycle x `travel`. Written to rot[0..joints) and trans[0..joints).
void wrapped_frame(const Clip& clip, const Rig& rig, int src, int cycle, Vec3 travel, Quat* rot, Vec3* trans) {
  const int root = rig.translation_joint, parent = clip.skeleton.parents[root];
  for (int j = 0; j < clip.joint_count(); ++j) {
    rot[j] = clip.rotation(src, j);
    trans[j] = clip.translation(src, j);
  }
  if (cycle != 0) {
    const Quat parent_rot = parent >= 0 ? joint_world(clip, src, parent).rotation : Quat{};
    trans[root] += rotate(inverse(parent_rot), travel * static_cast<double>(cycle));
  }
}

}  // namespace

Clip wrap_loop(const Clip& clip, const Rig& rig, int pad) {
  Clip copy = clip;
  return wrap_loop(std::move(copy), rig, pad);
}

Clip wrap_loop(Clip&& clip, const Rig& rig, int pad) {
  const int n = clip.frame_count, period = n - 1, joints = clip.joint_count();
  pad = std::clamp(pad, 0, std::max(0, n - 2));
  const Vec3 travel = loop_travel(clip, rig);
  // The wrapped frames first (2 x pad frames, read from the clip as it is), then the clip's own
  // frames moved up by pad in their vectors (one reallocation each), the wrapped ones around.
  const auto per_frame = static_cast<std::size_t>(joints), margin = static_cast<std::size_t>(pad) * per_frame;
  std::vector<Quat> rot(2 * margin);
  std::vector<Vec3> trans(2 * margin);
  for (int e = 0; e < pad; ++e) {
    const auto at = static_cast<std::size_t>(e) * per_frame;
    wrapped_frame(clip, rig, e - pad + period, -1, travel, &rot[at], &trans[at]);  // the tail, one cycle back
    wrapped_frame(clip, rig, e + 1, 1, travel, &rot[margin + at], &trans[margin + at]);  // the head, one on
  }
  auto wrap = [&](auto& values, const auto& wrapped) {
    values.reserve(values.size() + 2 * margin);
    values.insert(values.begin(), wrapped.begin(), wrapped.begin() + static_cast<std::ptrdiff_t>(margin));
    values.insert(values.end(), wrapped.begin() + static_cast<std::ptrdiff_t>(margin), wrapped.end());
  };
  wrap(clip.rotations, rot);
  wrap(clip.translations, trans);
  clip.frame_count = n + 2 * pad;
  clip.source.reset();
  Clip out = std::move(clip);
  clip = Clip{};
  return out;
}

void keep_frames(Clip& clip, int first, int count) {
  const auto per_frame = static_cast<std::ptrdiff_t>(clip.joint_count());
  auto keep = [&](auto& values) {
    values.erase(values.begin(), values.begin() + first * per_frame);
    values.resize(static_cast<std::size_t>(count * per_frame));
  };
  keep(clip.rotations);
  keep(clip.translations);
  clip.frame_count = count;
}

}  // namespace footfix
