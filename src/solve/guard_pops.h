// The pop guard's pass (see footfix/solve/pop_guard.h for what it does and its settings): what
// it keeps of the source, and the smoothing itself. For the clean and its tests; not installed.
#pragma once

#include <array>
#include <vector>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/rig/leg_tracks.h"
#include "footfix/solve/pop_guard.h"

namespace footfix {

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

/// Smooths the correction of `cleaned` (the source's clean: same skeleton and frames) against
/// `source` where a leg joint accelerates more than allowed (see the file comment). Changes only
/// the legs' local rotations (the joints of PopGuardSource::joints) and the translation joint's
/// local translation, at the frames it smooths. Deterministic. Off (nothing changed) when
/// settings.max_ratio is 0. `contacts` (the clean's, per frame of `cleaned`): where legs are
/// planted (the root is held there first, see the file comment), and to report how far planted
/// contact joints moved; on noisy capture, the contact end frames where the guard could only
/// smooth a pop by moving the planted foot are released from it (see the file comment).
/// `tracks`: `cleaned`'s leg_tracks as it is passed in, where the caller has them (the same
/// result).
PopGuardReport guard_pops(Clip& cleaned, const Rig& rig, const PopGuardSource& source, const PopGuardSettings& settings,
                          ContactResult* contacts = nullptr,
                          const LegTracks* tracks = nullptr);

}  // namespace footfix
