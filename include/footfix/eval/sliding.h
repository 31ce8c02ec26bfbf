// The standard way to make a clip slide on purpose: scale the root
// motion's horizontal translation about the first frame, so the body runs ahead of (x1.25) or
// behind (x0.75) its legs.
#pragma once

#include <array>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"
#include "footfix/eval/metrics.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

/// Copy of `clip` (internal frame) whose translation joint's horizontal (world X, Z) position is
/// scaled by `factor` about its position at frame 0; its height and every other joint's local
/// transform are kept. A translation joint under a parent (an armature node rotated to Y up) is
/// moved in world space and its local translation re-expressed in the parent's frame.
Clip make_sliding(const Clip& clip, const Rig& rig, double factor);

/// The slide protocol's factors: the root runs ahead of its legs, then behind them. Each
/// variant is measured under the contacts of the unscaled clip (contact_mask below).
inline constexpr std::array<double, 2> k_slide_protocol_factors{1.25, 0.75};

/// The binary contacts of both feet, as the metrics take them.
ContactMask contact_mask(const ContactResult& contacts);

/// Copy of `clip` made in place: the translation joint's horizontal local translation minus
/// the average horizontal velocity of its first-to-last travel, times the frame's time. A
/// root-motion walk becomes an in-place (treadmill) walk whose ground moves at minus that
/// average velocity; returned in `ground_velocity_mps` (local = world for a root without a
/// rotated parent, as on every shared clip).
Clip make_in_place(const Clip& clip, const Rig& rig, Vec3* ground_velocity_mps = nullptr);

}  // namespace footfix
