// The three-way comparison of `footfix compare`: no fix, the runtime lock (lock/lock_clip.h) and
// the offline clean (solve/clean.h) on the same clip, measured with the same metrics
// (eval/metrics.h) under the same contacts. With the slide protocol (eval/sliding.h) the clip is
// also made to slide (root's horizontal motion x1.25 and x0.75 about frame 0) and each variant
// is fixed by both methods and measured under the UNSCALED clip's offline contacts.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/eval/metrics.h"
#include "footfix/lock/event_pops.h"
#include "footfix/lock/runtime_lock.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/solve/clean.h"

namespace footfix {

enum class FixMethod { none = 0, runtime = 1, offline = 2 };
const char* to_string(FixMethod m);  ///< "no fix", "runtime lock", "offline clean"

struct CompareSettings {
  CleanSettings clean;  ///< offline clean; its contact settings also give the measuring contacts
  RuntimeLockSettings runtime;
  /// Feed the runtime lock the offline contacts of the clip it locks instead of its causal
  /// detector (separates detection error from locking error).
  bool runtime_offline_contacts = false;
  /// The ground's velocity for the runtime lock (m/s, internal frame; unset: still ground).
  std::optional<Vec3> runtime_ground_velocity_mps;
  /// The ground's shape for the runtime lock (empty: the feet's own past heights).
  GroundQuery runtime_ground;
};

/// One variant of the clip (scale factor 1 = the clip itself), measured for each method.
struct CompareVariant {
  double factor = 1;
  std::array<ClipMetrics, 3> metrics;  ///< indexed by FixMethod; source = the variant
  LockEventPops runtime_pops;          ///< the runtime lock's pops per lock/unlock event
  std::vector<std::string> warnings;   ///< of the methods, prefixed by the method's name
};

/// Runs the comparison on `clip` (internal frame). Without the protocol one variant (x1), with
/// it three (x1, x1.25, x0.75). Throws like clean_clip and lock_clip.
std::vector<CompareVariant> compare_methods(const Clip& clip, const Rig& rig, const CompareSettings& settings,
                                            bool slide_protocol);

}  // namespace footfix
