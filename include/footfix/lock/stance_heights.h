// The runtime lock's leg height calibration from what a game has when the character spawns (its
// rest or idle pose standing on the ground, or the first second of its animation), instead of
// the lowest heights over a whole clip, which a runtime never has.
#pragma once

#include <array>

#include "footfix/core/clip.h"
#include "footfix/lock/ground_query.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/ik/leg_ik.h"

namespace footfix {

/// The heights (m, internal frame, Y up) of each leg's contact joint, heel and foot tip in frame
/// `frame` of `clip`, the lower foot's for both legs (a pose with at least one foot planted,
/// e.g. a walk's first frame, calibrates both). Throws Error(process) for a frame out of range.
std::array<LegHeights, 2> stance_leg_heights(const Clip& clip, const Rig& rig, int frame = 0);

/// Each leg's lowest heights over the first `seconds` (> 0) of `clip` (the whole clip when
/// shorter): a calibration from the opening of an animation, as an engine would sample its idle
/// or first cycle once, instead of the whole clip. With `ground`, each joint's height above the
/// queried ground under it (the heights RuntimeLock takes with a ground query). Throws
/// Error(process) for a clip without frames.
std::array<LegHeights, 2> opening_leg_heights(const Clip& clip, const Rig& rig, double seconds, GroundQuery ground = {});

}  // namespace footfix
