#include "footfix/core/fk.h"

#include <cassert>
#include <vector>

namespace footfix {

void world_pose(const Clip& clip, int frame, std::span<Transform> world_out) {
  const auto& parents = clip.skeleton.parents;
  assert(world_out.size() >= static_cast<size_t>(clip.joint_count()));
  for (int j = 0; j < clip.joint_count(); ++j) {
    Transform local{clip.rotation(frame, j), clip.translation(frame, j)};
    assert(parents[j] < j);
    world_out[j] = parents[j] < 0 ? local : world_out[parents[j]] * local;
  }
}

Transform joint_world(const Clip& clip, int frame, int joint) {
  Transform t{clip.rotation(frame, joint), clip.translation(frame, joint)};
  for (int p = clip.skeleton.parents[joint]; p >= 0; p = clip.skeleton.parents[p])
    t = Transform{clip.rotation(frame, p), clip.translation(frame, p)} * t;
  return t;
}

// The rotations' products are left out: a position never reads them (the same operations on the
// translation as joint_world's, so the same result).
Vec3 joint_world_position(const Clip& clip, int frame, int joint) {
  Vec3 t = clip.translation(frame, joint);
  for (int p = clip.skeleton.parents[joint]; p >= 0; p = clip.skeleton.parents[p])
    t = clip.translation(frame, p) + rotate(clip.rotation(frame, p), t);
  return t;
}

void joint_trajectory(const Clip& clip, int joint, std::span<Vec3> out) {
  assert(out.size() >= static_cast<size_t>(clip.frame_count));
  for (int f = 0; f < clip.frame_count; ++f) out[f] = joint_world_position(clip, f, joint);
}

Vec3 end_site_world(const Clip& clip, int frame, int joint) {
  Transform t = joint_world(clip, frame, joint);
  const auto& end = clip.skeleton.end_sites[joint];
  return end ? apply(t, *end) : t.translation;
}

}  // namespace footfix
