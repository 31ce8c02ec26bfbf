// Internal to lock/: the inertialization formulas behind FootLock (footfix/lock/
// inertialization.h), declared here for FootLock and its unit test (not installed).
#pragma once

#include "footfix/core/math.h"
#include "footfix/lock/inertialization.h"

namespace footfix {

/// An offset's weights at normalised time t = clamp(time / T, 0, 1), blend time T: its position
/// term w0 (1 at t = 0, 0 at t = 1), its velocity term w1 (seconds), and their time derivatives
/// w2 (1/s) and w3 (unitless). Position = source + w0 p + w1 v, velocity = source velocity +
/// w2 p + w3 v.
struct OffsetWeights {
  double w0 = 0, w1 = 0, w2 = 0, w3 = 0;
};

/// Cubic: position and velocity continuous at both ends; the acceleration steps at both ends
/// (-(6 p / T^2 + 4 v / T) at the start, 6 p / T^2 + 2 v / T at the end).
OffsetWeights cubic_weights(double time_s, double blend_time_s);
/// Quintic: position and velocity continuous, and the offset's acceleration zero at both ends
/// (no step at either end); its largest acceleration is at most
/// k_quintic_peak_position x |p| / T^2 + k_quintic_peak_velocity x |v| / T, inside the blend.
OffsetWeights quintic_weights(double time_s, double blend_time_s);
inline constexpr double k_quintic_peak_position = 5.7736;  // 10 / sqrt(3), at t = 0.21 and 0.79
inline constexpr double k_quintic_peak_velocity = 3.9403;  // at t = 0.24
OffsetWeights offset_weights(BlendShape shape, double time_s, double blend_time_s);

/// The offset after a transition from (from_pos, from_vel) to (to_pos, to_vel) when the old
/// offset `old` (blended with `old_shape`) is `time_s` into its blend: both new components are
/// computed from the OLD offset (computing the position first and then reading it back for the
/// velocity breaks velocity continuity when a transition happens mid-blend).
Offset transition_offset(const Offset& old, BlendShape old_shape, double time_s, double blend_time_s, Vec3 from_pos,
                         Vec3 from_vel, Vec3 to_pos, Vec3 to_vel);

}  // namespace footfix
