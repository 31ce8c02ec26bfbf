#include "footfix/rig/leg_tracks.h"

#include <algorithm>

#include "footfix/core/fk.h"

namespace footfix {
namespace {

/// The positions of one point in every frame of `clip`, into `out`.
void point_positions(const Clip& clip, const JointPoint& point, std::vector<Vec3>& out) {
  out.resize(static_cast<size_t>(clip.frame_count));
  Vec3* const at = out.data();
  point_trajectories(clip, std::span<const JointPoint>(&point, 1), 0, clip.frame_count, std::span<Vec3* const>(&at, 1));
}

}  // namespace

int tracked_pelvis_joint(const Rig& rig) { return rig.pelvis >= 0 ? rig.pelvis : std::max(rig.translation_joint, 0); }

bool LegTracks::match(const Clip& clip, int translation_joint, const std::array<LegChain, 2>& legs) const {
  auto same = [](const LegChain& a, const LegChain& b) {
    return a.hip == b.hip && a.knee == b.knee && a.heel == b.heel && a.toe == b.toe && a.toe_end == b.toe_end;
  };
  return translation_joint >= 0 && pelvis.size() == static_cast<size_t>(clip.frame_count) && root_joint == translation_joint && same(chains[0], legs[0]) && same(chains[1], legs[1]);
}

bool LegTracks::match(const Clip& clip, const Rig& rig) const {
  return pelvis_joint == tracked_pelvis_joint(rig) && match(clip, rig.translation_joint, rig.legs);
}

const std::vector<Vec3>& positions_of(const Clip& clip, int joint, const std::vector<Vec3>* tracked,
                                      std::vector<Vec3>& own) {
  if (tracked) return *tracked;
  point_positions(clip, {joint, std::nullopt}, own);
  return own;
}

const std::vector<Vec3>& tip_positions_of(const Clip& clip, const LegChain& leg, const std::vector<Vec3>* tracked,
                                          std::vector<Vec3>& own) {
  if (tracked) return *tracked;
  point_positions(clip, foot_tip_point(clip, leg), own);
  return own;
}

LegTracks leg_tracks(const Clip& clip, const Rig& rig) {
  LegTracks t;
  t.pelvis_joint = tracked_pelvis_joint(rig);
  t.root_joint = rig.translation_joint;
  t.chains = rig.legs;
  // Every point in one pass (each joint of the chains composed once a frame).
  std::vector<JointPoint> points;
  std::vector<std::vector<Vec3>*> tracks;
  auto add = [&](JointPoint p, std::vector<Vec3>& track) {
    points.push_back(p);
    tracks.push_back(&track);
  };
  add({t.pelvis_joint, std::nullopt}, t.pelvis);
  if (rig.translation_joint >= 0 && rig.translation_joint != t.pelvis_joint) add({rig.translation_joint, std::nullopt}, t.root);
  for (int s = 0; s < 2; ++s) {
    const LegChain& leg = rig.legs[s];
    LegTrack& out = t.legs[s];
    add({leg.hip, std::nullopt}, out.hip);
    add({leg.knee, std::nullopt}, out.knee);
    add({leg.heel, std::nullopt}, out.heel);
    if (leg.toe >= 0) add({leg.toe, std::nullopt}, out.toe);
    add(foot_tip_point(clip, leg), out.tip);
  }
  std::vector<Vec3*> out;
  for (auto* track : tracks) {
    track->resize(static_cast<size_t>(clip.frame_count));
    out.push_back(track->data());
  }
  point_trajectories(clip, points, 0, clip.frame_count, out);
  return t;
}

}  // namespace footfix
