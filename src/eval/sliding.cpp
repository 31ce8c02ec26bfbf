#include "footfix/eval/sliding.h"

#include "footfix/core/fk.h"

namespace footfix {

Clip make_sliding(const Clip& clip, const Rig& rig, double factor) {
  Clip out = clip;
  if (clip.frame_count == 0) return out;
  const int j = rig.translation_joint;
  const int parent = clip.skeleton.parents[static_cast<size_t>(j)];
  if (parent < 0) {
    // A root's local translation is its world position.
    const Vec3 first = clip.translation(0, j);
    for (int f = 0; f < clip.frame_count; ++f) {
      Vec3& t = out.translation(f, j);
      t.x = first.x + (t.x - first.x) * factor;
      t.z = first.z + (t.z - first.z) * factor;
    }
    return out;
  }
  // Under a parent (a glTF or FBX armature node, often rotated from Z up to Y up): the world
  // position is scaled, then taken back into the parent's frame of that frame.
  const Vec3 first = joint_world_position(clip, 0, j);
  for (int f = 0; f < clip.frame_count; ++f) {
    const Transform p = joint_world(clip, f, parent);
    Vec3 w = apply(p, clip.translation(f, j));
    w.x = first.x + (w.x - first.x) * factor;
    w.z = first.z + (w.z - first.z) * factor;
    out.translation(f, j) = rotate(inverse(p.rotation), w - p.translation);
  }
  return out;
}

ContactMask contact_mask(const ContactResult& contacts) { return {contacts.feet[0].contact, contacts.feet[1].contact}; }

Clip make_in_place(const Clip& clip, const Rig& rig, Vec3* ground_velocity_mps) {
  Clip out = clip;
  Vec3 v;
  if (clip.frame_count > 1) {
    const int j = rig.translation_joint;
    v = (clip.translation(clip.frame_count - 1, j) - clip.translation(0, j)) * (clip.fps / (clip.frame_count - 1));
    v.y = 0;
    for (int f = 0; f < clip.frame_count; ++f) out.translation(f, j) -= v * (f / clip.fps);
  }
  if (ground_velocity_mps) *ground_velocity_mps = -v;
  return out;
}

}  // namespace footfix
