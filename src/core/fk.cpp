#include "footfix/core/fk.h"

#include <cassert>
#include <cstdint>
#include <type_traits>
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

namespace {

// Frames operated on lane by lane, a frame a lane: two doubles (SSE2 on x86-64), or four (AVX2,
// where the processor has it). Each lane rounds as the scalar code would (no contraction into
// fused multiply-adds: the same products and sums), so several frames at a time give
// joint_world_position's result to the bit, whatever the width.
typedef double Pair __attribute__((vector_size(16)));
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FOOTFIX_FK_AVX2 1
// The helpers below taking and returning four-double vectors are inlined into the AVX2 functions
// (always_inline): no call passes one, so the ABI note for such calls does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"
typedef double Quad __attribute__((vector_size(32)));
#else
#define FOOTFIX_FK_AVX2 0
#endif

template <typename V>
struct Vec3Lanes {
  V x, y, z;
};

template <typename V>
struct QuatLanes {
  V w, x, y, z;
};

// The lanes of frames f, f + 1, ... (as many as V holds) of a per-frame value: at(frame).
template <typename V, typename Frame>
[[gnu::always_inline]] inline V lanes(const Frame& at) {
  if constexpr (sizeof(V) == sizeof(double))
    return at(0);
  else if constexpr (sizeof(V) == 2 * sizeof(double))
    return V{at(0), at(1)};
  else
    return V{at(0), at(1), at(2), at(3)};
}

// Joint j's translation at frames f, f + 1, ...
template <typename V>
[[gnu::always_inline]] inline Vec3Lanes<V> load_translation(const Clip& clip, int f, int j) {
  return {lanes<V>([&](int i) { return clip.translation(f + i, j).x; }),
          lanes<V>([&](int i) { return clip.translation(f + i, j).y; }),
          lanes<V>([&](int i) { return clip.translation(f + i, j).z; })};
}

// Joint j's rotation at frames f, f + 1, ...
template <typename V>
[[gnu::always_inline]] inline QuatLanes<V> load_rotation(const Clip& clip, int f, int j) {
  return {lanes<V>([&](int i) { return clip.rotation(f + i, j).w; }), lanes<V>([&](int i) { return clip.rotation(f + i, j).x; }),
          lanes<V>([&](int i) { return clip.rotation(f + i, j).y; }), lanes<V>([&](int i) { return clip.rotation(f + i, j).z; })};
}

// The same value in every lane.
template <typename V>
[[gnu::always_inline]] inline Vec3Lanes<V> splat(const Vec3& a) {
  return {lanes<V>([&](int) { return a.x; }), lanes<V>([&](int) { return a.y; }), lanes<V>([&](int) { return a.z; })};
}

// The operations of cross(u, v), lane by lane.
template <typename V>
[[gnu::always_inline]] inline Vec3Lanes<V> cross_lanes(const Vec3Lanes<V>& u, const Vec3Lanes<V>& v) {
  return {u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x};
}

// The operations of rotate(q, v), lane by lane: v + (c * 2) w + cross(u, c * 2), c = cross(u, v).
template <typename V>
[[gnu::always_inline]] inline Vec3Lanes<V> rotate_lanes(const QuatLanes<V>& q, const Vec3Lanes<V>& v) {
  const Vec3Lanes<V> u{q.x, q.y, q.z};
  const Vec3Lanes<V> c = cross_lanes(u, v);
  const Vec3Lanes<V> c2{c.x * 2.0, c.y * 2.0, c.z * 2.0};
  const Vec3Lanes<V> uc = cross_lanes(u, c2);
  return {(v.x + c2.x * q.w) + uc.x, (v.y + c2.y * q.w) + uc.y, (v.z + c2.z * q.w) + uc.z};
}

// The operations of a * b (Quat), lane by lane.
template <typename V>
[[gnu::always_inline]] inline QuatLanes<V> multiply_lanes(const QuatLanes<V>& a, const QuatLanes<V>& b) {
  return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}

// translation(p) + rotate(rotation(p), t) at frames f, f + 1, ... (joint p's transform applied
// to t, lane by lane).
template <typename V>
[[gnu::always_inline]] inline Vec3Lanes<V> translated_rotation(const Clip& clip, int f, int p, const Vec3Lanes<V>& t) {
  const Vec3Lanes<V> turned = rotate_lanes(load_rotation<V>(clip, f, p), t);
  const Vec3Lanes<V> parent = load_translation<V>(clip, f, p);
  return {parent.x + turned.x, parent.y + turned.y, parent.z + turned.z};
}

// Lane i of t into out[i].
template <typename V>
[[gnu::always_inline]] inline void store_lanes(const Vec3Lanes<V>& t, Vec3* out) {
  if constexpr (sizeof(V) == sizeof(double)) {
    out[0] = {t.x, t.y, t.z};
  } else {
#pragma GCC unroll 4
    for (int i = 0; i < static_cast<int>(sizeof(V) / sizeof(double)); ++i) out[i] = {t.x[i], t.y[i], t.z[i]};
  }
}

// joint's ancestors, nearest first.
std::vector<int> ancestors(const Clip& clip, int joint) {
  std::vector<int> chain;
  for (int p = clip.skeleton.parents[joint]; p >= 0; p = clip.skeleton.parents[p]) chain.push_back(p);
  return chain;
}

// Frames [f, end) of joint_trajectory, as many at a time as V holds (the frames left over are
// left to the caller); returns the first frame not done. out[0] is frame `first`'s.
template <typename V>
[[gnu::always_inline]] inline int joint_positions(const Clip& clip, int joint, const std::vector<int>& chain, int first,
                                                  int f, int end, Vec3* out) {
  constexpr int width = sizeof(V) / sizeof(double);
  for (; f + width <= end; f += width) {
    // t = translation(p) + rotate(rotation(p), t) up the chain, as joint_world_position.
    Vec3Lanes<V> t = load_translation<V>(clip, f, joint);
    for (int p : chain) t = translated_rotation(clip, f, p, t);
    store_lanes(t, out + (f - first));
  }
  return f;
}

// What point_trajectories composes: the points' joints and all their ancestors in increasing
// index order (parents first), each with its parent's slot, and the slot of each point's joint.
struct ComposePlan {
  std::vector<int> joints;       ///< slot -> joint
  std::vector<int> parent_slot;  ///< slot -> its parent's slot, -1 at the root
  std::vector<char> rotation;    ///< slot -> whether its world rotation is read (by a child or a site)
  std::vector<int> point_slot;   ///< point -> its joint's slot
};

ComposePlan compose_plan(const Clip& clip, std::span<const JointPoint> points) {
  const auto& parents = clip.skeleton.parents;
  std::vector<char> used(static_cast<size_t>(clip.joint_count()), 0);
  for (const JointPoint& p : points)
    for (int j = p.joint; j >= 0 && !used[j]; j = parents[j]) used[j] = 1;
  ComposePlan plan;
  std::vector<int> slot(used.size(), -1);
  for (int j = 0; j < clip.joint_count(); ++j) {
    if (!used[j]) continue;
    assert(parents[j] < j);
    slot[j] = static_cast<int>(plan.joints.size());
    plan.joints.push_back(j);
    plan.parent_slot.push_back(parents[j] < 0 ? -1 : slot[parents[j]]);
    plan.rotation.push_back(0);
    if (parents[j] >= 0) plan.rotation[slot[parents[j]]] = 1;
  }
  for (const JointPoint& p : points) {
    plan.point_slot.push_back(slot[p.joint]);
    if (p.site) plan.rotation[slot[p.joint]] = 1;
  }
  return plan;
}

// Frames [f, end) of point_trajectories, as many at a time as V holds (the frames left over are
// left to the caller); returns the first frame not done. `wq` and `wt` hold a slot each.
template <typename V>
[[gnu::always_inline]] inline int composed_points(const Clip& clip, const ComposePlan& plan, std::span<const JointPoint> points,
                                                  int first, int f, int end, QuatLanes<V>* wq, Vec3Lanes<V>* wt,
                                                  Vec3* const* out) {
  constexpr int width = sizeof(V) / sizeof(double);
  const int slots = static_cast<int>(plan.joints.size());
  for (; f + width <= end; f += width) {
    // world = parent's world * local, as world_pose: rotation = parent's * local's, translation
    // = parent's + rotate(parent's rotation, local's).
    for (int s = 0; s < slots; ++s) {
      const int j = plan.joints[s], p = plan.parent_slot[s];
      const Vec3Lanes<V> t = load_translation<V>(clip, f, j);
      if (p < 0) {
        wt[s] = t;
        if (plan.rotation[s]) wq[s] = load_rotation<V>(clip, f, j);
        continue;
      }
      const Vec3Lanes<V> turned = rotate_lanes(wq[p], t);
      wt[s] = {wt[p].x + turned.x, wt[p].y + turned.y, wt[p].z + turned.z};
      if (plan.rotation[s]) wq[s] = multiply_lanes(wq[p], load_rotation<V>(clip, f, j));
    }
    for (size_t k = 0; k < points.size(); ++k) {
      const int s = plan.point_slot[k];
      Vec3Lanes<V> at = wt[s];
      if (points[k].site) {
        const Vec3Lanes<V> turned = rotate_lanes(wq[s], splat<V>(*points[k].site));
        at = {at.x + turned.x, at.y + turned.y, at.z + turned.z};
      }
      store_lanes(at, out[k] + (f - first));
    }
  }
  return f;
}

#if FOOTFIX_FK_AVX2
bool have_avx2() {
  static const bool have = __builtin_cpu_supports("avx2");
  return have;
}
__attribute__((target("avx2"))) int joint_positions_avx2(const Clip& clip, int joint, const std::vector<int>& chain,
                                                        int first, int f, int end, Vec3* out) {
  return joint_positions<Quad>(clip, joint, chain, first, f, end, out);
}
__attribute__((target("avx2"))) int composed_points_avx2(const Clip& clip, const ComposePlan& plan,
                                                          std::span<const JointPoint> points, int first, int f, int end,
                                                          QuatLanes<Quad>* wq, Vec3Lanes<Quad>* wt, Vec3* const* out) {
  return composed_points<Quad>(clip, plan, points, first, f, end, wq, wt, out);
}
#endif

}  // namespace

