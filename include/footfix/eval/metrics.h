// Quality metrics of a cleaned clip against its source: contact sliding, new ground
// penetration, deviation, pops (accelerations) and whether non-leg joints were left alone.
// All positions in the internal frame (meters, Y up); reported values in the units named.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/rig/pop_measure.h"  // k_pop_window_s, k_pop_floor_mps2

namespace footfix {

/// Largest local change (radians, meters) still counted as "unchanged".
constexpr double k_unchanged_tolerance = 1e-6;

/// Per leg, per frame: 1 where the foot is in contact.
using ContactMask = std::array<std::vector<std::uint8_t>, 2>;

struct SlideStats {
  int samples = 0;                  ///< frame pairs (f-1, f) both in contact, both legs
  double mean_mm_per_frame = 0;     ///< horizontal motion of the contact joint per frame
  double p95_mm_per_frame = 0;     ///< 95th percentile (core/statistics.h quantile, interpolated)
  double mean_cm_per_s = 0;
  double p95_cm_per_s = 0;
};

/// Horizontal motion of each leg's contact joint between consecutive contact frames.
SlideStats contact_slide(const Clip& clip, const Rig& rig, const ContactMask& contact);

struct ClipMetrics {
  SlideStats source_slide, cleaned_slide;
  /// Deepest point any foot joint (heel, toe, tip) of the cleaned clip reaches below the lowest
  /// height the same joint reaches in the source, mm (0 if none).
  double max_new_penetration_mm = 0;
  double mean_deviation_cm = 0, max_deviation_cm = 0;  ///< world joint positions, all joints
  /// Largest acceleration magnitude of any leg joint (knee, heel, toe, tip), m/s^2.
  double source_max_leg_accel = 0, cleaned_max_leg_accel = 0;
  double leg_accel_ratio = 0;  ///< cleaned / source
  /// Per-frame pop: the largest ratio, over frames f and leg joints (knee, heel, toe, tip), of
  /// the cleaned acceleration at f to the largest source acceleration of the same joint within
  /// k_pop_window_s of f, the latter floored at k_pop_floor_mps2. Unlike leg_accel_ratio, a new
  /// pop smaller than the clip's biggest landing still shows. 0 for clips under 3 frames.
  double pop_ratio = 0;
  int pop_frame = -1;  ///< the frame where pop_ratio is reached
  /// Largest lowering of the translation joint (world Y, source minus cleaned), cm; 0 if never
  /// lowered.
  double max_pelvis_drop_cm = 0;
  /// Joints other than the legs and the translation joint whose local transforms differ by more
  /// than k_unchanged_tolerance (radians / meters) at some frame. The tolerance absorbs the
  /// float noise of formats whose reader derives local transforms from world matrices (FBX
  /// through assimp); BVH output keeps untouched channels bit for bit (tested on the raw values).
  std::vector<std::string> changed_non_leg_joints;
  bool non_leg_unchanged() const { return changed_non_leg_joints.empty(); }
};

/// Compares `cleaned` with `source` (same skeleton and frame count) under `contact`.
ClipMetrics compare_clips(const Clip& source, const Clip& cleaned, const Rig& rig, const ContactMask& contact);

/// A clip handed over one frame at a time, so that it need not be held whole: `skeleton` and
/// `fps` as the clip's, and `fill(frame, into)` writing the local transforms of frame `frame`
/// (internal frame: meters, Y up) to frame 0 of `into`, a one-frame clip of that skeleton and fps.
struct FrameSource {
  const Skeleton* skeleton = nullptr;
  double fps = 0;
  int frame_count = 0;
  std::function<void(int frame, Clip& into)> fill;
};
/// The frames of `clip` as they are (`clip` must outlive the result).
FrameSource frames_of(const Clip& clip);

/// compare_clips on clips given frame by frame, each frame read once in order: the same result
/// as compare_clips on the clips the sources hold, with memory per frame of a few doubles per
/// foot joint instead of a clip.
ClipMetrics compare_frames(const FrameSource& source, const FrameSource& cleaned, const Rig& rig,
                           const ContactMask& contact);

}  // namespace footfix
