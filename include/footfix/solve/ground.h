// The ground a clip stands on. Generated and converted clips float or sink (the ground at
// +70 cm, the feet at -87 cm); clean can move the whole clip so its planted feet stand on the
// ground at height 0. Internal frame (meters, Y up).
#pragma once

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

enum class GroundMode {
  keep,         ///< the clip stays at its height (default)
  auto_detect,  ///< the ground is estimated from the planted feet and moved to 0
  height,       ///< the ground is at GroundSettings::height_m and moved to 0
};

struct GroundSettings {
  GroundMode mode = GroundMode::keep;
  double height_m = 0;  ///< GroundMode::height: the input's ground height (m, internal Y)
  /// Throws Error(usage) on a height that is not finite or beyond 1 km.
  void validate() const;
};

/// The height (m) of the ground the planted feet stand on: per contact, the median over its
/// frames of the foot's lowest point (heel, contact joint or foot tip: the sole touches the
/// ground there), then the median over all contacts of both feet. Without any contact, the 5th
/// percentile of the foot's lowest point over every frame.
double estimate_ground_height(const Clip& clip, const Rig& rig, const ContactResult& contacts);

}  // namespace footfix