void point_trajectories(const Clip& clip, std::span<const JointPoint> points, int first, int count,
                        std::span<Vec3* const> out) {
  assert(first >= 0 && count >= 0 && first + count <= clip.frame_count && out.size() == points.size());
  if (points.empty()) return;
  const ComposePlan plan = compose_plan(clip, points);
  const size_t slots = plan.joints.size();
  // Each slot's world transform (7 lanes of up to four doubles), aligned for the widest vector
  // (std::vector's storage is not).
  constexpr size_t k_align = 64;
  std::vector<unsigned char> storage(slots * 7 * 4 * sizeof(double) + k_align);
  unsigned char* base = storage.data();
  while (reinterpret_cast<std::uintptr_t>(base) % k_align != 0) ++base;
  // The slots' rotations, then their translations, for lanes of the type `lane` points to (a
  // null pointer: only its type is read, so no 32-byte value is passed).
  auto rotations = [&](auto* lane) {
    return reinterpret_cast<QuatLanes<std::remove_pointer_t<decltype(lane)>>*>(base);
  };
  auto translations = [&](auto* lane) {
    using V = std::remove_pointer_t<decltype(lane)>;
    return reinterpret_cast<Vec3Lanes<V>*>(base + slots * sizeof(QuatLanes<V>));
  };
  constexpr Quad* k_quads = nullptr;
  constexpr Pair* k_pairs = nullptr;
  constexpr double* k_doubles = nullptr;
  const int end = first + count;
  int f = first;
#if FOOTFIX_FK_AVX2
  if (have_avx2()) f = composed_points_avx2(clip, plan, points, first, f, end, rotations(k_quads), translations(k_quads), out.data());
#endif
  f = composed_points<Pair>(clip, plan, points, first, f, end, rotations(k_pairs), translations(k_pairs), out.data());
  composed_points<double>(clip, plan, points, first, f, end, rotations(k_doubles), translations(k_doubles), out.data());
}

void joint_trajectory(const Clip& clip, int joint, std::span<Vec3> out) {
  assert(out.size() >= static_cast<size_t>(clip.frame_count));
  joint_trajectory(clip, joint, 0, out.first(static_cast<size_t>(clip.frame_count)));
}

void joint_trajectory(const Clip& clip, int joint, int first, std::span<Vec3> out) {
  const int end = first + static_cast<int>(out.size());
  assert(first >= 0 && end <= clip.frame_count);
  const std::vector<int> chain = ancestors(clip, joint);
  int f = first;
#if FOOTFIX_FK_AVX2
  if (have_avx2()) f = joint_positions_avx2(clip, joint, chain, first, f, end, out.data());
#endif
  f = joint_positions<Pair>(clip, joint, chain, first, f, end, out.data());
  for (; f < end; ++f) out[f - first] = joint_world_position(clip, f, joint);
}

Vec3 end_site_world(const Clip& clip, int frame, int joint) {
  Transform t = joint_world(clip, frame, joint);
  const auto& end = clip.skeleton.end_sites[joint];
  return end ? apply(t, *end) : t.translation;
}

}  // namespace footfix
