// In-place (treadmill) clips: game locomotion whose root stays near the origin while planted
// feet slide backwards at the speed the engine will move the character. The ground moves at one
// horizontal velocity g (m/s, internal frame: X and Z, Y up; g.y = 0) for the whole clip. The
// offline solve runs unchanged in the ground's frame x'(t) = x(t) - g t (planted feet are then
// still) and its result is mapped back with x(t) = x'(t) + g t, so planted feet move at exactly
// g and the root stays where the source had it. t = frame / fps, from frame 0.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/contacts/contact_settings.h"
#include "footfix/core/math.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/rig/leg_tracks.h"
#include "footfix/solve/offline_solve.h"
#include "footfix/solve/treadmill_settings.h"

namespace footfix {

/// Slowest ground a clip is detected as in place on (m/s).
inline constexpr double k_treadmill_min_speed_mps = 0.1;
/// In place when the pelvis's travel speed is below this fraction of the ground speed, either
/// over half-second windows (root_travel_speed) or from the first frame to the last
/// (root_net_speed: a root that wanders and comes back, as on a treadmill capture).
inline constexpr double k_treadmill_max_root_fraction = 0.5;

/// Per frame f, the horizontal displacement (m) of the ground under the planted feet from frame
/// f - 1 to f: the mean of the steps of the feet planted at both frames; over frames where no
/// foot is planted, interpolated linearly between the steps either side (held before the first
/// and after the last). Entry 0 is zero; all zero when no foot is ever planted for two frames.
std::vector<Vec3> ground_steps(const std::array<std::vector<Vec3>, 2>& toe_ws,
                               const std::array<std::vector<std::uint8_t>, 2>& contact);

/// The ground velocity of a treadmill: the ground's whole travel under the planted feet
/// (ground_steps) over the clip's duration. Time-weighted, so a clip whose body speeds up and
/// slows down (start, walk, stop) gets the speed that keeps the body with its feet over the
/// whole clip, not that of its longest phase; and a planted foot's shaking or a one-frame
/// outlier cancels out within its contact. Turns with the clip. Zero when no foot is ever
/// planted for two frames.
Vec3 estimate_ground_velocity(const std::array<std::vector<Vec3>, 2>& toe_ws,
                              const std::array<std::vector<std::uint8_t>, 2>& contact, double fps);

/// Mean horizontal speed (m/s) of `pelvis_ws` over windows of about half a second (the whole
/// clip when shorter): the body's own travel, with the sway of a step averaged out.
double root_travel_speed(const std::vector<Vec3>& pelvis_ws, double fps);

/// Horizontal speed (m/s) of `pelvis_ws` from its first frame to its last: the body's net travel.
double root_net_speed(const std::vector<Vec3>& pelvis_ws, double fps);

/// What clean decides for one clip: whether to lock on a treadmill, and at which velocity.
struct TreadmillDecision {
  bool on = false;
  Vec3 ground_velocity_mps;  ///< the ground's velocity (zero when off)
};
TreadmillDecision decide_treadmill(const OfflineSolveInput& input, const TreadmillSettings& settings);

/// The mean horizontal velocity (m/s) of the planted feet over every frame pair both frames of
/// which a foot is planted in, both feet counted: the single ground velocity that fits the
/// planted feet best (least squares). Zero when no foot is ever planted for two frames.
Vec3 planted_mean_velocity(const std::array<std::vector<Vec3>, 2>& toe_ws,
                           const std::array<std::vector<std::uint8_t>, 2>& contact, double fps);

/// The treadmill's ground velocity refined from a first estimate `g`: contacts detected again on
/// the clip as seen from a ground moving at g (`tracks`, the clip's leg tracks, moved by -g t),
/// and g taken again from them (planted_mean_velocity), until it changes by less than 5 mm/s
/// (4 rounds at most). A first detection in world space misses the contacts of a body that
/// stands on the moving ground (its feet and pelvis glide back together, as in a start-walk-stop
/// made in place); seen from the ground they stand still.
Vec3 refine_ground_velocity(const Clip& clip, const Rig& rig, const ContactSettings& contacts, const LegTracks& tracks,
                            Vec3 g);

/// Per frame, the distance (m) the body has travelled over a treadmill's ground since frame 0,
/// from the translation joint's world positions `root_ws`: its horizontal velocity relative to
/// the ground moving at `g` (m/s), averaged over about half a second (a step's sway does not
/// count), summed. The distance curve engines' distance matching reads; for a clip whose speed
/// changes (start, walk, stop) it rises at the body's speed of the moment.
std::vector<double> ground_distance_curve(const std::vector<Vec3>& root_ws, Vec3 g, double fps);

/// Adds `sign` * g * t to every pelvis and toe position (t = frame / fps): -1 maps a solve's
/// input into the ground's frame, +1 maps its result back.
void shift_by_ground(std::vector<Vec3>& pelvis_ws, std::array<std::vector<Vec3>, 2>& toe_ws, Vec3 g,
                     double fps, double sign);

/// Copy of `clip` with the world position of `translation_joint` (and so the whole body) moved by
/// `sign` * g * t: -1 gives the clip as seen from the ground (an in-place clip becomes a
/// root-motion clip), +1 maps back. Only that joint's local translation changes.
Clip shift_clip_by_ground(const Clip& clip, int translation_joint, Vec3 g, double sign);
/// The same, on `clip` itself.
void shift_clip_by_ground_in_place(Clip& clip, int translation_joint, Vec3 g, double sign);
/// The same on one frame: frame `frame` of `clip` moved as the clip's frame `time_frame` is
/// (time_frame / fps seconds from the start); for a frame held alone in a one-frame clip.
void shift_frame_by_ground(Clip& clip, int frame, int time_frame, int translation_joint, Vec3 g, double sign);

}  // namespace footfix
