#include "footfix/walk/walk_body.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "footfix/core/error.h"

namespace footfix {
namespace {

std::vector<Vec3> rest_positions(const Skeleton& s) {
  std::vector<Vec3> p(s.joint_count());
  for (int j = 0; j < s.joint_count(); ++j)
    p[j] = s.parents[j] < 0 ? s.rest_offsets[j] : p[s.parents[j]] + s.rest_offsets[j];
  return p;
}

/// The toe tip at rest: the toe_end joint, else the toe's end site (if not on the toe joint), else
/// a bit ahead of the toe.
Vec3 rest_tip(const Skeleton& s, const std::vector<Vec3>& p, const LegChain& leg) {
  if (leg.toe_end >= 0) return p[leg.toe_end];
  if (s.end_sites[leg.toe] && length(*s.end_sites[leg.toe]) > 0.01) return p[leg.toe] + *s.end_sites[leg.toe];
  const Vec3 d = p[leg.toe] - p[leg.heel];
  return p[leg.toe] + normalize(Vec3{d.x, 0, d.z}) * 0.05;
}

}  // namespace

WalkBody make_walk_body(const Skeleton& s, const Rig& rig, const LegLimits& limits) {
  WalkBody body;
  const std::vector<Vec3> p = rest_positions(s);
  Vec3 forward{};
  for (const LegChain& leg : rig.legs) {
    if (!leg.valid() || leg.toe < 0)
      fail(ErrorKind::process, "walk: each leg needs hip, knee, ankle and toe joints");
    if (s.parents[leg.knee] != leg.hip || s.parents[leg.heel] != leg.knee || s.parents[leg.toe] != leg.heel)
      fail(ErrorKind::process, "walk: leg joints '" + s.names[leg.hip] + "' ... '" + s.names[leg.toe] +
                                   "' are not a parent chain hip - knee - ankle - toe");
    const Vec3 down = normalize(p[leg.heel] - p[leg.hip]);
    if (down.y > -0.8)
      fail(ErrorKind::process, "walk: the skeleton's rest pose does not stand (leg '" + s.names[leg.hip] +
                                   "' does not hang down); walk needs a skeleton whose rest pose stands upright");
    const Vec3 d = rest_tip(s, p, leg) - p[leg.heel];
    forward += normalize(Vec3{d.x, 0, d.z});
  }
  if (length(forward) < 1e-6)
    fail(ErrorKind::process, "walk: the skeleton's rest pose does not stand (its feet point in opposite directions)");
  forward = normalize(forward);
  body.rest_yaw_rad = std::atan2(forward.x, forward.z);
  body.left_ws = {forward.z, 0, -forward.x};
  // Sole level: the toe joints stand this far above it.
  constexpr double k_toe_above_sole_m = 0.025;
  double sole = 1e30;
  for (const LegChain& leg : rig.legs) sole = std::min({sole, p[leg.toe].y, rest_tip(s, p, leg).y});
  sole -= k_toe_above_sole_m;
  body.pelvis_height_m = p[rig.pelvis].y - sole;
  const Quat canon = body.to_canonical();
  for (int side = 0; side < 2; ++side) {
    const LegChain& leg = rig.legs[side];
    const Vec3 ankle = p[leg.heel];
    FootGeometry& f = body.feet[side];
    f.toe = rotate(canon, p[leg.toe] - ankle);
    f.tip = rotate(canon, rest_tip(s, p, leg) - ankle);
    const double sole_y = sole - ankle.y;
    f.ball_sole = {f.toe.x, sole_y, f.toe.z};
    f.tip_sole = {f.tip.x, sole_y, f.tip.z};
    f.heel_sole = {0, sole_y, -0.25 * std::max(0.05, f.tip.z)};
    body.joints[side] = {leg.hip, leg.knee, leg.heel, leg.toe};
    body.leg_length_m[side] = length(s.rest_offsets[leg.knee]) + length(s.rest_offsets[leg.heel]);
    // Rest world rotations are identity (rest local rotations are), so local axes = world axes.
    const Vec3 tip_offset = rest_tip(s, p, leg) - p[leg.toe];
    const Vec3 bones[k_leg_joint_count] = {s.rest_offsets[leg.knee], s.rest_offsets[leg.heel], s.rest_offsets[leg.toe],
                                           tip_offset};
    for (int j = 0; j < k_leg_joint_count; ++j) {
      body.limit_frames[side][j] = LimitFrame::from(bones[j], body.left_ws);
      const JointLimit& l = limits.joints[j];
      body.limits[side][j] = side == 0 ? l : l.mirrored();
    }
    DlsLeg& dls = body.dls[side];
    dls.offsets = {s.rest_offsets[leg.hip], s.rest_offsets[leg.knee], s.rest_offsets[leg.heel]};
    for (int j = 0; j < 3; ++j) {
      dls.frames[j] = body.limit_frames[side][j];
      dls.limits[j] = body.limits[side][j];
    }
    dls.toe_ls = s.rest_offsets[leg.toe];
    dls.side_ls = body.left_ws * 0.1;
    body.ankle_rest_ws[side] = Quat{};
    body.toe_rest_ws[side] = Quat{};
  }
  return body;
}

}  // namespace footfix
