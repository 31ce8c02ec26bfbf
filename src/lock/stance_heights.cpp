#include "footfix/lock/stance_heights.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "footfix/ik/leg_heights.h"

namespace footfix {

namespace {

/// Frames [first, first + count) of `clip` as a clip of their own.
Clip frames_of(const Clip& clip, int first, int count) {
  Clip part;
  part.skeleton = clip.skeleton;
  part.fps = clip.fps;
  part.resize(count);
  const auto begin = static_cast<long>(clip.index(first, 0)), end = static_cast<long>(clip.index(first + count, 0));
  std::copy(clip.rotations.begin() + begin, clip.rotations.begin() + end, part.rotations.begin());
  std::copy(clip.translations.begin() + begin, clip.translations.begin() + end, part.translations.begin());
  return part;
}

}  // namespace

std::array<LegHeights, 2> stance_leg_heights(const Clip& clip, const Rig& rig, int frame) {
  if (frame < 0 || frame >= clip.frame_count)
    fail(ErrorKind::process, clip.source_name + ": stance heights: frame " + std::to_string(frame) + " of " +
                                 std::to_string(clip.frame_count));
  const Clip pose = frames_of(clip, frame, 1);
  const LegHeights a = leg_heights(pose, rig.legs[0]), b = leg_heights(pose, rig.legs[1]);
  const LegHeights lower{std::min(a.toe_min_m, b.toe_min_m), std::min(a.heel_min_m, b.heel_min_m),
                         std::min(a.toe_end_min_m, b.toe_end_min_m)};
  return {lower, lower};
}

std::array<LegHeights, 2> opening_leg_heights(const Clip& clip, const Rig& rig, double seconds, GroundQuery ground) {
  if (clip.frame_count < 1) fail(ErrorKind::process, clip.source_name + ": opening heights: clip has no frames");
  const int count = std::clamp(static_cast<int>(std::ceil(seconds * clip.fps)), 1, clip.frame_count);
  if (!ground) {
    const Clip opening = frames_of(clip, 0, count);
    return {leg_heights(opening, rig.legs[0]), leg_heights(opening, rig.legs[1])};
  }
  auto above = [&](Vec3 p) { return p.y - ground.at(p.x, p.z).height_m; };
  std::array<LegHeights, 2> h;
  for (int s = 0; s < 2; ++s) {
    const LegChain& leg = rig.legs[s];
    h[s] = {1e300, 1e300, 1e300};
    for (int f = 0; f < count; ++f) {
      h[s].toe_min_m = std::min(h[s].toe_min_m, above(joint_world(clip, f, leg.contact_joint()).translation));
      h[s].heel_min_m = std::min(h[s].heel_min_m, above(joint_world(clip, f, leg.heel).translation));
      h[s].toe_end_min_m = std::min(h[s].toe_end_min_m, above(foot_tip_world(clip, f, leg)));
    }
  }
  return h;
}

}  // namespace footfix
