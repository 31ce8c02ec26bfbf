// A small synthetic two-leg skeleton for solve tests: Hips -> Pelvis -> {Spine, Left/Right
// UpLeg -> Leg -> Foot -> ToeBase (+ end site)}, meters, Y up, facing +Z, in a bent walking-like
// pose. Header-only.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include "footfix/core/clip.h"
#include "footfix/core/fk.h"
#include "footfix/rig/leg_rig.h"

namespace footfix::test {

inline const Vec3 k_x{1, 0, 0};

struct TestRig {
  Clip clip;
  LegChain left, right;
  int spine = -1;
};

inline LegChain add_leg(Skeleton& s, int pelvis, double side_x, const char* prefix) {
  std::string p = prefix;
  LegChain leg;
  leg.hip = s.add_joint(p + "UpLeg", pelvis, {side_x, -0.05, 0});
  leg.knee = s.add_joint(p + "Leg", leg.hip, {0, -0.42, 0});
  leg.heel = s.add_joint(p + "Foot", leg.knee, {0, -0.42, 0});
  leg.toe = s.add_joint(p + "ToeBase", leg.heel, {0, -0.07, 0.13});
  s.end_sites[leg.toe] = Vec3{0, -0.01, 0.06};
  leg.knee_side_ls = k_x;  // positive rotation about +X moves the ankle backwards (-Z)
  return leg;
}

/// Bent walking-like pose: hip flexed forward, knee bent, foot flat-ish. Root at 0.9 m.
inline TestRig make_rig(int frames = 3) {
  TestRig r;
  Skeleton& s = r.clip.skeleton;
  int root = s.add_joint("Hips", -1, {0, 0, 0});
  int pelvis = s.add_joint("Pelvis", root, {0, 0, 0});
  r.spine = s.add_joint("Spine", pelvis, {0, 0.1, 0});
  r.left = add_leg(s, pelvis, 0.1, "Left");
  r.right = add_leg(s, pelvis, -0.1, "Right");
  r.clip.fps = 60;
  r.clip.resize(frames);
  for (int f = 0; f < frames; ++f) {
    r.clip.translation(f, root) = {0.01 * f, 0.9, 0.02 * f};
    r.clip.rotation(f, root) = axis_angle({0, 1, 0}, 0.2);
    r.clip.rotation(f, r.spine) = axis_angle(k_x, 0.1);
    for (const LegChain* leg : {&r.left, &r.right}) {
      r.clip.rotation(f, leg->hip) = axis_angle(k_x, -0.35);
      r.clip.rotation(f, leg->knee) = axis_angle(k_x, 0.6);
      r.clip.rotation(f, leg->heel) = axis_angle(k_x, -0.2);
    }
  }
  return r;
}

inline Vec3 pos(const Clip& c, int frame, int joint) {
  return joint_world(c, frame, joint).translation;
}
inline double hip_heel(const Clip& c, int frame, const LegChain& leg) {
  return length(pos(c, frame, leg.heel) - pos(c, frame, leg.hip));
}
/// Signed bend: > 0 when the knee bends the way knee_side_ls says (ankle behind the thigh line).
inline double bend_sign(const Clip& c, int frame, const LegChain& leg) {
  Vec3 a = pos(c, frame, leg.hip), b = pos(c, frame, leg.knee), h = pos(c, frame, leg.heel);
  Vec3 side = rotate(joint_world(c, frame, leg.knee).rotation, leg.knee_side_ls);
  return dot(cross(b - a, h - a), side);
}
inline bool all_finite(const Clip& c) {
  for (const Quat& q : c.rotations)
    if (!std::isfinite(q.w) || !std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z))
      return false;
  return true;
}

}  // namespace footfix::test
