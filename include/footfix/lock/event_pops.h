// The runtime lock's pops, measured where they happen (issue 33, section 4): around each lock
// and unlock, the toe's acceleration against the input's own local peak. A whole-clip ratio
// (largest output acceleration / largest input acceleration) cannot fail on a clip whose input
// has a glitch somewhere (one bad frame sets the input's maximum); a per-event ratio can.
#pragma once

#include <vector>

#include "footfix/core/clip.h"
#include "footfix/lock/lock_clip.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

/// The most an event's ratio may be (target of issue 33).
inline constexpr double k_event_pop_limit = 1.5;

struct LockEventPop {
  Side side = Side::left;
  int frame = 0;        ///< the first frame of the new state
  bool lock = true;     ///< a lock (else an unlock)
  double output_mps2 = 0, input_mps2 = 0;
  double ratio = 0;     ///< output_mps2 / max(input_mps2, k_pop_floor_mps2)
};

struct LockEventPops {
  std::vector<LockEventPop> events;  ///< in frame order per side, left first
  double median_ratio = 0, worst_ratio = 0;  ///< 0 without events
  int over_limit = 0;                ///< events with a ratio over k_event_pop_limit
  const LockEventPop* worst() const;  ///< nullptr without events
};

/// For each lock and unlock of `result` (a foot's locked flag switching), the largest
/// acceleration (m/s^2, central differences) of the foot's contact joint in result.locked within
/// k_pop_window_s (rig/pop_measure.h) of the event, and the input's (`input`, the clip that was
/// locked) within the same frames, floored at k_pop_floor_mps2.
LockEventPops lock_event_pops(const Clip& input, const LockClipResult& result, const Rig& rig);

}  // namespace footfix
