#include "footfix/rig/leg_tracks.h"

#include <algorithm>

#include "footfix/core/fk.h"

namespace footfix {

int tracked_pelvis_joint(const Rig& rig) { return rig.pelvis >= 0 ? rig.pelvis : std::max(rig.translation_joint, 0); }

bool LegTracks::match(const Clip& clip, int translation_joint, const std::array<LegChain, 2>& legs) const {
  auto same = [](const LegChain& a, const LegChain& b) {
    return a.hip == b.hip && a.knee == b.knee && a.heel == b.heel && a.toe == b.toe && a.toe_end == b.toe_end;
  };
  return translation_joint >= 0 && frame_count == clip.frame_count && pelvis.size() == static_cast<size_t>(clip.frame_count) &&
         root_joint == translation_joint && same(chains[0], legs[0]) && same(chains[1], legs[1]);
}

bool LegTracks::match(const Clip& clip, const Rig& rig) const {
  return pelvis_joint == tracked_pelvis_joint(rig) && match(clip, rig.translation_joint, rig.legs);
}

const std::vector<Vec3>& positions_of(const Clip& clip, int joint, const std::vector<Vec3>* tracked,
                                      std::vector<Vec3>& own) {
  if (tracked) return *tracked;
  own.resize(static_cast<size_t>(clip.frame_count));
  joint_trajectory(clip, joint, own);
  return own;
}

const std::vector<Vec3>& tip_positions_of(const Clip& clip, const LegChain& leg, const std::vector<Vec3>* tracked,
                                          std::vector<Vec3>& own) {
  if (tracked) return *tracked;
  own.resize(static_cast<size_t>(clip.frame_count));
  foot_tip_trajectory(clip, leg, 0, own);
  return own;
}

LegTracks leg_tracks(const Clip& clip, const Rig& rig) {
  auto track = [&](int joint) {
    std::vector<Vec3> out;
    positions_of(clip, joint, nullptr, out);
    return out;
  };
  LegTracks t;
  t.frame_count = clip.frame_count;
  t.pelvis_joint = tracked_pelvis_joint(rig);
  t.root_joint = rig.translation_joint;
  t.chains = rig.legs;
  t.pelvis = track(t.pelvis_joint);
  if (rig.translation_joint >= 0 && rig.translation_joint != t.pelvis_joint) t.root = track(rig.translation_joint);
  for (int s = 0; s < 2; ++s) {
    const LegChain& leg = rig.legs[s];
    LegTrack& out = t.legs[s];
    out.hip = track(leg.hip);
    out.knee = track(leg.knee);
    out.heel = track(leg.heel);
    if (leg.toe >= 0) out.toe = track(leg.toe);
    tip_positions_of(clip, leg, nullptr, out.tip);
  }
  return t;
}

}  // namespace footfix
