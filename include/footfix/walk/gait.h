// Gait of the procedural walk: a state machine (IDLE, START, LEFT GO,
// RIGHT GO, RIGHT STOP, LEFT STOP) that plans footsteps, and the foot and body trajectories
// between them. All positions meters, world frame, Y up; the walk starts at the origin heading
// +Z (yaw 0; yaw turns +Z toward +X); left is +X at yaw 0.
//
// - Footsteps are planned from the other foot: the new toe position is the other foot's plus one
//   step along the heading and the walking width across it (half a step for START). The walk
//   phase of a plan is 0.25 for the left foot and 0.75 for the right (a step every half cycle).
// - Stopping (RIGHT STOP / LEFT STOP) puts both feet at the idle stance, wider than the walking
//   one, beside the body's centre; IDLE holds it.
// - Turning: a planted foot keeps the heading and position it was planted with, in world space,
//   while the body turns; the next step is planned in the body's new heading, turned by at most
//   20 degrees from the other foot's (a sharper turn request is followed with a lag).
// - Step length from the speed (natural_step_length_m; at most max_step_m, on stairs at most
//   0.5 m), step period = step length / speed. Events in adult proportions: heel rise 0.64 step
//   periods before toe off, double support 24% of a step period at 1.3 m/s (less when faster),
//   heel strike rolling to foot flat in 0.16.
// - Steps shorten on ground steeper than a 5% grade along the heading (down to half a step); the
//   heel strike's toes-up angle stays that of a full step there and on the half-length START step.
// - Each step: toe off (the heel rises about the planted toe joint, still rising at the lift;
//   the toe segment stays flat), swing (lifted over the terrain between the footholds, led off
//   the ground by the toe tip, which clears it by 1 cm at once, and onto the next foothold by
//   the heel, or down a stair forward over the nosings before it drops; up a stair the heel
//   leads all the way, the whole foot first raised by the tip's 1 cm; just after the lift the
//   whole foot pitches further about its tip, so the ankle plantar flexes most just after toe
//   off; START and STOP steps lift at least 8 cm), heel strike (the heel lands with the toes up,
//   the foot rolls down about the heel; onto a lower stair tread descent_heel_strike_share of
//   that), then the foot is flat and the toe planted.
// - Every phase joins the next with continuous velocity and acceleration (minimum-jerk and
//   quintic profiles); the foot's pitch keeps rolling through the heel strike. Foot flat is the
//   exception: the forefoot meets the ground still rolling and the ground stops it.
// - Stance feet are aligned with the terrain normal, as pitch and roll angles each clamped; where
//   that leaves a sole point (heel, ball, tip) below the terrain the foothold is raised until none
//   is, and the plan warns.
// - On stairs each foothold (the first step, the stop and turns included) stands its whole sole on
//   one tread, the ground before the flight or the landing, 1 cm from their edges; on treads
//   too short for that the plan warns.
// - The body: its centre is the average of the hip positions the two feet imply (the two flat
//   ankle positions) at each heel strike, interpolated in time (cubic), with its height from the
//   terrain under both feet, so it rises on slopes and stairs (pelvis_motion.h adds the sway and
//   the height's dips).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "footfix/core/math.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/walk/terrain.h"

