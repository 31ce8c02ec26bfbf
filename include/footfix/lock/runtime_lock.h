// The runtime foot lock an engine would run: one character, one frame at a time. Construct it
// from the skeleton, the legs and the settings, then call update(pose, dt) every frame with the
// animation's pose; it returns the pose with both legs corrected (feet locked while planted,
// every switch inertialized) and each foot's lock state. It never reads a future frame and
// allocates nothing after construction.
//
// Poses are local joint transforms (rotation and translation relative to the parent, meters,
// internal frame: Y up), one per skeleton joint, in skeleton order. Only the local rotations of
// each leg's hip, knee, heel and toe joints and, where a locked toe is out of reach, the
// translation joint's height are changed; every other value is passed through.
//
// Besides the pose, the engine may tell it, at any frame: the ground's velocity under the
// character (set_ground_velocity: a treadmill, an in-place clip moved by a capsule, a moving
// platform; locked toes ride on it), the ground's shape (set_ground: a raycast callback giving
// the height under a point; flat at the feet's own past heights without one), how much of the
// correction to show (set_weight,
// set_foot_weight: blend the lock out in a cutscene), and that the stream restarts (reset()). A
// root that jumps farther than teleport_distance_m in one frame resets the lock by itself; one
// that leaves its path for an update or two and comes back (glitch_distance_m) is skipped. A
// locked toe out of reach, or one whose input lifts off, is let go early (blended).
#pragma once

#include <array>
#include <span>

#include "footfix/contacts/contact_settings.h"
#include "footfix/core/clip.h"
#include "footfix/lock/causal_contacts.h"
#include "footfix/lock/ground_query.h"
#include "footfix/lock/inertialization.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/ik/leg_ik.h"

