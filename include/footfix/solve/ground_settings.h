// Settings of the clean's ground move (floating or sinking clips); solve/ground.h estimates the
// ground. Internal frame (meters, Y up).
#pragma once

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

}  // namespace footfix
