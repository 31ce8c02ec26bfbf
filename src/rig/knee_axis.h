// Deriving a leg's knee bend axis (LegChain::knee_side_ls) from the clip itself.
#pragma once

#include <functional>

#include "footfix/rig/leg_rig.h"

namespace footfix::rig_detail {

struct KneeAxis {
  Vec3 knee_side_ls;
  bool from_bend = false;  ///< false: the knee was never clearly bent; the fallback was used
};

/// The normal of the hip-knee-ankle plane, n = (knee - hip) x (ankle - hip), expressed in the
/// knee's local frame and averaged over frames where the knee is bent by more than 10 degrees
/// (weighted by the bend). Rotating the knee positively about it bends the leg further.
/// Without bent frames, `fallback_side_ws()` (the body's left, which is that normal for a knee
/// bending forward; called only then) is used, expressed in the knee frame of the first frame.
KneeAxis derive_knee_side(const Clip& clip, const LegChain& leg, const std::function<Vec3()>& fallback_side_ws);

}  // namespace footfix::rig_detail
