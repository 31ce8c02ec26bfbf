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
// a foot joint below the lowest the source puts it is halved, or not taken. With contacts, the
// root's correction is first held where a planted leg hangs from it (smoothing it there would
// move that planted toe), and smoothed there too only where that leaves a pop.
#pragma once

#include <array>
#include <vector>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/rig/leg_tracks.h"

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

/// What the guard needs of the source, taken before the clean changes the clip: per leg, the
/// local rotations of its hip, knee, heel and toe (where the rig has them) and the root's local
/// translation per frame, and the acceleration each leg joint may reach per frame (m/s^2).
struct PopGuardSource {
  int frame_count = 0;
  double fps = 0;
  /// Per leg, the chain joints whose rotations the clean may change (hip, knee, heel, toe).
  std::array<std::vector<int>, 2> joints;
  /// A source rotation kept in single precision (w, x, y, z): the guard only needs it to take
  /// the clean's correction out and put it back, at frames it changes (a 1e-7 rad rounding).
  using CompactQuat = std::array<float, 4>;
  /// rotations[leg][i][frame]: source local rotation of joints[leg][i].
  std::array<std::vector<std::vector<CompactQuat>>, 2> rotations;
  std::vector<Vec3> root_translation;  ///< the translation joint's local translation per frame
  /// allowed_mps2[leg][k][frame]: max_ratio x the source's largest acceleration of tracked joint
  /// k (knee, heel, toe if any, foot tip) within k_pop_window_s of the frame, floored.
  std::array<std::vector<std::vector<float>>, 2> allowed_mps2;
  /// lowest_m[leg][k]: the lowest world height (m) tracked joint k reaches in the source. The
  /// guard never puts a foot joint (heel, toe, tip) below it (no new ground penetration).
  std::array<std::vector<double>, 2> lowest_m;
};

/// Captures what guard_pops needs from `source` (the clip about to be cleaned, internal frame).
/// `tracks`: the source's leg_tracks where the caller has them (the same result, without
/// computing the positions again); tracks that do not match the clip are not read.
PopGuardSource capture_pop_guard_source(const Clip& source, const Rig& rig, const PopGuardSettings& settings,
                                        const LegTracks* tracks = nullptr);

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

/// Smooths the correction of `cleaned` (the source's clean: same skeleton and frames) against
/// `source` where a leg joint accelerates more than allowed (see the file comment). Changes only
/// the legs' local rotations (the joints of PopGuardSource::joints) and the translation joint's
/// local translation, at the frames it smooths. Deterministic. Off (nothing changed) when
/// settings.max_ratio is 0. `contacts` (the clean's, per frame of `cleaned`): where legs are
/// planted (the root is held there first, see the file comment), and to report how far planted
/// contact joints moved. `tracks`: `cleaned`'s leg_tracks as it is passed in, where the caller
/// has them (the same result).
PopGuardReport guard_pops(Clip& cleaned, const Rig& rig, const PopGuardSource& source, const PopGuardSettings& settings,
                          const ContactResult* contacts = nullptr,
                          const LegTracks* tracks = nullptr);

}  // namespace footfix
