// The heights a leg solve keeps the foot above: the lowest its contact joint, heel and foot tip
// may go (world Y, meters), and their calibration from a clip.
#pragma once

#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

/// World-space Y minima (meters) of the leg's joints over the source clip: the lowest each ever
/// goes, i.e. its height when standing on the ground. Targets are clamped to stay above them.
struct LegHeights {
  double toe_min_m = -1e30;      ///< contact joint (toe, or heel on a rig without toes)
  double heel_min_m = -1e30;     ///< heel (ankle / foot) joint
  double toe_end_min_m = -1e30;  ///< foot tip (toe_end joint or end site, see foot_tip_world)
};

/// World-space Y minima (meters) over all frames of the leg's contact joint, heel and foot tip
/// (foot_tip_world): the clamps the leg solve needs, taken from `clip` (internal frame, Y up).
LegHeights leg_heights(const Clip& clip, const LegChain& leg);

}  // namespace footfix
