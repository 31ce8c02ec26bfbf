// Issue 30's targets for the clean of input made like capture (video, depth cameras, inertial
// suits, generators): the rows of bench/bench_capture and the tests that hold them. Header-only.
#pragma once

namespace footfix::test {

/// Residual slide at most this share of the scaled input's.
constexpr double k_capture_max_residual = 0.15;
/// On jittered input, planted toes' p95 speed (cm/s) under the clean's own contacts below this.
constexpr double k_capture_still_p95_cm_s = 1.0;
/// New ground penetration (mm) at most this.
constexpr double k_capture_max_new_penetration_mm = 5.0;
/// Pop ratio (ClipMetrics::pop_ratio) below this.
constexpr double k_capture_max_pop = 1.5;
/// Pelvis drop (cm) against the noise-free clip at most this.
constexpr double k_capture_max_pelvis_drop_cm = 2.0;

}  // namespace footfix::test
