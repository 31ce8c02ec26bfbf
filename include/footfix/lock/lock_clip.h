// The whole-clip driver of the runtime foot lock: plays a clip through RuntimeLock frame by frame
// (as an engine would show it) and records each foot's lock state per frame. No file I/O.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"
#include "footfix/lock/runtime_lock.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

/// One foot, per frame.
struct FootLockTrack {
  std::vector<std::uint8_t> contact;  ///< the contact signal the lock saw (causal or given)
  std::vector<std::uint8_t> locked;
  std::vector<double> blend_weight;   ///< 0 at a lock/unlock, 1 once its blend is over
  std::vector<Vec3> contact_point_m;  ///< where the foot is or was last locked (m, internal frame)
  std::vector<std::uint8_t> has_contact_point;  ///< 0 before the foot's first lock
};

struct LockClipResult {
  Clip locked;  ///< the clip as the runtime shows it: same skeleton and frames, legs changed
  std::array<FootLockTrack, 2> feet;  ///< indexed by Side
  bool offline_contacts = false;      ///< contacts given (offline detection), not causal
  int onset_delay_frames = 0, release_delay_frames = 0;  ///< of the causal detector
  std::vector<std::string> warnings;
};

/// How well the locked toes held their contact points in a lock_clip result: over the settled
/// locked foot-frames (locked, the lock's blend over), the distance (m, internal frame) of the
/// contact joint from its contact point.
struct LockHold {
  int settled_frames = 0;  ///< foot-frames locked with the lock blend over, both feet
  int held_frames = 0;     ///< of those, the contact joint within k_lock_hold_tolerance_m
  double max_miss_m = 0;   ///< the largest distance over them
  /// held_frames / settled_frames (1 without settled frames).
  double held_share() const { return settled_frames > 0 ? static_cast<double>(held_frames) / settled_frames : 1.0; }
};
/// The distance (m) within which a locked toe counts as on its contact point.
inline constexpr double k_lock_hold_tolerance_m = 0.01;
LockHold lock_hold(const LockClipResult& result, const Rig& rig);

/// A clip at least this long (s) is expected to lock a foot somewhere; lock_clip warns when it
/// locks none (an in-place clip without its ground velocity sees no still foot).
inline constexpr double k_lock_expected_within_s = 1.0;

/// How much of a clip's opening (s) calibrates lock_clip's leg height clamps.
inline constexpr double k_calibration_s = 1.0;

/// Lock events (a foot going from free to locked) over both feet.
int count_locks(const LockClipResult& result);
/// Of the foot-frames the lock saw in contact (both feet), the share it had locked (0 without
/// contact frames). A lock that lets toes go early holds them by locking less: report it beside
/// lock_hold.
double locked_share_of_contacts(const LockClipResult& result);

/// Runs the runtime lock over `clip` (internal frame) with legs `rig`, at dt = 1 / fps. With
/// `contacts`, those (offline) contacts and their interval heights drive the lock instead of the
/// causal detector. `ground_velocity_mps` (m/s, internal frame; else the contacts' own, if any):
/// the clip plays on a treadmill of that velocity. `ground`: the ground's shape (set_ground; none:
/// the feet's past heights). The leg height clamps are calibrated on the clip's first
/// k_calibration_s (opening_leg_heights, over `ground` when given), as at a spawn. A one-frame clip is returned unchanged with
/// a warning (nothing to lock). Throws Error(process) for a clip without frames or legs,
/// Error(usage) for invalid settings.
LockClipResult lock_clip(const Clip& clip, const Rig& rig, const RuntimeLockSettings& settings,
                         const ContactResult* contacts = nullptr, std::optional<Vec3> ground_velocity_mps = {},
                         GroundQuery ground = {});

}  // namespace footfix
