// The cleanup pipeline (footfix's main job) on one clip in memory: detect contacts, solve the
// pelvis and toe trajectories of the whole clip offline, move the root-motion joint, and re-solve
// each leg per frame with IK so the contact joint lands on its fixed target. No file I/O.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "footfix/contacts/contact_settings.h"
#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/ik/leg_ik.h"
#include "footfix/solve/ground_settings.h"
#include "footfix/solve/loop.h"
#include "footfix/solve/offline_solve_settings.h"
#include "footfix/solve/pop_guard.h"
#include "footfix/solve/treadmill_settings.h"

namespace footfix {

struct CleanSettings {
  ContactSettings contacts;
  OfflineSolveSettings solve;
  LegIkSettings ik;
  TreadmillSettings treadmill;  ///< in-place clips (see solve/treadmill.h)
  GroundSettings ground;        ///< floating or sinking clips (see solve/ground.h)
  /// Smooth the feet's swings too (their toe targets, with a Gaussian of the capture-noise
  /// smoothing's sigma, at least 0.03 s), not only hold the planted feet still: for noisy capture
  /// whose swings shake. Off by default: the swings keep the source's shape.
  bool smooth_swing = false;
  LoopMode loop = LoopMode::auto_detect;  ///< cyclic clips (see solve/loop.h)
  PopGuardSettings pops;  ///< the last step: leg accelerations kept near the source's (solve/pop_guard.h)
  /// Throws Error(usage) naming the bad field.
  void validate() const;
};

struct CleanResult {
  Clip cleaned;             ///< same skeleton and frames as the input; only legs and root motion change
  ContactResult contacts;   ///< contacts the solve locked (of the input clip)
  int solver_iterations = 0;
  /// Per leg: frames where the contact joint missed its target (unreachable), and the largest
  /// miss in meters.
  std::array<int, 2> unreached_frames{0, 0};
  std::array<double, 2> max_miss_m{0, 0};
  /// Per leg: the largest miss (meters) in frames where the foot is planted (swing frames have
  /// no target to keep; a planted miss is sliding left).
  std::array<double, 2> max_planted_miss_m{0, 0};
  /// Quality problems of this clip's clean (they do not name the clip: the caller knows it; the
  /// CLI prefixes the input's path).
  std::vector<std::string> warnings;
  /// True when the planted feet were locked on a treadmill moving at ground_velocity_mps (m/s,
  /// internal frame, horizontal) rather than in world space; also set in contacts.
  bool treadmill = false;
  Vec3 ground_velocity_mps;
  /// The vertical move (m, internal Y) given to the whole clip so its planted feet stand on the
  /// ground at 0 (CleanSettings::ground); 0 when kept.
  double ground_offset_m = 0;
  /// True when the clip was cleaned as a cycle (its first and last frames kept matching).
  bool loop = false;
  PopGuardReport pops;  ///< what the pop guard smoothed
};

/// Cleans `clip` (internal frame) with legs `rig`. When `contacts` is given, those contacts are
/// locked instead of detecting them (and the clip is not treated as a loop). Deterministic: the same input gives the same output.
CleanResult clean_clip(const Clip& clip, const Rig& rig, const CleanSettings& settings,
                       const ContactResult* contacts = nullptr);
/// The same, with the caller's clip handed over: the cleaned clip is made from it in place (no
/// second copy of the clip's poses; about half the peak memory on very long clips), and `clip`
/// is left empty or unspecified. Same result as the overload above.
CleanResult clean_clip(Clip&& clip, const Rig& rig, const CleanSettings& settings,
                       const ContactResult* contacts = nullptr);

}  // namespace footfix
