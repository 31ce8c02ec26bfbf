// Tracking glitches in the legs: video and depth capture lose a joint for a frame or two when it
// is occluded, and it turns far away and straight back (a heel 40 degrees off for one frame). A
// planted foot that jumps so is sliding, and the clean's IK reproduces it. Such glitches are
// found on the legs' local rotations and interpolated across: by clean before it solves, and by
// annotate before it detects contacts (whose speeds a glitch would break).
#pragma once

#include <string>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

/// One glitch: frames [first, last] (one or two) of `joint` (a clip joint index), to be bridged
/// from the frames around.
struct LegGlitch {
  int joint = -1;
  int first = 0, last = 0;
};

/// The glitches of `rig`'s leg joints (hip, knee, heel, toe) in `clip`. A joint's rotation at
/// frames [f, f + k) (k = 1 or 2) is a glitch when it turns by more than 25 degrees from the
/// frame before and back to within half of that by the frame after, and the steps around
/// it (into the frame before, out of the frame after, and between two glitched frames) are each
/// under a third of its turn: a peak of real motion (a knee at the top of its swing) slows into
/// it and out of it, a glitch does not. None on clean capture; a joint that moves fast all along
/// (a swing) may hide a glitch, one that holds still (a planted foot) does not.
std::vector<LegGlitch> find_leg_glitches(const Clip& clip, const Rig& rig);

/// Each glitch's rotations replaced by the spherical interpolation between the frames around it.
void bridge_leg_glitches(Clip& clip, const std::vector<LegGlitch>& glitches);

/// The warning that says what was bridged ("" when nothing was).
std::string describe_leg_glitches(const std::vector<LegGlitch>& glitches, const Clip& clip);

/// Every glitch of `clip` found and bridged, as clean and annotate do before they detect
/// contacts; returns the warning that says so ("" when there was none).
std::string bridge_leg_glitches(Clip& clip, const Rig& rig);

}  // namespace footfix
