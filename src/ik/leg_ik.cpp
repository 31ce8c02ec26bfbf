#include "footfix/ik/leg_ik.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"

namespace footfix {
namespace {

// Refinement passes of the two-bone step. With the bend axis perpendicular to the hip-knee-heel
// plane one pass is exact; a rig constant that is off the plane leaves a small length error that
// each further pass shrinks geometrically.
constexpr int k_two_bone_passes = 4;
constexpr double k_two_bone_done_m = 1e-10;
constexpr double k_min_bone_m = 1e-9;
// Half-width of the rounded corner of the heel and foot-tip floors (meters).
constexpr double k_floor_blend_m = 0.01;
// The foot pitch follows the needed pitch exactly up to (1 - this) x its limit, then saturates
// exponentially over this share of the limit (as soft_reach_m does for the leg): smooth, and
// exact for the small pitches most planted frames need.
constexpr double k_pitch_softness = 0.3;

[[gnu::always_inline]] inline Transform local_of(const Clip& clip, int frame, int joint) {
  return {clip.rotation(frame, joint), clip.translation(frame, joint)};
}

/// World transform of `joint` given the world transform of its ancestor `ancestor` (or of
/// `ancestor` itself when joint == ancestor). Allocation-free walk up the parent chain.
[[gnu::always_inline]] inline Transform world_below(const Clip& clip, int frame, int joint, int ancestor,
                      const Transform& ancestor_ws) {
  if (joint == ancestor) return ancestor_ws;
  Transform t = local_of(clip, frame, joint);
  for (int p = clip.skeleton.parents[joint]; p != ancestor; p = clip.skeleton.parents[p]) {
    assert(p >= 0 && "ancestor is not above joint");
    if (p < 0) break;  // broken chain: never loop forever
    t = local_of(clip, frame, p) * t;
  }
  return ancestor_ws * t;
}

/// Sets joint's local rotation so that its world rotation becomes `world_rot`, given its
/// parent's world transform.
[[gnu::always_inline]] inline void set_world_rotation(Clip& clip, int frame, int joint, const Transform& parent_ws,
                        Quat world_rot) {
  clip.rotation(frame, joint) = normalize(inverse(parent_ws.rotation) * world_rot);
}


double clamped_acos(double x) { return std::acos(std::clamp(x, -1.0, 1.0)); }

/// The leg's world transforms, from the hip's parent down to the heel.
struct LegPose {
  Transform hip_parent, hip, knee_parent, knee, heel_parent, heel;
};

[[gnu::always_inline]] inline LegPose leg_pose(const Clip& clip, int frame, const LegChain& leg, const Transform& hip_parent_ws) {
  const auto& parents = clip.skeleton.parents;
  LegPose p;
  p.hip_parent = hip_parent_ws;
  p.hip = hip_parent_ws * local_of(clip, frame, leg.hip);
  p.knee_parent = world_below(clip, frame, parents[leg.knee], leg.hip, p.hip);
  p.knee = p.knee_parent * local_of(clip, frame, leg.knee);
  p.heel_parent = world_below(clip, frame, parents[leg.heel], leg.knee, p.knee);
  p.heel = p.heel_parent * local_of(clip, frame, leg.heel);
  return p;
}

/// One pass of step 3: rotates hip and knee so the heel goes to `target` (already soft-limited).
/// Returns false (and changes nothing) on a degenerate leg (zero-length bones or target on the
/// hip).
bool two_bone_pass(Clip& clip, int frame, const LegChain& leg, const LegPose& p, Vec3 target) {
  Vec3 a = p.hip.translation, b = p.knee.translation, c = p.heel.translation;
  double lab = length(b - a), lcb = length(b - c), lat = length(target - a), lca = length(c - a);
  if (lab < k_min_bone_m || lcb < k_min_bone_m || lat < k_min_bone_m || lca < k_min_bone_m)
    return false;

  // Bend axis from the rig constant, not from the (possibly straight) hip-knee-heel plane.
  Vec3 side = rotate(p.knee.rotation, leg.knee_side_ls);
  Vec3 down = (c - a) / lca;
  Vec3 fwd = normalize(cross(down, side));
  Vec3 axis = normalize(cross(down, fwd));
  if (length_sq(axis) == 0) return false;  // side parallel to the leg: no usable bend plane

  double a0 = clamped_acos(dot(down, (b - a) / lab));
  double b0 = clamped_acos(dot((a - b) / lab, (c - b) / lcb));
  double a1 = clamped_acos((lab * lab + lat * lat - lcb * lcb) / (2 * lab * lat));
  double b1 = clamped_acos((lab * lab + lcb * lcb - lat * lat) / (2 * lab * lcb));

  Quat r0 = axis_angle(axis, a1 - a0);
  Quat r1 = axis_angle(axis, b1 - b0);
  Quat r2 = rotation_between(c - a, target - a);
  set_world_rotation(clip, frame, leg.hip, p.hip_parent, r2 * r0 * p.hip.rotation);
  // The knee's parent turns rigidly with the hip, so its old world rotation is the right frame.
  set_world_rotation(clip, frame, leg.knee, p.knee_parent, r1 * p.knee.rotation);
  return true;
}

/// Rotates `joint` (world transform joint_ws, parent parent_ws) so that the direction from it to
/// `from` turns towards `to`.
[[gnu::always_inline]] inline void look_at(Clip& clip, int frame, int joint, const Transform& parent_ws,
             const Transform& joint_ws, Vec3 from, Vec3 to) {
  Vec3 origin = joint_ws.translation;
  Quat q = rotation_between(from - origin, to - origin);
  set_world_rotation(clip, frame, joint, parent_ws, q * joint_ws.rotation);
}

/// Where the foot tip goes in step 5: the current tip raised to `min_y` with the same heading and
/// the same distance from the contact joint (so the tip really ends at min_y, not just on the
/// ray towards it); straight up when the tip cannot reach min_y.
Vec3 lifted_tip(Vec3 contact, Vec3 tip, double min_y) {
  double len = length(tip - contact);
  double dy = min_y - contact.y;
  if (dy >= len) return contact + Vec3{0, len, 0};
  Vec3 flat = normalize(Vec3{tip.x - contact.x, 0, tip.z - contact.z});
  if (length_sq(flat) == 0) flat = Vec3{0, 0, 1};
  return contact + flat * std::sqrt(len * len - dy * dy) + Vec3{0, dy, 0};
}

}  // namespace

void LegIkSettings::validate() const {
  if (!std::isfinite(softness_m) || softness_m <= 0)
    fail(ErrorKind::usage,
         "leg IK: softness_m must be a finite value > 0, got " + std::to_string(softness_m));
  if (!std::isfinite(max_foot_pitch_deg) || max_foot_pitch_deg < 0 || max_foot_pitch_deg > 60)
    fail(ErrorKind::usage,
         "leg IK: max_foot_pitch_deg must be in [0, 60], got " + std::to_string(max_foot_pitch_deg));
}

double soft_reach_m(double l_m, double max_m, double softness_m) {
  double knee = max_m - softness_m;
  if (l_m <= knee) return l_m;
  double reach = knee + softness_m * (1.0 - std::exp(-(l_m - knee) / softness_m));
  return std::max(reach, 0.0);
}

double exact_foot_pitch_rad(double limit_rad) { return std::max(0.0, (1 - k_pitch_softness) * limit_rad); }

Vec3 pitched_heel_target(Vec3 toe_target, Vec3 heel_target, Vec3 hip, double reach_m, double max_pitch_rad,
                         double weight) {
  const Vec3 to_hip = hip - toe_target, foot = heel_target - toe_target;
  const double hip_m = length(to_hip), foot_m = length(foot);
  if (max_pitch_rad <= 0 || weight <= 0 || hip_m < k_min_bone_m || foot_m < k_min_bone_m || length(heel_target - hip) <= reach_m)
    return heel_target;
  const Vec3 along = foot / foot_m, towards = to_hip / hip_m;
  const double cos_alpha = std::clamp(dot(along, towards), -1.0, 1.0);
  Vec3 side = towards - along * cos_alpha;  // in the plane, perpendicular to the foot, towards the hip
  if (length(side) < k_min_bone_m) return heel_target;
  side = side / length(side);
  // |heel' - hip|^2 = hip_m^2 + foot_m^2 - 2 hip_m foot_m cos(alpha - pitch) = reach_m^2.
  const double alpha = std::acos(cos_alpha);
  const double c = (hip_m * hip_m + foot_m * foot_m - reach_m * reach_m) / (2 * hip_m * foot_m);
  const double needed = c >= 1 ? alpha : std::max(0.0, alpha - clamped_acos(c));
  const double limit = weight * max_pitch_rad;
  const double pitch = soft_reach_m(needed, limit, k_pitch_softness * limit);
  return toe_target + (along * std::cos(pitch) + side * std::sin(pitch)) * foot_m;
}

double smooth_floor(double y, double floor, double knee_m) {
  if (y >= floor + knee_m) return y;
  if (y <= floor - knee_m) return floor;
  const double u = y - floor + knee_m;
  return floor + u * u / (4 * knee_m);
}

LegIkResult solve_leg(Clip& clip, int frame, const LegChain& leg, Vec3 toe_target_ws,
                      const LegHeights& heights, double max_extension_m,
                      const LegIkSettings& settings, const LegIkHints& hints) {
  assert(leg.valid() && frame >= 0 && frame < clip.frame_count);
  const auto& parents = clip.skeleton.parents;
  const bool has_toe = leg.toe >= 0;
  const int hip_parent = parents[leg.hip];
  const Transform hip_parent_ws =
      hip_parent >= 0 ? joint_world(clip, frame, hip_parent) : Transform{};

  LegPose p = leg_pose(clip, frame, leg, hip_parent_ws);
  Vec3 contact = has_toe ? world_below(clip, frame, leg.toe, leg.heel, p.heel).translation
                         : p.heel.translation;

  // 1. Toe target above the toe's lowest height.
  Vec3 toe_target = toe_target_ws;
  toe_target.y = std::max(toe_target.y, heights.toe_min_m);
  // 2. Heel target keeps the pose's heel-to-toe offset, above the heel's lowest height: a heel
  //    that would go below it is lifted by pitching the foot about the toe target (the offset's
  //    length and heading kept), so the toe still reaches its target.
  Vec3 offset = p.heel.translation - contact;
  if (hints.heel_offset_ws && has_toe && length(*hints.heel_offset_ws) > k_min_bone_m)
    offset = *hints.heel_offset_ws * (length(offset) / length(*hints.heel_offset_ws));
  Vec3 heel_target = toe_target + offset;
  const double heel_y = smooth_floor(heel_target.y, heights.heel_min_m, k_floor_blend_m);
  if (heel_y > heel_target.y) heel_target = lifted_tip(toe_target, heel_target, heel_y);

  // 3. Two-bone IK with the soft reach limit: the heel goes at most `reach` from the hip, the
  //    foot first pitching (when allowed) so that its heel target comes within it.
  const double reach =
      soft_reach_m(length(heel_target - p.hip.translation), max_extension_m, settings.softness_m);
  if (has_toe && hints.foot_pitch > 0)
    heel_target = pitched_heel_target(toe_target, heel_target, p.hip.translation, reach,
                                      settings.max_foot_pitch_deg * k_pi / 180, std::min(hints.foot_pitch, 1.0));
  const Vec3 to_target = heel_target - p.hip.translation;
  const double l = length(to_target);
  if (l > 0) heel_target = p.hip.translation + to_target * (std::min(l, reach) / l);
  for (int pass = 0; pass < k_two_bone_passes; ++pass) {
    if (length(p.heel.translation - heel_target) <= k_two_bone_done_m) break;
    if (!two_bone_pass(clip, frame, leg, p, heel_target)) break;
    p = leg_pose(clip, frame, leg, hip_parent_ws);
  }

  // 4. Heel look-at: the toe points at its target.
  if (has_toe) {
    Transform toe_ws = world_below(clip, frame, leg.toe, leg.heel, p.heel);
    look_at(clip, frame, leg.heel, p.heel_parent, p.heel, toe_ws.translation, toe_target);
    p.heel = p.heel_parent * local_of(clip, frame, leg.heel);
  }
  const int cj = leg.contact_joint();
  const Transform contact_parent_ws =
      has_toe ? world_below(clip, frame, parents[cj], leg.heel, p.heel) : p.heel_parent;
  const Transform contact_ws = contact_parent_ws * local_of(clip, frame, cj);
  contact = contact_ws.translation;

  // 5. Toe-end: the contact joint bends so the foot tip stays above its lowest height. The tip
  //    from the contact joint's transform just found (foot_tip_world's point, not walked again
  //    from the root), unless it is a joint elsewhere.
  Vec3 tip;
  if (leg.toe_end < 0) {  // the contact joint's end site, or the joint itself
    const JointPoint tip_point = foot_tip_point(clip, leg);
    tip = tip_point.site ? apply(contact_ws, *tip_point.site) : contact;
  } else if (parents[leg.toe_end] == cj) {  // a toe end joint right below it
    tip = (contact_ws * local_of(clip, frame, leg.toe_end)).translation;
  } else {
    tip = foot_tip_world(clip, frame, leg);
  }
  const double tip_y = smooth_floor(tip.y, heights.toe_end_min_m, k_floor_blend_m);
  if (tip_y > tip.y && length(tip - contact) > k_min_bone_m) {
    look_at(clip, frame, cj, contact_parent_ws, contact_ws, tip, lifted_tip(contact, tip, tip_y));
  }

  LegIkResult result;
  result.miss_m = length(contact - toe_target);
  result.reached = result.miss_m <= k_leg_ik_reach_tolerance_m;
  return result;
}

}  // namespace footfix
