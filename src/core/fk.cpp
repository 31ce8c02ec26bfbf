#include "footfix/core/fk.h"

#include <cassert>
#include <vector>

#include "end_site_trajectory.h"

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

namespace {

// Two doubles operated on lane by lane (SSE2 on x86-64): each lane rounds as the scalar code
// would, so two frames at a time give joint_world_position's result to the bit.
typedef double Pair __attribute__((vector_size(16)));

struct Vec3Pair {
  Pair x, y, z;
};

[[gnu::always_inline]] inline Vec3Pair load_pair(const Vec3& a, const Vec3& b) { return {Pair{a.x, b.x}, Pair{a.y, b.y}, Pair{a.z, b.z}}; }

// The operations of cross(u, v), lane by lane.
[[gnu::always_inline]] inline Vec3Pair cross_pair(const Vec3Pair& u, const Vec3Pair& v) {
  return {u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x};
}

struct QuatPair {
  Pair w, x, y, z;
};

[[gnu::always_inline]] inline QuatPair load_pair(const Quat& a, const Quat& b) { return {Pair{a.w, b.w}, Pair{a.x, b.x}, Pair{a.y, b.y}, Pair{a.z, b.z}}; }

// The operations of rotate(q, v), lane by lane: v + (c * 2) w + cross(u, c * 2), c = cross(u, v).
[[gnu::always_inline]] inline Vec3Pair rotate_pair(const QuatPair& q, const Vec3Pair& v) {
  const Vec3Pair u{q.x, q.y, q.z};
  const Vec3Pair c = cross_pair(u, v);
  const Vec3Pair c2{c.x * 2.0, c.y * 2.0, c.z * 2.0};
  const Vec3Pair uc = cross_pair(u, c2);
  return {(v.x + c2.x * q.w) + uc.x, (v.y + c2.y * q.w) + uc.y, (v.z + c2.z * q.w) + uc.z};
}

// The operations of a * b (Quat), lane by lane.
[[gnu::always_inline]] inline QuatPair multiply_pair(const QuatPair& a, const QuatPair& b) {
  return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}

// translation(p) + rotate(rotation(p), t) at frames f and f + 1 (joint p's transform applied
// to t, lane by lane).
[[gnu::always_inline]] inline Vec3Pair translated_rotation(const Clip& clip, int f, int p, const Vec3Pair& t) {
  const Vec3Pair turned = rotate_pair(load_pair(clip.rotation(f, p), clip.rotation(f + 1, p)), t);
  const Vec3Pair parent = load_pair(clip.translation(f, p), clip.translation(f + 1, p));
  return {parent.x + turned.x, parent.y + turned.y, parent.z + turned.z};
}

[[gnu::always_inline]] inline void store_pair(const Vec3Pair& t, Vec3& a, Vec3& b) {
  a = {t.x[0], t.y[0], t.z[0]};
  b = {t.x[1], t.y[1], t.z[1]};
}

// joint's ancestors, nearest first.
std::vector<int> ancestors(const Clip& clip, int joint) {
  std::vector<int> chain;
  for (int p = clip.skeleton.parents[joint]; p >= 0; p = clip.skeleton.parents[p]) chain.push_back(p);
  return chain;
}

}  // namespace

void joint_trajectory(const Clip& clip, int joint, std::span<Vec3> out) {
  assert(out.size() >= static_cast<size_t>(clip.frame_count));
  joint_trajectory(clip, joint, 0, out.first(static_cast<size_t>(clip.frame_count)));
}

void joint_trajectory(const Clip& clip, int joint, int first, std::span<Vec3> out) {
  const int end = first + static_cast<int>(out.size());
  assert(first >= 0 && end <= clip.frame_count);
  const std::vector<int> chain = ancestors(clip, joint);
  int f = first;
  for (; f + 1 < end; f += 2) {
    // t = translation(p) + rotate(rotation(p), t) up the chain, as joint_world_position.
    Vec3Pair t = load_pair(clip.translation(f, joint), clip.translation(f + 1, joint));
    for (int p : chain) t = translated_rotation(clip, f, p, t);
    store_pair(t, out[f - first], out[f + 1 - first]);
  }
  for (; f < end; ++f) out[f - first] = joint_world_position(clip, f, joint);
}

void end_site_trajectory(const Clip& clip, int joint, int first, std::span<Vec3> out) {
  const int end = first + static_cast<int>(out.size());
  assert(first >= 0 && end <= clip.frame_count);
  const auto& site = clip.skeleton.end_sites[joint];
  if (!site) {
    joint_trajectory(clip, joint, first, out);
    return;
  }
  const std::vector<int> chain = ancestors(clip, joint);
  const Vec3Pair offset = load_pair(*site, *site);
  int f = first;
  for (; f + 1 < end; f += 2) {
    // joint_world's product up the chain (the parent's transform times the child's), then apply.
    QuatPair r = load_pair(clip.rotation(f, joint), clip.rotation(f + 1, joint));
    Vec3Pair t = load_pair(clip.translation(f, joint), clip.translation(f + 1, joint));
    for (int p : chain) {
      t = translated_rotation(clip, f, p, t);
      r = multiply_pair(load_pair(clip.rotation(f, p), clip.rotation(f + 1, p)), r);
    }
    const Vec3Pair turned = rotate_pair(r, offset);
    store_pair({t.x + turned.x, t.y + turned.y, t.z + turned.z}, out[f - first], out[f + 1 - first]);
  }
  for (; f < end; ++f) out[f - first] = end_site_world(clip, f, joint);
}

Vec3 end_site_world(const Clip& clip, int frame, int joint) {
  Transform t = joint_world(clip, frame, joint);
  const auto& end = clip.skeleton.end_sites[joint];
  return end ? apply(t, *end) : t.translation;
}

}  // namespace footfix
