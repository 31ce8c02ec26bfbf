// The ground a clip stands on. Generated and converted clips float or sink (the ground at
// +70 cm, the feet at -87 cm); clean can move the whole clip so its planted feet stand on the
// ground at height 0. Internal frame (meters, Y up).
#pragma once

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/solve/ground_settings.h"

namespace footfix {

/// The height (m) of the ground the planted feet stand on: per contact, the median over its
/// frames of the foot's lowest point (heel, contact joint or foot tip: the sole touches the
/// ground there), then the median over all contacts of both feet. Without any contact, the 5th
/// percentile of the foot's lowest point over every frame.
double estimate_ground_height(const Clip& clip, const Rig& rig, const ContactResult& contacts);

}  // namespace footfix
