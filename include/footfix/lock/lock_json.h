// The lock file `<clip>.lock.json` written by `footfix lock`: what the runtime lock did, per foot
// and per frame. Keys, in order: format "footfix-lock", version 1, generator {name, version},
// settings {lock_distance_m, unlock_distance_m, blend_time_s, contacts: "causal" | "offline",
// onset_delay_frames, release_delay_frames (of the causal detector)}, clip {source, frames, fps,
// meters_per_unit, up_axis}, warnings, feet[2] {side, joint (the locked contact joint),
// contact[frames] (0/1, the contact signal the lock saw), locked[frames] (0/1),
// blend_weight[frames] (0 at a lock or unlock, rising to 1 when its blend time is over; 3
// decimals), contact_point_m[frames] ([x, y, z] in meters, internal frame: Y up, where the foot
// is or was last locked; null before its first lock)}.
#pragma once

#include <ostream>

#include "footfix/core/clip.h"
#include "footfix/lock/lock_clip.h"
#include "footfix/lock/runtime_lock.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

constexpr const char* k_lock_format = "footfix-lock";
constexpr int k_lock_version = 1;

/// Writes the lock file of `result` (from lock_clip on `clip` with `rig` and `settings`).
void write_lock_json(const Clip& clip, const Rig& rig, const LockClipResult& result, const RuntimeLockSettings& settings,
                     std::ostream& out);

}  // namespace footfix
