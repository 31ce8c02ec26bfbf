// Internal to lock/: the cubic inertialization formulas behind FootLock (footfix/lock/
// inertialization.h), declared here for FootLock and its unit test (not installed).
#pragma once

#include "footfix/core/math.h"
#include "footfix/lock/inertialization.h"

namespace footfix {

/// Cubic inertialization weights at normalised time t = clamp(time / T, 0, 1), blend time T:
/// the offset's position term w0 (1 at t = 0, 0 at t = 1), its velocity term w1 (seconds), and
/// their time derivatives w2 (1/s) and w3 (unitless). Position = source + w0 p + w1 v,
/// velocity = source velocity + w2 p + w3 v.
struct CubicWeights {
  double w0 = 0, w1 = 0, w2 = 0, w3 = 0;
};
CubicWeights cubic_weights(double time_s, double blend_time_s);


/// The offset after a transition from (from_pos, from_vel) to (to_pos, to_vel) when the old
/// offset `old` is `time_s` into its blend: both new components are computed from the OLD offset
/// (computing the position first and then reading it back for the velocity breaks velocity
/// continuity when a transition happens mid-blend).
Offset transition_offset(const Offset& old, double time_s, double blend_time_s, Vec3 from_pos,
                         Vec3 from_vel, Vec3 to_pos, Vec3 to_vel);


}  // namespace footfix