namespace footfix {

struct RuntimeLockSettings {
  LockSettings lock;
  /// Contact detection (the causal detector uses speed, body speed tolerance, height, ground
  /// window, majority window and the two thresholds; see lock/causal_contacts.h).
  ContactSettings contacts;
  LegIkSettings ik;
  /// How far a corrected leg may straighten beyond the input pose (0 - 1): its hip-to-heel
  /// distance may reach the input's plus this share of the slack (thigh plus shin less the
  /// input's distance). 0: never past the input's.
  double extension_slack_share = 0;
  /// How much a toe out of the leg's reach may lift its heel (0 - 1, the share of
  /// ik.max_foot_pitch_deg the foot may pitch about the toe, as in a heel-off; 0: never). A
  /// locked toe out of reach uses the leg's slack, then the heel lift, then the pelvis drop, then
  /// the release. Off by default: on the shared clips made to slide it keeps more locked toes on
  /// their contact points but pops harder at unlocks (docs/tuning.md).
  double heel_lift = 0;
  /// A locked toe the leg cannot reach brings the pelvis (the translation joint) down by up to
  /// this much (m, >= 0; 0: never), following the drop it needs with a critically damped spring
  /// of time constant pelvis_drop_time_s (s, > 0).
  double max_pelvis_drop_m = 0.05;
  double pelvis_drop_time_s = 0.05;
  /// While a settled lock holds its toe, the spring follows the drop the toes need plus its
  /// growth over this time (s, >= 0; 0: the need alone). Followed alone, a need that grows
  /// steadily (a body running ahead) is met about 2 x pelvis_drop_time_s late, and the toe is
  /// let go (release_miss_m) before the pelvis is down. A longer lead pops more at unlocks, a
  /// shorter one lets more toes go; the figures behind the default are in docs/tuning.md.
  double pelvis_drop_lead_s = 0.075;
  /// A locked toe the leg leaves farther than this from its target after the solve (m, > 0; the
  /// target taken no lower than the contact joint's floor, as the solve takes it) is let go in
  /// that same update: the frame already reads unlocked, the output blends from its contact
  /// point to the input as any unlock and stays free until its contact ends. Checked at full
  /// weight only. So a foot flagged locked with its blend over is within this of its contact
  /// point.
  double release_miss_m = 0.01;
  /// A settled locked toe (its lock's blend over) already at the edge of the leg's reach whose
  /// miss, predicted for the next update, passes this (m, > 0; taken no lower than
  /// release_miss_m) is let go in this update instead (as at release_miss_m; checked at full
  /// weight only). The prediction adds to the miss the growth of the hip's distance from the
  /// target over one update (the hip moving at the root's velocity, less the pelvis drop
  /// spring's), less the growth of the leg's reach (the input's hip-to-heel distance) over the
  /// last update. A toe that leaves reach that fast (a run, a long stride, a low tick rate) and
  /// is held one update longer is yanked from rest by the whole jump in that update; let go one
  /// update earlier, it starts on its unlock blend first. Set near release_miss_m, toes about to
  /// miss go an update early while their input is still slow (a pop against the input's low
  /// acceleration); the figures behind the default are in docs/tuning.md.
  double release_predicted_miss_m = 0.03;
  /// A locked toe whose input is more than lift_release_height_m (m, > 0) above its contact
  /// point and still rising faster than lift_release_speed_mps (m/s, >= 0) is leaving the ground
  /// (heel-off, toe-off): it is released at once (blended as any unlock) and stays free until its
  /// contact ends. The detector's window ends the contact only once the toe has moved for a
  /// while; held until then, the toe is yanked up and after the input when it lets go (with
  /// 1 cm, the start-walk-stop clip slowed down let a toe go a frame later, at 1.15 m/s, 1.6 x
  /// its input's acceleration).
  double lift_release_height_m = 0.0075;
  double lift_release_speed_mps = 0.1;
  /// A root (the translation joint, world) that moves farther than this in one update (m, > 0)
  /// is a teleport or a cut: the lock resets (as reset()) and that frame shows the input. At
  /// 30 Hz the default is 15 m/s, faster than any locomotion; raise it for vehicles.
  double teleport_distance_m = 0.5;
  /// A root that leaves, for one or two updates, the path its last velocity predicts by more
  /// than this (m, > 0; below teleport_distance_m to matter) is a glitch in the input: those
  /// updates show the input and the lock's state skips them. At 30 Hz the default is a change
  /// of velocity of 3.6 m/s in one update, more than a landing's.
  double glitch_distance_m = 0.12;
  /// Throws Error(usage) naming the bad field.
  void validate() const;
};

/// One frame's local joint transforms (spans of skeleton joint count).
struct PoseView {
  std::span<const Quat> rotations;
  std::span<const Vec3> translations;
};

/// A contact given from outside (e.g. offline detection) instead of the causal detector.
struct GivenContact {
  bool contact = false;
  double height_m = 0;  ///< contact joint's height while planted (m)
};

struct RuntimeFootState {
  bool contact = false;       ///< what detection (or the given contact) says this frame
  double contact_signal = 0;  ///< the causal detector's signal in [0, 1] (1/0 when given)
  bool locked = false;
  double blend_weight = 1;    ///< progress of the latest lock/unlock blend, 0..1
  Vec3 target_m;              ///< where the leg solve put the contact joint (m, world)
  Vec3 contact_point_m;       ///< where the foot is (or was last) locked (m, world)
};

struct RuntimeFrame {
  std::span<const Quat> rotations;     ///< corrected local rotations
  std::span<const Vec3> translations;  ///< the input's, the translation joint's lowered by pelvis_drop_m
  std::array<RuntimeFootState, 2> feet;  ///< indexed by Side
  double pelvis_drop_m = 0;  ///< how far the pelvis is lowered (m, world, >= 0)
  bool teleported = false;   ///< the root jumped past teleport_distance_m: the lock was reset
  /// The root left its path for this update only (glitch_distance_m): the frame shows the input
  /// and `feet` are the last update's.
  bool glitch = false;
};

class RuntimeLock {
 public:
  /// `heights`: per leg, the lowest the contact joint, heel and foot tip may go (m), a
  /// calibration of the character on its ground (lock/stance_heights.h: the stance pose's
  /// heights, or the lowest over an animation's opening); with a ground query (set_ground),
  /// their heights ABOVE the ground in stance. A contact joint's target that meets its floor is
  /// eased onto it over 5 mm either side (smooth_floor, ik/leg_ik.h), not stopped within one
  /// update; on the floor it stands at most 1.25 mm over it. `fps` is the expected update rate (sets the detector's windows).
  /// Throws Error(usage) for invalid settings, Error(process) for a rig without two valid legs.
  RuntimeLock(const Skeleton& skeleton, const Rig& rig, const std::array<LegHeights, 2>& heights,
              const RuntimeLockSettings& settings, double fps);
  RuntimeLock(const RuntimeLock&) = delete;  // the returned frame points into the object
  RuntimeLock& operator=(const RuntimeLock&) = delete;

  /// Advances one frame of dt seconds (> 0) with causal contact detection. The result stays
  /// valid until the next call. Throws Error(usage) when the pose has the wrong joint count.
  const RuntimeFrame& update(const PoseView& pose, double dt);
  /// The same with contacts given per foot (separates detection error from locking error).
  const RuntimeFrame& update(const PoseView& pose, double dt, const std::array<GivenContact, 2>& contacts);

