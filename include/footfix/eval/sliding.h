// The standard way to make a clip slide on purpose (ALGORITHMS.md section 5): scale the root
// motion's horizontal translation about the first frame, so the body runs ahead of (x1.25) or
// behind (x0.75) its legs.
#pragma once

#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

/// Copy of `clip` (internal frame) whose translation joint's horizontal (X, Z) local
/// translation is scaled by `factor` about its value at frame 0.
Clip make_sliding(const Clip& clip, const Rig& rig, double factor);

/// Copy of `clip` made in place: the translation joint's horizontal local translation minus
/// the average horizontal velocity of its first-to-last travel, times the frame's time. A
/// root-motion walk becomes an in-place (treadmill) walk whose ground moves at minus that
/// average velocity; returned in `ground_velocity_mps` (local = world for a root without a
/// rotated parent, as on every shared clip).
Clip make_in_place(const Clip& clip, const Rig& rig, Vec3* ground_velocity_mps = nullptr);

}  // namespace footfix
