// The ground under the character, as an engine gives it (a raycast down at a point): its height
// and normal at a horizontal position. The runtime lock asks it a few times per update (contact
// heights, the leg clamps, where a toe locks), so it must be cheap, must not allocate for the
// lock's sake, and must answer the same for the same point within an update. Units: meters,
// world space, Y up.
#pragma once

#include "footfix/core/math.h"

namespace footfix {

struct GroundHit {
  double height_m = 0;   ///< the ground's height (Y) under the point
  Vec3 normal{0, 1, 0};  ///< the ground's unit normal there (pointing up)
};

/// A plain function and its context (no std::function: nothing to allocate). Empty: no ground
/// query (the lock judges the ground from the feet's own past heights).
struct GroundQuery {
  using Function = GroundHit (*)(const void* context, double x_m, double z_m);
  Function function = nullptr;
  const void* context = nullptr;

  explicit operator bool() const { return function != nullptr; }
  GroundHit at(double x_m, double z_m) const { return function ? function(context, x_m, z_m) : GroundHit{}; }
};

}  // namespace footfix
