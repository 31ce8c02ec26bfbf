// Smooth profiles the walk's trajectories are built from (private to the walk module).
#pragma once

#include <algorithm>

namespace footfix {

/// Minimum-jerk progress (quintic): 0 to 1 over u in [0, 1] with zero velocity and acceleration
/// at both ends, so phases joined with it keep velocity and acceleration continuous.
inline double min_jerk(double u) {
  u = std::clamp(u, 0.0, 1.0);
  return u * u * u * (10 + u * (-15 + 6 * u));
}

}  // namespace footfix
