// Settings of the clean's in-place (treadmill) handling; solve/treadmill.h has the method.
#pragma once

#include <optional>

#include "footfix/core/math.h"

namespace footfix {

enum class TreadmillMode {
  auto_detect,  ///< lock on a treadmill when the clip is detected as in place (default)
  on,           ///< always (g estimated unless given)
  off,          ///< never: planted feet are locked in world space
};

struct TreadmillSettings {
  TreadmillMode mode = TreadmillMode::auto_detect;
  /// Ground velocity to use instead of the estimate (m/s, internal frame; Y is ignored).
  /// Given, it forces the treadmill on.
  std::optional<Vec3> ground_velocity_mps;
  /// Throws Error(usage) on a non-finite velocity.
  void validate() const;
};

}  // namespace footfix