namespace footfix {

enum class GaitState { idle, start, left_go, right_go, right_stop, left_stop };
const char* to_string(GaitState s);  ///< "IDLE", "START", "LEFT GO", ...

enum class PathKind { straight, turn, stop_go };
struct WalkPath {
  PathKind kind = PathKind::straight;
  double turn_deg = 0;  ///< turn: total heading change over the walk (positive: toward +X)
};
/// "straight", "turn:DEG" or "stop-go". Throws Error(usage).
WalkPath parse_walk_path(const std::string& spec);
std::string to_string(const WalkPath& path);

/// The foot in its canonical frame: the ankle joint at the origin, forward +Z, left +X, up +Y,
/// foot flat on the ground (meters).
struct FootGeometry {
  Vec3 toe;        ///< toe joint
  Vec3 tip;        ///< toe tip (end site)
  Vec3 heel_sole;  ///< sole point below and behind the ankle (heel strike pivot)
  Vec3 ball_sole;  ///< sole point below the toe joint
  Vec3 tip_sole;   ///< sole point below the tip
  double toe_height_m() const { return toe.y - ball_sole.y; }  ///< toe joint above the sole
};

struct GaitSettings {
  double speed_mps = 1.0;
  double duration_s = 8.0;
  WalkPath path;
  std::uint64_t seed = 1;
  double walk_width_m = 0.16;   ///< lateral distance between the feet while walking
  double idle_width_m = 0.24;   ///< lateral distance between the feet at the idle stance
  double leg_length_m = 0.82;   ///< thigh + shin of the walker: scales the natural step length
  double max_step_m = 1.2;      ///< longest step (toe to toe along the heading)
  double toe_off_deg = 55;      ///< heel rise at toe off (full step)
  double heel_strike_deg = 20;  ///< toes up at heel strike (full step)
  /// Toes up at a heel strike onto a lower stair tread, as a share of the step's heel strike
  /// angle. A leg reaching far down may not turn the foot's toes up that far, and the heel it
  /// holds back passes through the nosing it crosses: generate_walk (walk.h) then walks with
  /// smaller shares.
  double descent_heel_strike_share = 1.0;
  double min_clearance_m = 0.04;  ///< lowest sole lift above the terrain in mid swing
  double max_pitch_deg = 25;    ///< terrain alignment: largest foot pitch
  double max_roll_deg = 15;     ///< terrain alignment: largest foot roll
  /// Walking steps between gentle footholds leave the ground with the heel still rising fast, so
  /// the trailing knee keeps moving forward through the lift (gait.cpp); off: every step leaves at
  /// the slower rate, for a leg whose joint limits cannot follow the faster one.
  bool fast_heel_exit = true;
  void validate() const;        ///< Throws Error(usage) naming the bad field
};

struct Footstep {
  int index = 0;
  Side side = Side::left;
  GaitState state = GaitState::idle;  ///< the state this step belongs to (idle: initial stance)
  double phase = 0;          ///< walk phase of the plan: 0.25 left, 0.75 right (0 for idle)
  double roll_begin_s = 0;   ///< heel starts rising at the previous foothold (toe off)
  double lift_s = 0;         ///< toe leaves the previous foothold
  double heel_strike_s = 0;  ///< heel lands on this foothold
  double plant_s = 0;        ///< foot flat, toe planted
  Vec3 toe_m;                ///< toe joint position while planted
  /// Sole points while planted (world, m): heel, ball (under the toe joint) and toe tip. Ground
  /// truth per point: the heel is down from heel_strike_s until the next step's roll_begin_s on
  /// this side, the ball and tip from plant_s until the next step's lift_s.
  Vec3 heel_sole_m, ball_sole_m, tip_sole_m;
  double yaw_rad = 0;        ///< foot heading, kept in world space while planted
  double pitch_rad = 0, roll_rad = 0;  ///< terrain alignment of the planted foot (clamped)
  int tread = 0;             ///< stairs: tread index under the foot (see Terrain::tread_index)
  double toe_off_rad = 0, heel_strike_rad = 0;  ///< roll angles used leaving / reaching it
  /// Pitch rate of the heel rise as the toe leaves the previous foothold: per unit of the rise's
  /// progress, as a share of toe_off_rad (0 from one stair tread to another).
  double toe_off_exit_rate = 0;
  double lift_m = 0;         ///< swing lift that clears the terrain on the way here
  double hover_m = 0;        ///< terminal swing: height (m) the foot is held above the plain swing (gait.cpp)
};

/// A pelvis key: the body's centre (average of the implied hip positions), ground height under
/// both feet and heading.
struct BodyKnot {
  double time_s = 0;
  Vec3 center;           ///< x, z: centre; y: mean ground height under the feet
  double yaw_rad = 0;
};

struct GaitPlan {
  double step_period_s = 0.5;  ///< half a walk cycle
  double step_length_m = 0.5;
  double roll_off_s = 0, swing_s = 0, roll_on_s = 0;
  std::vector<Footstep> steps;  ///< time order; the first two are the initial idle stance
  std::array<std::vector<int>, 2> per_side;  ///< indices into steps, per Side, in time order
  std::vector<BodyKnot> body;
  /// What the plan could not do as asked (a turn short of its angle, a foot that cannot lie on
  /// the terrain), one sentence each; empty when it did everything.
  std::vector<std::string> warnings;
  /// Consecutive walking steps (within one walking bout, START to the last STOP) by the same
  /// foot: 0 when the footsteps alternate.
  int alternation_breaks() const;
  /// Whether a foot steps from one stair tread down to a lower one.
  bool steps_down_a_stair() const;
};

/// Per Side.
using FeetGeometry = std::array<FootGeometry, 2>;

/// Step length (m, toe to toe) of adults walking at `speed_mps` on level ground: step length
/// grows as speed^0.42 (Grieve 1968: stride length against speed over the adult range), 0.85 leg
/// lengths at 1.3 m/s (0.70 m for 0.82 m legs, 1.86 steps/s). Cadence is speed / step length.
double natural_step_length_m(double speed_mps, double leg_length_m);

GaitPlan plan_gait(const GaitSettings& settings, const Terrain& terrain, const FeetGeometry& feet);

/// Where one foot is at time t.
struct FootSample {
  Quat foot_rotation;  ///< canonical foot frame to world
  Vec3 ankle;          ///< ankle joint, world
  Quat toe_rotation;   ///< desired world rotation of the toe segment (canonical frame)
  bool contact = false;  ///< toe joint planted (still) on the ground
  bool swinging = false; ///< between toe off and heel strike (no part of the foot on the ground)
  int foothold = 0;    ///< step index of the foothold planted or being left
  /// Toe off: progress of the heel rise from its start to the lift, in [0, 1] (-1 outside the
  /// toe off), and the heel pitch (rad, about the planted toe joint) the plan gives it.
  double heel_rise_u = -1;
  double heel_pitch_rad = 0;
};
FootSample sample_foot(const GaitPlan& plan, Side side, double t, const FootGeometry& foot);

/// A foot in its toe off (`s.heel_rise_u` >= 0) with its heel raised to `pitch_rad` about the
/// planted toe joint instead of the plan's pitch.
FootSample with_heel_pitch(const GaitPlan& plan, const FootSample& s, const FootGeometry& foot, double pitch_rad);

/// Where the walk is in its cycle at a time: `cycle` counts gait cycles, its fraction is the
/// phase (0 at a left heel strike, 0.5 at a right one, linear between heel strikes); `weight`
/// is how much the body walks (0 standing, 1 walking; min-jerk ramps over the first and last
/// steps of each bout).
struct GaitPhase {
  double cycle = 0;
  double weight = 0;
};
GaitPhase gait_phase(const GaitPlan& plan, double t);

/// Body centre (x, z), mean ground height (y) and heading at time t.
BodyKnot sample_body(const GaitPlan& plan, double t);

}  // namespace footfix
