// The standard way to make a clip slide on purpose: scale the root
// motion's horizontal translation about the first frame, so the body runs ahead of (x1.25) or
// behind (x0.75) its legs.
#pragma once

#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

/// Copy of `clip` (internal frame) whose translation joint's horizontal (X, Z) local
/// translation is scaled by `factor` about its value at frame 0.
Clip make_sliding(const Clip& clip, const Rig& rig, double factor);

}  // namespace footfix
