// Contact annotation job: which frames each foot is planted on the
// ground, from the motion of its contact joint (toe, else heel).
//
// Per foot, from the contact joint's world position p (after cubic upsampling of clips <= 30 Hz):
// 1. velocity v = the shorter of the backward and forward differences of p, times fps (m/s),
//    minus the ground velocity: the windowed median of the lower foot's horizontal velocity
//    (ground_velocity_window_s), ignored where it runs with the body's travel faster than
//    body_speed_fraction x the body speed (the feet travel with the body: jumps; a body slower
//    than 2 cm/s stands, whatever the direction of its sway or rounding). It is zero for clean
//    clips and lets in-place (treadmill) clips and sliding clips show still feet;
// 2. sliding tolerance: with d the direction of the pelvis's horizontal velocity (averaged over
//    body_speed_window_s) and b its speed, the component of v along d may reach
//    max(speed_threshold_mps, body_speed_fraction * b); the rest of v (vertical, sideways) is
//    held to speed_threshold_mps. A clip whose root runs 25% ahead of its legs moves planted
//    toes at 0.25 b along d, so they still count; swinging feet move at 1.5-3 b;
// 3. height gate: p.y minus the local ground (the higher of the lowest points the foot reaches
//    within half a ground window before and after) < height_threshold_m;
// 4. majority vote, Gaussian smoothing to [0,1], and hysteresis: runs reaching
//    contact_threshold, extended while the signal is >= release_threshold;
// 5. mapped back to the clip's frames; intervals get their planted position and height.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "footfix/contacts/contact_settings.h"
#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/rig/leg_tracks.h"

namespace footfix {

/// Frames [first_frame, last_frame] (inclusive) during which a foot is planted.
struct ContactInterval {
  int first_frame = 0;
  int last_frame = 0;
  /// Where the contact joint stands over the interval (meters, internal frame): the median
  /// height, and horizontally the medians along and across the joint's own spread over the
  /// interval (its principal horizontal axes about the mean), so it turns with the clip.
  Vec3 planted_position_m;
  /// The contact joint's height while planted (median over the interval, meters): the ground
  /// level of this contact, which may differ between contacts (stairs, platforms).
  double height_m = 0;
};

struct FootContacts {
  Side side = Side::left;
  int joint = -1;  ///< the contact joint (skeleton index)
  std::vector<double> smoothed;    ///< per frame, in [0, 1]
  std::vector<std::uint8_t> contact;  ///< per frame, 0 or 1
  std::vector<ContactInterval> intervals;  ///< sorted, disjoint
  // Diagnostics, per frame (at the clip's frames, after upsampling was mapped back):
  std::vector<double> speed_mps;            ///< the contact joint's speed
  /// The speed compared with speed_threshold_mps: motion along the body's travel direction is
  /// scaled down by the body speed tolerance (see detect_contacts).
  std::vector<double> effective_speed_mps;
  std::vector<double> height_above_ground_m;  ///< height above the local ground
};

struct ContactResult {
  /// Floor level of the clip: 5th percentile of both contact joints' heights (meters, internal
  /// frame). The height of the contact joints (not of the sole) when standing on the floor.
  double ground_height_m = 0;
  std::array<FootContacts, 2> feet;  ///< indexed by Side
  /// Estimated white noise on the contact joints (m, per axis; the larger foot's), and the sigma
  /// (s) of the smoothing applied before detection for it (0: none; ContactSettings::
  /// denoise_speed_fraction).
  double capture_noise_m = 0;
  double denoise_sigma_s = 0;
  std::vector<std::string> warnings;  ///< quality problems; the result is still usable
  /// What footfix recognised in the clip and handled as designed (a rest pose at frame 0): not
  /// problems, so the CLI prints them at info level; written beside the warnings.
  std::vector<std::string> notes;
  /// Set when the feet are planted on a moving ground (an in-place clip locked on a treadmill by
  /// clean): its horizontal velocity, m/s, internal frame (Y up). Unset: the ground is still.
  std::optional<Vec3> ground_velocity_mps;
  /// With ground_velocity_mps: per frame, the distance (m) the body has travelled over that
  /// ground since frame 0 (ground_distance_curve in solve/treadmill.h). Empty otherwise.
  std::vector<double> ground_distance_m;
  /// Set when clean moved the whole clip vertically so its planted feet stand at 0 (m, internal
  /// Y; --ground auto or HEIGHT). Unset: the clip kept its height.
  std::optional<double> ground_offset_m;

  const FootContacts& foot(Side s) const { return feet[static_cast<int>(s)]; }
};

/// Detects contacts of both legs of `rig` in `clip` (internal frame: meters, Y up).
/// Throws Error(usage) for invalid settings and Error(process) when the rig has no valid legs or
/// the clip has no frames or non-finite joint positions. Deterministic; no hidden state.
/// `tracks`: the clip's leg_tracks for `rig` where the caller has them (the same result, without
/// computing the positions again); tracks that do not match the clip are not read.
ContactResult detect_contacts(const Clip& clip, const Rig& rig, const ContactSettings& settings,
                              const LegTracks* tracks = nullptr);

/// The foot's speed (m/s) as compared with speed_threshold_mps, from its velocity and the body's
/// horizontal velocity (m/s): the component along the body's travel direction is tolerated up to
/// body_speed_fraction x the body speed (the slide of a clip whose root runs ahead of or behind
/// its legs); the rest (up, down, sideways) is held to the base threshold.
double effective_speed(Vec3 foot_velocity, Vec3 body_velocity, const ContactSettings& s);

/// Contact runs of a per-frame 0/1 signal as intervals (positions left zero).
std::vector<ContactInterval> contact_runs(const std::vector<std::uint8_t>& contact);

}  // namespace footfix
