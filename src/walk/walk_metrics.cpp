#include "footfix/walk/walk_metrics.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "footfix/contacts/contact_eval.h"
#include "footfix/core/fk.h"
#include "footfix/walk/walk_body.h"

namespace footfix {
namespace {

/// World heel, ball and tip sole points of a foot whose ankle and toe joints have the world
/// transforms `ankle` and `toe` (rest world rotations are identity, see walk_body.h).
std::array<Vec3, 3> sole_points(const FootGeometry& foot, const Transform& ankle, const Transform& toe, Quat canon) {
  const Quat foot_rot = ankle.rotation * inverse(canon), toe_rot = toe.rotation * inverse(canon);
  return {ankle.translation + rotate(foot_rot, foot.heel_sole), toe.translation + rotate(toe_rot, foot.ball_sole - foot.toe),
          toe.translation + rotate(toe_rot, foot.tip_sole - foot.toe)};
}

/// Deepens `deepest` with frame `f`'s heel, ball and tip sole points of both feet, the frame's
/// world transforms being `world`.
void deepen_sole_sink(SoleSink& deepest, const WalkBody& body, Quat canon, const Rig& rig, const Terrain& terrain,
                      const std::vector<Transform>& world, int f) {
  for (int side = 0; side < 2; ++side) {
    const LegChain& leg = rig.legs[side];
    for (const Vec3& p : sole_points(body.feet[side], world[leg.heel], world[leg.toe], canon)) {
      const double depth_mm = 1000 * (terrain.height(p.x, p.z) - p.y);
      if (depth_mm > deepest.depth_mm) deepest = {depth_mm, f, static_cast<Side>(side), p};
    }
  }
}

}  // namespace

SoleSink deepest_sole_sink(const Clip& clip, const Rig& rig, const Terrain& terrain, const LegLimits& limits) {
  const WalkBody body = make_walk_body(clip.skeleton, rig, limits);
  const Quat canon = body.to_canonical();
  std::vector<Transform> world(clip.joint_count());
  SoleSink deepest;
  for (int f = 0; f < clip.frame_count; ++f) {
    world_pose(clip, f, world);
    deepen_sole_sink(deepest, body, canon, rig, terrain, world, f);
  }
  return deepest;
}

WalkMeasures measure_walk(const Clip& clip, const Rig& rig, const Terrain& terrain, const ContactResult& truth,
                          const LegLimits& limits, double tolerance_rad) {
  const WalkBody body = make_walk_body(clip.skeleton, rig, limits);
  WalkMeasures m;
  std::vector<Transform> world(clip.joint_count());
  std::array<Vec3, 2> prev_toe{};
  const Quat canon = body.to_canonical();
  SoleSink sink;
  for (int f = 0; f < clip.frame_count; ++f) {
    world_pose(clip, f, world);
    deepen_sole_sink(sink, body, canon, rig, terrain, world, f);
    const Vec3 left = rotate(world[rig.pelvis].rotation, body.left_ws);
    for (int side = 0; side < 2; ++side) {
      const LegChain& leg = rig.legs[side];
      const Vec3 toe = world[leg.toe].translation;
      const std::vector<std::uint8_t>& c = truth.feet[side].contact;
      if (f > 0 && c[f] && c[f - 1]) m.max_stance_slide_mm = std::max(m.max_stance_slide_mm, 1000 * length(toe - prev_toe[side]));
      prev_toe[side] = toe;
      const Vec3 tip = foot_tip_world(clip, f, leg);
      for (const Vec3& p : {world[leg.heel].translation, toe, tip})
        m.max_penetration_mm = std::max(m.max_penetration_mm, 1000 * (terrain.height(p.x, p.z) - p.y));
      for (int j = 0; j < k_leg_joint_count; ++j)
        if (!within_limit(clip.rotation(f, body.joints[side][j]), body.limits[side][j], body.limit_frames[side][j], tolerance_rad))
          ++m.limit_violations;
      const Vec3 hip = world[leg.hip].translation, knee = world[leg.knee].translation, ankle = world[leg.heel].translation;
      const Vec3 normal = cross(knee - hip, ankle - knee);
      const double bend = std::asin(std::min(1.0, length(normal) / (length(knee - hip) * length(ankle - knee))));
      if (bend > 3 * k_deg_to_rad && dot(normal, left) < 0) ++m.knee_flips;
    }
  }
  m.max_sole_penetration_mm = sink.depth_mm;
  m.contact_alternation_breaks = alternation_breaks(truth);
  return m;
}

}  // namespace footfix
