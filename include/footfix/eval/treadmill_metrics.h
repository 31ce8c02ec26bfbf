// Measures for in-place (treadmill) clips: how well planted feet move together at one ground
// velocity, and how far the root strays from where the source had it. Internal frame (meters,
// Y up); horizontal means X and Z.
#pragma once

#include "footfix/core/clip.h"
#include "footfix/eval/metrics.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

struct TreadmillSlide {
  int samples = 0;  ///< frame pairs (f-1, f) both in contact, both legs
  /// The single horizontal ground velocity that fits the planted feet best (least squares: the
  /// mean of their horizontal velocities), m/s.
  Vec3 ground_velocity_mps;
  /// Mean horizontal motion of planted contact joints relative to that ground, mm per frame.
  double mean_mm_per_frame = 0;
};

/// Slide of planted feet relative to the best single ground velocity (zero ground: the plain
/// contact slide, up to the mean's own motion).
TreadmillSlide treadmill_slide(const Clip& clip, const Rig& rig, const ContactMask& contact);

struct RootStray {
  double mean_horizontal_deviation_m = 0;  ///< mean over frames of |cleaned - source| (X, Z)
  double end_to_end_drift_m = 0;  ///< |(last - first) of cleaned - (last - first) of source| (X, Z)
  /// |last - first| (X, Z) of the cleaned root minus the same of the source: how much a loop's
  /// closure changed (positive: opened).
  double loop_gap_change_m = 0;
};

/// How far the translation joint of `cleaned` strays from that of `source` (same skeleton).
RootStray root_stray(const Clip& source, const Clip& cleaned, const Rig& rig);

}  // namespace footfix
