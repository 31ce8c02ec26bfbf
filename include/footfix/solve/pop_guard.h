// Pop guard: the last step of a clean. Locks that begin or end, a knee near full extension, or a
// locked foot under a body that jolts in the source can give a leg joint an acceleration in one
// frame the source never had (a pop). The guard measures every leg joint's acceleration in the
// cleaned clip against the source's and, where it is too large, smooths the clean's CORRECTION
// (the change of the legs' local rotations and of the root translation against the source)
// around that frame until it is not: a correction that changes smoothly adds little
// acceleration to the source's motion. The price is a little of the lock near those frames.
// Where smoothing stalls (a correction held over a jolt of the source's that the source cancels
// inside the leg, e.g. a pelvis spike its hip rotation undoes), the legs' corrections there also
// ease towards none, kept only if that lowers the worst acceleration left. A step that would put
// a foot joint below the lowest the source puts it is halved, or not taken; where the passes
// stall on such steps (a foot resting on the floor at the pop), they go on with the root raised
// at those frames by as much as the foot would sink, kept where that brings the stretch within
// the limit. With contacts, the root's correction is first held where a planted leg hangs from
// it (smoothing it there would move that planted toe), and smoothed there too only where that
// leaves a pop. On noisy capture
// (contacts detected with denoising) the guard first smooths with every planted leg held as
// well, around its locks only: a planted foot that moves is what such capture's clean must not
// leave. Where that leaves accelerations within 1.07 x the limit (1.5 x the source's at the
// default max_ratio), it stops there; larger ones are smoothed as on clean capture, and where
// that moved a planted foot, the same passes are run again with each planted foot put back by
// its leg's IK after every pass (the root brought along the leg so the knee keeps its smoothed
// bend): kept where that brings the stretch within 1.07 x the limit, else the foot moves. Where
// it then moves by more than 1 mm at frames near a contact's ends (within 2 sigmas of the
// detection's smoothing, where the foot's landing or lift is uncertain), those end frames are
// released from the contacts and the stretch is smoothed again from the start: kept where the
// planted feet then move less and no more frames are left over the limit.
#pragma once

#include <array>

namespace footfix {

struct PopGuardSettings {
  /// Largest acceleration of a leg joint (knee, heel, toe, foot tip) in the cleaned clip, as a
  /// ratio of the largest the same joint has in the source within k_pop_window_s of the frame
  /// (floored at k_pop_floor_mps2, see eval/metrics.h). 0: off; else at least 1.05.
  double max_ratio = 1.4;
  /// Smoothing passes at most (each widens a smoothed stretch by a frame on both sides).
  int max_passes = 400;
  /// Throws Error(usage) naming the bad field.
  void validate() const;
};

struct PopGuardReport {
  int frames_smoothed = 0;   ///< frames whose correction was changed
  int passes = 0;            ///< smoothing passes run
  int frames_over = 0;       ///< (leg joint, frame) pairs still over the limit when the passes ran out
  /// The largest pop ratio (as PopGuardSettings::max_ratio measures it) among those; 0 if none.
  double worst_ratio_left = 0;
  /// Per leg, the farthest (meters) the guard moved the contact joint in a planted frame (the
  /// lock given up for smoothness there; 0 without contacts).
  std::array<double, 2> max_planted_shift_m{0, 0};
};

}  // namespace footfix