  /// Starts a new stream (e.g. after a cut; a teleport is also detected by itself).
  void reset();

  /// The ground's velocity under the character (m/s, world, Y up; its vertical part is ignored),
  /// from the next update on: the detector measures the feet against it and locked contact
  /// points move with it. Zero (the default): the ground stands still.
  void set_ground_velocity(Vec3 velocity_mps);
  /// How much of the correction is shown, both feet (0: the input pose, 1: fully locked), and
  /// per foot; a foot's weight is the product of the two. Each in [0, 1], else Error(usage).
  /// Detection and lock states run on at any weight, so raising it again resumes at once.
  void set_weight(double weight);
  /// The ground's shape from the next update on (empty: none). With it, a foot's contact height
  /// is the ground under it plus its calibrated height, so the detector sees contacts on slopes
  /// and stairs, a toe locks on the ground, and the clamps follow the ground under the contact
  /// joint, the heel and the foot tip (no penetration of the queried ground).
  void set_ground(GroundQuery ground) { ground_ = ground; }
  void set_foot_weight(Side side, double weight);

  const CausalContactDetector& detector() const { return detector_; }

 private:
  const RuntimeFrame& step(const PoseView& pose, double dt, const std::array<GivenContact, 2>* given);
  /// The translation joint's world position in the pose being corrected (the input's).
  Vec3 root_position() const;
  /// Lowers the translation joint of the pose being corrected by `drop_m` (world Y) from the
  /// input's `input_translation`.
  void lower_pelvis(Vec3 input_translation, double drop_m);
  /// Each leg's clamps for this frame: the calibrated heights, over the queried ground under the
  /// target, the input's heel and its foot tip where there is a ground query.
  void place_clamps(const std::array<FootLock::Step, 2>& steps);
  /// Solves both legs onto their targets, each leg's distance from its target into `miss_m`;
  /// returns the pelvis drop the locked ones (and those an unlock still blends) still need.
  double solve_legs(const std::array<FootLock::Step, 2>& steps, const std::array<double, 2>& max_extension,
                    std::array<double, 2>& miss_m);
  /// A locked toe's reach miss (m) predicted for the next update (release_predicted_miss_m):
  /// `miss_m` now against `target` (m, world), the leg's reach `max_extension` now and
  /// `last_max_extension` at the last update (m), dt the update's time (s). A toe not at the
  /// edge of its reach keeps its miss.
  double predicted_reach_miss(int side, double miss_m, Vec3 target, double max_extension, double last_max_extension,
                              double dt) const;
  /// Lets go, at this update, each fully weighted locked foot whose solved contact joint ended
  /// farther than release_miss_m from its target, or whose predicted miss passes
  /// release_predicted_miss_m. `max_extension`: each leg's reach this update (m).
  void release_out_of_reach(const std::array<FootLock::Step, 2>& steps, const std::array<double, 2>& max_extension,
                            double dt);

  Rig rig_;
  std::array<LegHeights, 2> heights_;
  std::array<LegHeights, 2> clamps_;  ///< this frame's (heights_, or over the queried ground)
  GroundQuery ground_;
  RuntimeLockSettings settings_;
  Clip pose_;  ///< one frame: the skeleton and the pose being corrected
  CausalContactDetector detector_;
  std::array<FootLock, 2> feet_;
  RuntimeFrame frame_;
  double drop_ = 0, drop_velocity_ = 0;    ///< the pelvis drop spring (m, m/s)
  double last_wanted_drop_ = 0;             ///< the drop the toes needed at the last update (m)
  std::array<bool, 2> released_{};          ///< released early, until the contact ends
  Vec3 ground_velocity_;                    ///< m/s, horizontal
  double weight_ = 1;
  std::array<double, 2> foot_weight_{1, 1};
  bool has_last_root_ = false, has_root_velocity_ = false;
  Vec3 last_root_;                          ///< the input root's world position at the last update not skipped (m)
  Vec3 root_velocity_;                      ///< the root's velocity up to then (m/s)
  int glitch_updates_ = 0;                  ///< updates skipped in a row as a root glitch
  double skipped_s_ = 0;                    ///< their time (s)
  std::array<double, 2> last_max_extension_{};  ///< each leg's reach at the last update not skipped (m)
  std::array<double, 2> last_contact_y_{};  ///< each input contact joint's height at the last update not skipped (m)
};

}  // namespace footfix
