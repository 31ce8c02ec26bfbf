#include "footfix/walk/gait.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "footfix/core/error.h"
#include "walk_curves.h"

namespace footfix {
namespace {

Quat rot_x(double a) { return axis_angle({1, 0, 0}, a); }
Quat rot_y(double a) { return axis_angle({0, 1, 0}, a); }
Quat rot_z(double a) { return axis_angle({0, 0, 1}, a); }
Vec3 forward_of(double yaw) { return {std::sin(yaw), 0, std::cos(yaw)}; }
Vec3 left_of(double yaw) { return {std::cos(yaw), 0, -std::sin(yaw)}; }
constexpr double k_max_turn_per_step = 20 * k_deg_to_rad;
double side_sign(Side s) { return s == Side::left ? 1.0 : -1.0; }
Side other(Side s) { return s == Side::left ? Side::right : Side::left; }

/// Deterministic uniform numbers in [0, 1) from a seed (SplitMix64; the same on every platform).
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  double uniform() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53;
  }
  double symmetric() { return 2 * uniform() - 1; }

 private:
  std::uint64_t state_;
};

/// Canonical foot frame to world: heading, terrain pitch and roll, then the foot's own pitch
/// (positive lifts the heel).
Quat foot_rotation(double yaw, double pitch, double roll, double foot_pitch) {
  return rot_y(yaw) * rot_x(pitch) * rot_z(roll) * rot_x(foot_pitch);
}

/// Ankle of a foot whose toe joint is at `toe` (pivot about the toe).
Vec3 ankle_from_toe(const FootGeometry& foot, Quat r, Vec3 toe) { return toe - rotate(r, foot.toe); }

Vec3 flat_ankle(const FootGeometry& foot, const Footstep& s) {
  return ankle_from_toe(foot, foot_rotation(s.yaw_rad, s.pitch_rad, s.roll_rad, 0), s.toe_m);
}

/// Swing profile of the extra plantar flexion of early swing (the shin swings forward before the
/// foot follows), and of the foot's lift where it does not lift early (lift_bump): u^3 (1 - u)^k,
/// 0 at both ends with zero velocity and acceleration, scaled to peak 1 at u = 3 / (3 + k). With
/// `early` k is 4.5, peak at u = 2/5 (a larger k jolts the knee just after the lift;
/// docs/tuning.md); else k is 4, peak at u = 3/7 (see early_lift).
double swing_bump(double u, bool early) {
  u = std::clamp(u, 0.0, 1.0);
  const double v = 1 - u;
  // The peaks' values: 0.4^3 0.6^4.5 and (3/7)^3 (4/7)^4.
  if (early) return u * u * u * v * v * v * v * std::sqrt(v) / (0.064 * 0.1296 * std::sqrt(0.6));
  return u * u * u * v * v * v * v / (27.0 * 256.0 / 823543.0);
}

/// Profile of the swing foot's lift (u in [0, 1]). Where it lifts early (early_lift):
/// u^2 (1 - u)^4.5 scaled to peak 1 at u = 4/13, its upward acceleration brought in over the
/// first k_early_lift_onset_share of the swing (a minimum-jerk ramp), so the foot leaves the
/// ground with velocity and acceleration continuous but rises at once, as adults' knee flexion in
/// initial swing lifts it; the knee then flexes into its swing without stalling after the lift
/// (the shared optical-mocap walks' knees flex steadily through their toe off; docs/tuning.md).
/// The extra pitch of early swing keeps swing_bump: on the quicker profile it jolts the knee just
/// after the lift. Elsewhere the lift is swing_bump.
constexpr double k_early_lift_onset_share = 0.1;
constexpr double k_early_lift_fall_power = 4.5;

double lift_bump(double u, bool early) {
  if (!early) return swing_bump(u, false);
  u = std::clamp(u, 0.0, 1.0);
  constexpr double k = k_early_lift_fall_power, peak = 2 / (2 + k);
  const double onset = min_jerk(u / k_early_lift_onset_share);
  return onset * u * u * std::pow(1 - u, k) / (peak * peak * std::pow(1 - peak, k));
}

/// Terminal swing's hover: the foot comes down onto its foothold later, by up to hover_m above
/// the plain swing late in it (u^36 (1 - u)^3, peak 1 at u = 12/13: velocity and acceleration
/// stay zero at both ends). Just before the heel strike the swing foot is over its foothold while
/// the hip still trails it, and the leading leg's reach sets how low the pelvis dips there; a foot
/// held higher there lets the pelvis stay higher. 1 cm from 1.3 m/s, none up to 0.8 m/s, whose
/// dip is shallow (there the hover only sharpens the pelvis's path; docs/tuning.md), and none
/// onto footholds pitched 18 degrees or more.
constexpr double k_hover_m = 0.01;
constexpr double k_hover_power = 36;
constexpr double k_hover_from_speed_mps = 0.8;
constexpr double k_hover_full_speed_mps = 1.3;
constexpr double k_hover_full_pitch_rad = 10 * k_deg_to_rad;
constexpr double k_hover_no_pitch_rad = 18 * k_deg_to_rad;

double hover_profile(double u) {
  u = std::clamp(u, 0.0, 1.0);
  const double peak = k_hover_power / (k_hover_power + 3);
  const double v = 1 - u;
  return std::pow(u / peak, k_hover_power) * v * v * v / ((1 - peak) * (1 - peak) * (1 - peak));
}

/// The hover (m) at a speed onto a foothold pitched `pitch_rad`: full up to k_hover_full_pitch_rad,
/// none from k_hover_no_pitch_rad (on steep climbs the contact detector reads the later landing as a
/// later plant, and their F1 is already the lowest).
double hover_height_m(double speed_mps, double pitch_rad) {
  const double by_speed =
      std::clamp((speed_mps - k_hover_from_speed_mps) / (k_hover_full_speed_mps - k_hover_from_speed_mps), 0.0, 1.0);
  const double fade_rad = k_hover_no_pitch_rad - k_hover_full_pitch_rad;
  const double by_pitch = std::clamp((k_hover_no_pitch_rad - std::abs(pitch_rad)) / fade_rad, 0.0, 1.0);
  return k_hover_m * by_speed * by_pitch;
}

/// Whether the swing from `from` to `to` lifts the foot early (lift_bump): on one stair tread or
/// level, between footholds pitched less than k_hover_no_pitch_rad. Up or down a stair the later
/// lift keeps the sole clear of the treads as before; on steep slopes the earlier one moved the
/// contact detector's reading of the lift (docs/tuning.md).
bool early_lift(const Footstep& from, const Footstep& to) {
  const bool walking = to.state == GaitState::left_go || to.state == GaitState::right_go;
  const bool gentle = std::abs(from.pitch_rad) < k_hover_no_pitch_rad && std::abs(to.pitch_rad) < k_hover_no_pitch_rad;
  return walking && gentle && from.tread == to.tread;
}

/// Extra foot pitch of early swing, as a fraction of the step's toe off angle, at its peak.
constexpr double k_late_push_off = 0.22;

/// Profile of that extra pitch over the swing (u in [0, 1]): u^3 (1 - u)^16 scaled to peak 1 at
/// u = 3/19, so it starts with zero velocity and acceleration at the lift and is gone long before
/// the heel strike.
double late_push_off(double u) {
  u = std::clamp(u, 0.0, 1.0);
  constexpr double k = 16, peak = 3.0 / (3.0 + k);
  return std::pow(u, 3) * std::pow(1 - u, k) / (std::pow(peak, 3) * std::pow(1 - peak, k));
}

/// Plantar flexion of terminal swing, about the ankle, as a share of the step's heel strike
/// angle at its peak. The swing's pitch arrives at the heel strike already rolling toward flat, so
/// on its way from the toe off it would turn the toes up past the heel strike's angle first, a
/// late swing far more dorsiflexed than people's. Turned about the ankle, the foot moves nearer
/// the shin and the leg moves as before. Only on walking steps
/// that lift early (early_lift): a START or STOP step is short and slow, and its toe, lowered,
/// hangs near the ground long enough for a contact detector to read it as planted.
constexpr double k_swing_plantar_share = 0.9;

/// Profile of that plantar flexion over the swing: u^14 (1 - u)^5 scaled to peak 1 at u = 14/19,
/// zero with zero velocity and acceleration at the lift and at the heel strike. Late enough that
/// the lowered toes need no higher lift (an earlier peak raises the swing, and with it the hip
/// and knee); later or larger, the runtime lock on hills holds a toe tip lower than the walk's
/// own lowest (docs/tuning.md).
double swing_plantar(double u) {
  u = std::clamp(u, 0.0, 1.0);
  constexpr double a = 14, b = 5, peak = a / (a + b);
  return std::pow(u, a) * std::pow(1 - u, b) / (std::pow(peak, a) * std::pow(1 - peak, b));
}

double lerp_angle(double a, double b, double t) {
  double d = std::remainder(b - a, 2 * k_pi);
  return a + d * t;
}

struct FootPose {
  Quat rotation;
  Vec3 ankle;
  Quat toe_rotation;
};

/// Quintic from p0 (rate v0) to p1 (rate v1) over u in [0, 1], with zero acceleration at both
/// ends; rates per unit u.
double quintic(double p0, double v0, double p1, double v1, double u) {
  u = std::clamp(u, 0.0, 1.0);
  const double u3 = u * u * u, u4 = u3 * u, u5 = u4 * u;
  return p0 * (1 - 10 * u3 + 15 * u4 - 6 * u5) + v0 * (u - 6 * u3 + 8 * u4 - 3 * u5) + v1 * (-4 * u3 + 7 * u4 - 3 * u5) +
         p1 * (10 * u3 - 15 * u4 + 6 * u5);
}

/// Rate at which the heel still rises when the toe leaves the ground, per unit of the heel rise's
/// progress and as a share of the toe off angle: the foot keeps rolling onto its toes into the
/// swing, so the ankle is already moving at the lift (the swing's pitch starts at this rate).
/// Not from one stair tread to another, where the foot swings up past the riser at once.
constexpr double k_heel_rise_exit_rate = 0.8;
/// The same on walking steps that lift early (early_lift) with GaitSettings::fast_heel_exit: the
/// heel leaves the ground rising three times as fast, so the trailing knee, which the heel rise's
/// late blend into the plan (heel_rise.h) flexes quickly, keeps moving forward through the lift
/// instead of stopping there and being pulled on by the swing. The swing carries the excess over
/// k_heel_rise_exit_rate only through its first k_exit_carry_share (exit_carry), so the foot does
/// not pitch much further after the lift.
constexpr double k_walking_exit_rate = 2.4;
constexpr double k_exit_carry_share = 0.2;

/// Footstep::toe_off_exit_rate of the step from `from` to `to`.
double planned_exit_rate(const Footstep& from, const Footstep& to, bool fast) {
  if (from.tread != to.tread) return 0.0;
  return fast && early_lift(from, to) ? k_walking_exit_rate : k_heel_rise_exit_rate;
}

/// Pitch (per unit `excess_rate`, a rate per unit u of the swing) that carries the heel rise's
/// exit rate beyond k_heel_rise_exit_rate into early swing: the quintic's start-rate term over
/// the first k_exit_carry_share of the swing, so it starts at that rate with zero acceleration
/// and is gone, at rest, by the end of its share.
double exit_carry(double excess_rate, double u) {
  const double s = std::clamp(u / k_exit_carry_share, 0.0, 1.0);
  return excess_rate * k_exit_carry_share * quintic(0, 1, 0, 0, s);
}

/// Toe off toward `to`: pitch grows from 0 to the step's toe_off angle about the toe joint, from
/// rest to the step's exit rate.
double toe_off_pitch(const Footstep& to, double u) {
  return to.toe_off_rad * quintic(0, 0, 1, to.toe_off_exit_rate, u);
}

/// A foot on `from` with its heel raised by `p` about the toe joint, the toe segment flat.
FootPose heel_raised_pose(const FootGeometry& foot, const Footstep& from, double p) {
  FootPose pose;
  pose.rotation = foot_rotation(from.yaw_rad, from.pitch_rad, from.roll_rad, p);
  pose.ankle = ankle_from_toe(foot, pose.rotation, from.toe_m);
  pose.toe_rotation = foot_rotation(from.yaw_rad, from.pitch_rad, from.roll_rad, 0);
  return pose;
}

FootPose toe_off_pose(const FootGeometry& foot, const Footstep& from, const Footstep& to, double u) {
  return heel_raised_pose(foot, from, toe_off_pitch(to, u));
}

/// Pitch rate (rad/s, toward flat) of a foot at its heel strike on `to`: the foot keeps rolling
/// through the heel strike, so the toe does not stop in the air there.
double heel_strike_rate(const Footstep& to) { return to.heel_strike_rad / std::max(1e-6, to.plant_s - to.heel_strike_s); }

/// The forefoot meets the ground still rolling, at this fraction of the heel strike's roll rate
/// (the ground stops it), so the toe joint's plant is a distinct event rather than a slow
/// approach that looks planted frames early.
constexpr double k_foot_flat_rate = 0.8;

/// Heel strike on `to`: toes up by heel_strike (u = 0) rolling down about the heel to flat (u = 1).
FootPose heel_strike_pose(const FootGeometry& foot, const Footstep& to, double u) {
  const double rate = heel_strike_rate(to) * (to.plant_s - to.heel_strike_s);
  const double p = quintic(-to.heel_strike_rad, rate, 0, k_foot_flat_rate * rate, u);
  const Quat flat = foot_rotation(to.yaw_rad, to.pitch_rad, to.roll_rad, 0);
  const Vec3 heel = flat_ankle(foot, to) + rotate(flat, foot.heel_sole);
  FootPose pose;
  pose.rotation = foot_rotation(to.yaw_rad, to.pitch_rad, to.roll_rad, p);
  pose.ankle = heel - rotate(pose.rotation, foot.heel_sole);
  pose.toe_rotation = pose.rotation;
  return pose;
}

/// A swing from one stair tread down to another.
bool descends(const Footstep& from, const Footstep& to) { return from.tread != to.tread && to.toe_m.y < from.toe_m.y; }

/// Share of a stair descent's swing over which the foot travels forward, and share after whose
/// start it goes down: the foot passes over the nosings before it drops onto the lower tread.
constexpr double k_descent_forward_share = 0.75;
constexpr double k_descent_drop_start = 0.35;

/// The way of a sole point from `a` (at the lift, u = 0) to `b` (at the heel strike, u = 1),
/// before the swing's lift: a minimum-jerk line, except down a stair, where it moves forward
/// first and drops after (each part minimum-jerk, so velocity and acceleration stay continuous).
Vec3 sole_path(Vec3 a, Vec3 b, const Footstep& from, const Footstep& to, double u) {
  if (!descends(from, to)) return lerp(a, b, min_jerk(u));
  const double forward = min_jerk(u / k_descent_forward_share);
  const double drop = min_jerk((u - k_descent_drop_start) / (1 - k_descent_drop_start));
  const Vec3 level = lerp(a, b, forward);
  return {level.x, a.y + (b.y - a.y) * drop, level.z};
}

/// Share of the swing over which the toe segment turns from flat (as it left the ground) to the
/// foot's pitch (minimum-jerk). A quicker turn swings the ankle about the tip abruptly: the
/// knee's peak acceleration, just after toe off, comes mostly from it. Up onto a higher stair
/// tread it turns sooner: a toe held flat longer would catch the riser, and the lift that clears
/// it would be out of the leg's reach.
constexpr double k_toe_turn_share = 0.6;
constexpr double k_climb_toe_turn_share = 0.3;
/// The toe tip clears the ground at once: it rises this far (m) over this share of the swing,
/// then keeps it while it leads the foot. With the toe segment turning slowly, the toe joint
/// would otherwise hang just above its foothold after the lift, where a contact detector still
/// reads it as planted.
constexpr double k_tip_clear_m = 0.01;
constexpr double k_tip_clear_share = 0.13;
/// The tip leaves the ground briskly, rising at this multiple of its clearance's mean rate, as the
/// forefoot meets it still rolling (k_foot_flat_rate): the toe joint's lift is a distinct event,
/// not a start from rest that keeps it within a detector's still-foot speed for most of a frame.
constexpr double k_tip_exit_rate = 3.0;

/// Height (m) of the toe tip's clearance at u of the swing: from its exit rate at the lift to rest
/// at k_tip_clear_m (quintic, zero acceleration at both ends; it passes k_tip_clear_m by about 1%
/// on the way).
double tip_clearance_m(double u) {
  return k_tip_clear_m * quintic(0, k_tip_exit_rate, 1, 0, u / k_tip_clear_share);
}

/// Swing from `from` (after its toe off) to `to` (at its heel strike), u in [0, 1], with lift.
FootPose swing_pose(const FootGeometry& foot, const Footstep& from, const Footstep& to, double u, double lift) {
  const FootPose a = toe_off_pose(foot, from, to, 1);
  const FootPose b = heel_strike_pose(foot, to, 0);
  const double w = min_jerk(u);
  // Pitch from toe off (leaving at the heel rise's exit rate, its excess carried only into early
  // swing) to heel strike, arriving with the heel strike's roll rate, plus the plantar flexion of
  // early swing (the shin swings forward before the foot follows). Rates per unit u of the swing.
  const double swing_s = std::max(1e-6, to.heel_strike_s - to.lift_s), roll_s = std::max(1e-6, to.lift_s - to.roll_begin_s);
  const double per_exit_rate = to.toe_off_rad * swing_s / roll_s;
  const double exit_rate = std::min(to.toe_off_exit_rate, k_heel_rise_exit_rate) * per_exit_rate;
  const double excess_rate = std::max(0.0, to.toe_off_exit_rate - k_heel_rise_exit_rate) * per_exit_rate;
  const double rate = heel_strike_rate(to) * swing_s;
  const bool early = early_lift(from, to);
  const double p = quintic(to.toe_off_rad, exit_rate, -to.heel_strike_rad, rate, u) + exit_carry(excess_rate, u) +
                   0.3 * to.toe_off_rad * swing_bump(u, early);
  FootPose pose;
  pose.rotation = foot_rotation(lerp_angle(from.yaw_rad, to.yaw_rad, w), from.pitch_rad + (to.pitch_rad - from.pitch_rad) * w,
                                from.roll_rad + (to.roll_rad - from.roll_rad) * w, p);
  // The toe segment stays flat as it leaves the ground, then follows the foot.
  const bool climbs = from.tread != to.tread && !descends(from, to);
  const double toe_flat = 1 - min_jerk(u / (climbs ? k_climb_toe_turn_share : k_toe_turn_share));
  pose.toe_rotation = slerp(pose.rotation, a.toe_rotation, toe_flat);
  // The toe tip leads the foot off the ground and the heel leads it onto the next foothold: each
  // travels between its two ends (velocity and acceleration zero there) lifted by the same bump,
  // and the ankle hangs from the tip at the lift and from the heel at the heel strike. Hung from
  // the heel alone, the foot, still pitched toes-down in early swing, would sink its tip as the
  // heel comes down, and the lift that cleared it would raise the whole swing and bend the knee
  // far past an adult's. Up onto a higher stair tread the heel leads all the way: a tip led
  // swing would reach over the riser with the foot still low.
  const Vec3 up{0, lift * lift_bump(u, early) + (from.tread == to.tread ? to.hover_m * hover_profile(u) : 0.0), 0};
  const Vec3 heel_a = a.ankle + rotate(a.rotation, foot.heel_sole), heel_b = b.ankle + rotate(b.rotation, foot.heel_sole);
  const Vec3 from_heel = sole_path(heel_a, heel_b, from, to, u) + up - rotate(pose.rotation, foot.heel_sole);
  if (from.tread == to.tread || descends(from, to)) {
    const Vec3 tip_a = a.ankle + rotate(a.rotation, foot.toe) + rotate(a.toe_rotation, foot.tip_sole - foot.toe);
    const Vec3 tip_b = b.ankle + rotate(b.rotation, foot.toe) + rotate(b.toe_rotation, foot.tip_sole - foot.toe);
    const Vec3 tip_up{0, tip_clearance_m(u), 0};
    const Vec3 from_tip = sole_path(tip_a, tip_b, from, to, u) + up + tip_up -
                          rotate(pose.toe_rotation, foot.tip_sole - foot.toe) - rotate(pose.rotation, foot.toe);
    pose.ankle = lerp(from_tip, from_heel, w);
  } else {
    // Up a stair the heel leads from the lift, and the toe segment, turning from flat to the
    // foot's toes-down pitch, would push the tip into the tread it leaves: the whole foot rises
    // by the tip's clearance at once, handed over to the heel's way as the swing goes on.
    pose.ankle = from_heel + Vec3{0, tip_clearance_m(u) * (1 - w), 0};
  }
  // Push-off goes on past the lift (adults plantar flex most just after toe off): the whole foot
  // pitches further about its tip sole point, which stays where it is, by up to
  // k_late_push_off of the toe off angle early in the swing. Not onto another stair tread, where
  // the foot swings up past the riser at once.
  const double e = from.tread == to.tread ? k_late_push_off * to.toe_off_rad * late_push_off(u) : 0.0;
  if (e != 0) {
    const Vec3 toe = pose.ankle + rotate(pose.rotation, foot.toe);
    const Vec3 pivot = toe + rotate(pose.toe_rotation, foot.tip_sole - foot.toe);
    const Quat re = axis_angle(rotate(pose.rotation, Vec3{1, 0, 0}), e);
    pose.rotation = re * pose.rotation;
    pose.toe_rotation = re * pose.toe_rotation;
    pose.ankle = pivot + rotate(re, pose.ankle - pivot);
  }
  if (early) {
    const Quat rp = axis_angle(rotate(pose.rotation, Vec3{1, 0, 0}), k_swing_plantar_share * to.heel_strike_rad * swing_plantar(u));
    pose.rotation = rp * pose.rotation;
    pose.toe_rotation = rp * pose.toe_rotation;
  }
  return pose;
}

/// Lowest lift of the swing to `to` that keeps the sole `clearance` above the terrain.
double clearance_lift(const FootGeometry& foot, const Terrain& terrain, const Footstep& from, const Footstep& to,
                      double clearance) {
  double lift = clearance;
  const bool early = early_lift(from, to);
  for (int i = 1; i < 48; ++i) {
    const double u = i / 48.0;
    // The margin grows from 0 at the ends to `clearance` in mid swing.
    const double bump = lift_bump(u, early);
    const FootPose pose = swing_pose(foot, from, to, u, 0);
    const Vec3 toe = pose.ankle + rotate(pose.rotation, foot.toe);
    const Vec3 points[5] = {pose.ankle + rotate(pose.rotation, foot.heel_sole), pose.ankle,
                            toe + rotate(pose.toe_rotation, foot.ball_sole - foot.toe),
                            toe + rotate(pose.toe_rotation, foot.tip_sole - foot.toe),
                            toe + rotate(pose.toe_rotation, foot.tip - foot.toe)};
    for (const Vec3& p : points) {
      const double deficit = terrain.height(p.x, p.z) + clearance * bump - p.y;
      if (deficit > 0) lift = std::max(lift, deficit / std::max(bump, 0.15));
    }
  }
  return std::min(lift, 0.6);
}

/// Heel strike to foot flat, in step periods, on walking steps between gentle footholds
/// (early_lift): 9.5% of the gait cycle. The forefoot comes down over the loading response while
/// the knee flexes; a quicker roll plants the toe joint, where a contact detector starts the
/// cycle, before the shared optical-mocap walks' toes come down, and every later event of the
/// walk's cycle then lags theirs. Other steps roll on in k_short_roll_on_share, ending at the
/// same foot flat: onto steep footholds and on START and STOP steps the slower roll brings the
/// toe joint down slowly near the ground, where a contact detector reads it as planted early
/// (docs/tuning.md).
constexpr double k_roll_on_share = 0.19;
constexpr double k_short_roll_on_share = 0.16;
/// Longest heel strike to foot flat (s), and slowest roll onto the foot (rad/s), at any speed:
/// the shares above stretch with a slow walk's step period, and a step with a small toes-up angle
/// (a STOP step's, scaled with its shorter step) rolls slower still. Adults' forefoot comes down
/// steadily in about a tenth of a second; rolled slower, the toe joint hangs a few centimetres
/// above its foothold moving slower than a contact detector's still-foot speed, and the detector
/// reads it as planted before foot flat. Walks from about 1 m/s up roll quicker than both by the
/// shares alone (docs/tuning.md).
constexpr double k_max_roll_on_s = 0.13;
constexpr double k_min_roll_on_rate_rad_per_s = 1.5;

/// Lowest lift (m) of a START or STOP step's swing. Those steps are short and slow: a foot
/// skimming the ground at about the body's speed would stand still relative to the body, and a
/// contact detector given the walk made in place would take it for planted.
constexpr double k_start_stop_lift_m = 0.08;

/// Least distance (m) along the stairs from a planted foot's sole points to the edge of a tread.
constexpr double k_stair_edge_margin_m = 0.01;

/// Moves a stair foothold so the whole foot (heading `yaw`) stands on one tread, at most one
/// tread from the other foot's, up or down, k_stair_edge_margin_m from its edges where it fits.
void snap_to_stairs(const Terrain& terrain, const FootGeometry& foot, Vec3& toe, double yaw, int other_tread) {
  // The foot's extent along +Z from its toe joint: its sole points as turned by the heading.
  double rear = 1e9, front = -1e9;
  for (const Vec3& p : {foot.heel_sole, foot.ball_sole, foot.tip_sole}) {
    const double z = rotate(rot_y(yaw), p - foot.toe).z;
    rear = std::min(rear, z);
    front = std::max(front, z);
  }
  const double center_off = 0.5 * (rear + front), half = 0.5 * (front - rear), margin = k_stair_edge_margin_m;
  double zc = toe.z + center_off;
  int i = terrain.tread_index(zc);
  const double first = terrain.tread_begin_z(0), landing = terrain.tread_begin_z(terrain.stair_count);
  if (i == -1 && zc + half + margin > first) {
    const double back = zc + half + margin - first;
    const double ahead = first + 0.5 * terrain.stair_run_m - zc;
    if (back < ahead || terrain.stair_count == 0) zc -= back;
    else i = 0;
  }
  if (terrain.stair_rise_m != 0 && other_tread >= -1) i = std::clamp(i, other_tread - 1, other_tread + 1);  // one tread at most
  if (i >= 0 && i < terrain.stair_count) zc = terrain.tread_begin_z(i) + 0.5 * terrain.stair_run_m;
  if (i == terrain.stair_count && zc - half - margin < landing) zc = landing + half + margin;
  if (i == -1 && zc + half + margin > first) zc = first - half - margin;
  // Down off the flight's end tread, the foot lands as on one more tread (the middle of a run past
  // the edge), not a whole step on: a longer reach down would drop the hips past what the leg
  // left on the tread can hold.
  const bool down_off_top = terrain.stair_rise_m > 0 && i == -1 && other_tread == 0;
  const bool down_off_bottom = terrain.stair_rise_m < 0 && i == terrain.stair_count && other_tread == i - 1;
  if (down_off_top) zc = std::max(zc, std::min(first - half - margin, first - 0.5 * terrain.stair_run_m));
  if (down_off_bottom) zc = std::min(zc, std::max(landing + half + margin, landing + 0.5 * terrain.stair_run_m));
  toe.z = zc - center_off;
}

class Planner {
 public:
  Planner(const GaitSettings& s, const Terrain& t, const FeetGeometry& f) : s_(s), terrain_(t), feet_(f), random_(s.seed) {}

  GaitPlan run() {
    plan_.step_length_m = std::min(s_.max_step_m, natural_step_length_m(s_.speed_mps, s_.leg_length_m));
    // On stairs each step climbs one tread: the stride is the treads', and the step period is
    // kept short (0.5 m / speed), so the swing foot is not held up over the edge for long.
    if (terrain_.kind == TerrainKind::stairs) plan_.step_length_m = std::min(plan_.step_length_m, 0.5);
    plan_.step_period_s = plan_.step_length_m / s_.speed_mps;
    const double ts = plan_.step_period_s;
    // Events of adult walking in a cycle of 2 ts from heel strike (Perry): foot flat at 8-9.5%,
    // within the loading response (0-12%), heel rise 32% before toe off (at 30% with 12% double
    // support), toe off at 50% + the double support.
    // Double support shrinks with speed (12% of the cycle at 1.3 m/s; Murray 1964).
    const double double_support = std::clamp(0.12 - 0.08 * (s_.speed_mps - 1.3), 0.06, 0.18);
    plan_.roll_off_s = 0.64 * ts;
    plan_.swing_s = (1 - 2 * double_support) * ts + k_roll_on_share * ts;
    plan_.roll_on_s = k_roll_on_share * ts;
    for (Side side : {Side::left, Side::right}) {
      Footstep f;
      f.side = side;
      f.state = GaitState::idle;
      f.roll_begin_s = f.lift_s = f.heel_strike_s = f.plant_s = -1e9;
      place(f, Vec3{side_sign(side) * 0.5 * s_.idle_width_m, 0, 0}, 0);
      add(f);
    }
    add_knot(0);
    // The last walking step's heel rise comes up to one step after the bout's end; two STOP
    // steps follow, the second planted roll_off + swing after its heel rise; then the idle stance
    // holds a moment before the clip ends.
    const double stop_time = 3 * ts + plan_.roll_off_s + plan_.swing_s + 0.25;
    std::vector<std::pair<double, double>> bouts;
    const double d = s_.duration_s;
    if (s_.path.kind == PathKind::stop_go) {
      const double pause_begin = 0.4 * d, resume = pause_begin + 2 * ts + 1.0;
      bouts = {{0.5, pause_begin}, {resume, d - stop_time}};
    } else {
      bouts = {{0.5, d - stop_time}};
    }
    walk_begin_ = bouts.front().first;
    walk_end_ = std::max(walk_begin_ + ts, bouts.back().second);
    double t = 0;
    for (auto [begin, end] : bouts) {
      if (begin < t) begin = t;
      if (begin > d) break;
      t = walk_bout(begin, end);
    }
    if (s_.path.kind == PathKind::turn) {
      const double reached = current(Side::left).yaw_rad * k_rad_to_deg;
      if (std::abs(reached - s_.path.turn_deg) > 2) {
        char msg[200];
        std::snprintf(msg, sizeof msg,
                      "turn reaches %.0f of the %g degrees asked (a step turns at most %.0f degrees; a longer --duration "
                      "turns further)",
                      reached, s_.path.turn_deg, k_max_turn_per_step * k_rad_to_deg);
        plan_.warnings.emplace_back(msg);
      }
    }
    return std::move(plan_);
  }

 private:
  double heading(double t) const {
    if (s_.path.kind != PathKind::turn) return 0;
    const double u = std::clamp((t - walk_begin_) / (walk_end_ - walk_begin_), 0.0, 1.0);
    return s_.path.turn_deg * k_deg_to_rad * smoothstep(u);
  }

  const Footstep& current(Side side) const { return plan_.steps[plan_.per_side[static_cast<int>(side)].back()]; }

  /// Fills position, heading and terrain alignment of a foothold whose toe is at (x, z).
  const FootGeometry& foot(Side side) const { return feet_[static_cast<int>(side)]; }

  void place(Footstep& f, Vec3 toe, double yaw) {
    const FootGeometry& geo = foot(f.side);
    f.yaw_rad = yaw;
    const Vec3 center = toe + rotate(rot_y(yaw), 0.5 * (geo.heel_sole + geo.tip_sole) - geo.toe);
    const Vec3 n = rotate(rot_y(-yaw), terrain_.normal(center.x, center.z));
    const double max_pitch = s_.max_pitch_deg * k_deg_to_rad, max_roll = s_.max_roll_deg * k_deg_to_rad;
    f.pitch_rad = std::clamp(std::atan2(n.z, n.y), -max_pitch, max_pitch);
    f.roll_rad = std::clamp(std::asin(std::clamp(-n.x, -1.0, 1.0)), -max_roll, max_roll);
    const Quat flat = foot_rotation(yaw, f.pitch_rad, f.roll_rad, 0);
    f.toe_m = Vec3{toe.x, terrain_.height(toe.x, toe.z), toe.z} + rotate(flat, Vec3{0, geo.toe_height_m(), 0});
    // Where the pitch or roll is clamped (or the ground curves) a sole point can be below the
    // terrain: the foot is raised until none is, and stands on its heel or toe.
    double sink = 0;
    for (const Vec3& p : {geo.heel_sole, geo.ball_sole, geo.tip_sole}) {
      const Vec3 w = f.toe_m + rotate(flat, p - geo.toe);
      sink = std::max(sink, terrain_.height(w.x, w.z) - w.y);
    }
    f.toe_m.y += sink;
    f.heel_sole_m = f.toe_m + rotate(flat, geo.heel_sole - geo.toe);
    f.ball_sole_m = f.toe_m + rotate(flat, geo.ball_sole - geo.toe);
    f.tip_sole_m = f.toe_m + rotate(flat, geo.tip_sole - geo.toe);
    if (sink > 0.002 && !raised_warned_) {
      raised_warned_ = true;
      char msg[200];
      std::snprintf(msg, sizeof msg,
                    "terrain at x %.2f z %.2f m is steeper than the foot's pitch/roll limits (%g/%g deg): the foot stands "
                    "on its heel or toe, %.0f mm above the ground elsewhere",
                    center.x, center.z, s_.max_pitch_deg, s_.max_roll_deg, 1000 * sink);
      plan_.warnings.emplace_back(msg);
    }
    f.tread = terrain_.tread_index(center.z);
    if (terrain_.kind == TerrainKind::stairs) warn_of_edge(f);
  }

  /// Stairs: warns (once) where a foothold's sole comes nearer a tread's edge than
  /// k_stair_edge_margin_m, or crosses one: a tread shorter than the foot and its margins.
  void warn_of_edge(const Footstep& f) {
    double nearest = 1e9;
    for (const Vec3& p : {f.heel_sole_m, f.ball_sole_m, f.tip_sole_m}) {
      const int i = terrain_.tread_index(p.z);
      if (i != f.tread) nearest = -1;
      if (i >= 0) nearest = std::min(nearest, p.z - terrain_.tread_begin_z(i));
      if (i < terrain_.stair_count) nearest = std::min(nearest, terrain_.tread_begin_z(i + 1) - p.z);
    }
    if (nearest >= k_stair_edge_margin_m - 1e-9 || edge_warned_) return;
    edge_warned_ = true;
    char where[64];
    if (nearest < 0) std::snprintf(where, sizeof where, "crosses a tread's edge");
    else std::snprintf(where, sizeof where, "stands %.0f mm from a tread's edge", 1000 * nearest);
    char msg[240];
    std::snprintf(msg, sizeof msg,
                  "stair treads of %.2f m are too short for the foot (%.2f m heel to tip) and its %.0f mm margins: a "
                  "sole point %s at z %.2f m",
                  terrain_.stair_run_m, length(f.tip_sole_m - f.heel_sole_m), 1000 * k_stair_edge_margin_m, where,
                  f.ball_sole_m.z);
    plan_.warnings.emplace_back(msg);
  }

  void add(Footstep f) {
    f.index = static_cast<int>(plan_.steps.size());
    plan_.per_side[static_cast<int>(f.side)].push_back(f.index);
    plan_.steps.push_back(f);
  }

  void add_knot(double time) {
    const Footstep& l = current(Side::left);
    const Footstep& r = current(Side::right);
    BodyKnot k;
    k.time_s = time;
    const Vec3 c = 0.5 * (flat_ankle(foot(Side::left), l) + flat_ankle(foot(Side::right), r));
    const double ground = 0.5 * (terrain_.height(l.toe_m.x, l.toe_m.z) + terrain_.height(r.toe_m.x, r.toe_m.z));
    k.center = {c.x, ground, c.z};
    k.yaw_rad = lerp_angle(l.yaw_rad, r.yaw_rad, 0.5);
    if (!plan_.body.empty() && plan_.body.back().time_s >= time) plan_.body.back() = k;
    else plan_.body.push_back(k);
  }

  /// Plans one step of `side` beginning (heel rise) at `begin`, toward toe position `toe`. `size`
  /// is its length as a share of a level walking step; `shortening` the share the plan asked for
  /// before its seeded variation (steep ground: down to 0.5; the START step: half of that).
  void step(Side side, GaitState state, double begin, Vec3 toe, double yaw, double size, double shortening = 1.0) {
    const Footstep& from = current(side);
    const FootGeometry& geo = foot(side);
    Footstep f;
    f.side = side;
    f.state = state;
    f.phase = side == Side::left ? 0.25 : 0.75;
    f.roll_begin_s = begin;
    f.lift_s = begin + plan_.roll_off_s;
    f.plant_s = f.lift_s + plan_.swing_s;
    if (terrain_.kind == TerrainKind::stairs) snap_to_stairs(terrain_, geo, toe, yaw, current(other(side)).tread);
    place(f, toe, yaw);
    f.toe_off_rad = s_.toe_off_deg * k_deg_to_rad * std::clamp(size, 0.25, 1.0);
    // The heel strike's toes-up angle scales with the step, but not with the shortening on steep
    // ground or of the START step: the foot still rolls onto its foothold in the same share of the
    // step period, and at half the angle the toe joint comes down slowly close to the ground,
    // where a contact detector reads it as planted already (docs/tuning.md).
    f.heel_strike_rad = s_.heel_strike_deg * k_deg_to_rad * std::clamp(size / shortening, 0.25, 1.0);
    if (descends(from, f)) f.heel_strike_rad *= s_.descent_heel_strike_share;
    const double roll_on_s = early_lift(from, f) ? plan_.roll_on_s : k_short_roll_on_share * plan_.step_period_s;
    f.heel_strike_s = f.plant_s - std::min({roll_on_s, k_max_roll_on_s, f.heel_strike_rad / k_min_roll_on_rate_rad_per_s});
    f.toe_off_exit_rate = planned_exit_rate(from, f, s_.fast_heel_exit);
    f.lift_m = clearance_lift(geo, terrain_, from, f, s_.min_clearance_m);
    if (state != GaitState::left_go && state != GaitState::right_go) f.lift_m = std::max(f.lift_m, k_start_stop_lift_m);
    else f.hover_m = hover_height_m(s_.speed_mps, f.pitch_rad);
    add(f);
    // The body is midway between the feet at heel strike.
    add_knot(f.heel_strike_s + 0.05 * plan_.step_period_s);
  }

  double walk_bout(double begin, double end) {
    const double ts = plan_.step_period_s;
    add_knot(begin);  // the body holds the idle stance until the first heel rise
    Side side = Side::left;
    double t = begin;
    for (int k = 0;; ++k, t += ts, side = other(side)) {
      const Footstep& o = current(other(side));
      // The heading turns by at most k_max_turn_per_step relative to the other foot. Both are
      // unwrapped angles, so a turn that lags by more than half a circle keeps its direction.
      const double turn = heading(t + ts) - o.yaw_rad;
      const double yaw = o.yaw_rad + std::clamp(turn, -k_max_turn_per_step, k_max_turn_per_step);
      const double mid_yaw = lerp_angle(o.yaw_rad, yaw, 0.5);
      if (k > 0 && t > end) break;
      // Shorter steps on steep ground (rise or fall per meter along the heading above 0.05).
      const Vec3 n = terrain_.normal(o.toe_m.x, o.toe_m.z);
      const double grade = std::abs(dot(n, forward_of(mid_yaw))) / n.y;
      const double steep = std::clamp(1 - 2.0 * std::max(0.0, grade - 0.05), 0.5, 1.0);
      const double length = plan_.step_length_m * steep * (1 + 0.03 * random_.symmetric()) * (k == 0 ? 0.5 : 1.0);
      const double width = s_.walk_width_m + 0.008 * random_.symmetric();
      const Vec3 toe = o.toe_m + forward_of(mid_yaw) * length + left_of(yaw) * (side_sign(side) * width);
      const GaitState state = k == 0 ? GaitState::start : side == Side::left ? GaitState::left_go : GaitState::right_go;
      step(side, state, t, toe, yaw, length / plan_.step_length_m, steep * (k == 0 ? 0.5 : 1.0));
    }
    // Two steps back into the idle stance around the body's centre, the swing foot first.
    const Footstep& o = current(other(side));
    const double yaw = o.yaw_rad;
    const Vec3 center = o.toe_m - left_of(yaw) * (side_sign(o.side) * 0.5 * s_.walk_width_m) +
                        forward_of(yaw) * (0.5 * plan_.step_length_m);
    for (int k = 0; k < 2; ++k, t += ts, side = other(side)) {
      const Vec3 toe = center + left_of(yaw) * (side_sign(side) * 0.5 * s_.idle_width_m);
      const double size = length(Vec3{toe.x - current(side).toe_m.x, 0, toe.z - current(side).toe_m.z}) / plan_.step_length_m;
      step(side, side == Side::left ? GaitState::left_stop : GaitState::right_stop, t, toe, yaw, size);
    }
    return t;
  }

  const GaitSettings& s_;
  const Terrain& terrain_;
  const FeetGeometry& feet_;
  Random random_;
  GaitPlan plan_;
  double walk_begin_ = 0, walk_end_ = 1;
  bool raised_warned_ = false;
  bool edge_warned_ = false;
};

}  // namespace

double natural_step_length_m(double speed_mps, double leg_length_m) {
  return 0.85 * leg_length_m * std::pow(std::max(speed_mps, 0.0) / 1.3, 0.42);
}

const char* to_string(GaitState s) {
  switch (s) {
    case GaitState::idle: return "IDLE";
    case GaitState::start: return "START";
    case GaitState::left_go: return "LEFT GO";
    case GaitState::right_go: return "RIGHT GO";
    case GaitState::right_stop: return "RIGHT STOP";
    case GaitState::left_stop: return "LEFT STOP";
  }
  return "?";
}

WalkPath parse_walk_path(const std::string& spec) {
  WalkPath p;
  if (spec == "straight") return p;
  if (spec == "stop-go") {
    p.kind = PathKind::stop_go;
    return p;
  }
  if (spec.rfind("turn:", 0) == 0) {
    const std::string n = spec.substr(5);
    double v = 0;
    auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
    if (ec != std::errc() || end != n.data() + n.size() || n.empty() || !std::isfinite(v) || std::abs(v) > 720)
      fail(ErrorKind::usage, "--path " + spec + ": turn:DEG needs a number of degrees in [-720, 720]");
    p.kind = PathKind::turn;
    p.turn_deg = v;
    return p;
  }
  fail(ErrorKind::usage, "--path " + spec + ": expected straight, turn:DEG or stop-go");
}

std::string to_string(const WalkPath& path) {
  switch (path.kind) {
    case PathKind::straight: return "straight";
    case PathKind::stop_go: return "stop-go";
    case PathKind::turn: {
      char buf[32];
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, path.turn_deg);
      (void)ec;
      return "turn:" + std::string(buf, end);
    }
  }
  return "?";
}

void GaitSettings::validate() const {
  auto check = [](bool ok, const std::string& what) {
    if (!ok) fail(ErrorKind::usage, what);
  };
  check(std::isfinite(speed_mps) && speed_mps >= 0.2 && speed_mps <= 2.0, "--speed must be in [0.2, 2.0] m/s");
  check(std::isfinite(duration_s) && duration_s >= 2.0 && duration_s <= 600, "--duration must be in [2, 600] s");
  check(descent_heel_strike_share >= 0 && descent_heel_strike_share <= 1, "descent_heel_strike_share must be in [0, 1]");
}

int GaitPlan::alternation_breaks() const {
  int breaks = 0;
  for (size_t i = 1; i < steps.size(); ++i) {
    const Footstep& a = steps[i - 1];
    const Footstep& b = steps[i];
    if (a.state == GaitState::idle || b.state == GaitState::start) continue;
    if (a.side == b.side) ++breaks;
  }
  return breaks;
}

bool GaitPlan::steps_down_a_stair() const {
  for (const std::vector<int>& ids : per_side)
    for (size_t i = 1; i < ids.size(); ++i)
      if (descends(steps[ids[i - 1]], steps[ids[i]])) return true;
  return false;
}

GaitPlan plan_gait(const GaitSettings& settings, const Terrain& terrain, const FeetGeometry& feet) {
  settings.validate();
  return Planner(settings, terrain, feet).run();
}

FootSample sample_foot(const GaitPlan& plan, Side side, double t, const FootGeometry& foot) {
  const std::vector<int>& ids = plan.per_side[static_cast<int>(side)];
  // The last foothold planted (or being rolled onto) at time t, and the step after it.
  size_t i = 0;
  while (i + 1 < ids.size() && plan.steps[ids[i + 1]].heel_strike_s <= t) ++i;
  const Footstep& at = plan.steps[ids[i]];
  FootSample out;
  out.foothold = at.index;
  FootPose pose;
  if (t < at.plant_s) {  // heel strike roll onto `at`
    pose = heel_strike_pose(foot, at, (t - at.heel_strike_s) / (at.plant_s - at.heel_strike_s));
  } else if (i + 1 < ids.size() && t > plan.steps[ids[i + 1]].roll_begin_s) {
    const Footstep& next = plan.steps[ids[i + 1]];
    if (t <= next.lift_s) {
      out.heel_rise_u = std::clamp((t - next.roll_begin_s) / (next.lift_s - next.roll_begin_s), 0.0, 1.0);
      out.heel_pitch_rad = toe_off_pitch(next, out.heel_rise_u);
      pose = heel_raised_pose(foot, at, out.heel_pitch_rad);
      out.contact = true;
    } else {
      pose = swing_pose(foot, at, next, (t - next.lift_s) / (next.heel_strike_s - next.lift_s), next.lift_m);
      out.swinging = true;
    }
  } else {
    pose.rotation = pose.toe_rotation = foot_rotation(at.yaw_rad, at.pitch_rad, at.roll_rad, 0);
    pose.ankle = ankle_from_toe(foot, pose.rotation, at.toe_m);
    out.contact = true;
  }
  out.foot_rotation = pose.rotation;
  out.ankle = pose.ankle;
  out.toe_rotation = pose.toe_rotation;
  return out;
}

FootSample with_heel_pitch(const GaitPlan& plan, const FootSample& s, const FootGeometry& foot, double pitch_rad) {
  FootSample out = s;
  const FootPose pose = heel_raised_pose(foot, plan.steps[s.foothold], pitch_rad);
  out.foot_rotation = pose.rotation;
  out.ankle = pose.ankle;
  out.toe_rotation = pose.toe_rotation;
  out.heel_pitch_rad = pitch_rad;
  return out;
}

BodyKnot sample_body(const GaitPlan& plan, double t) {
  const std::vector<BodyKnot>& k = plan.body;
  if (t <= k.front().time_s) return k.front();
  if (t >= k.back().time_s) return k.back();
  size_t i = 0;
  while (k[i + 1].time_s < t) ++i;
  const BodyKnot& a = k[i];
  const BodyKnot& b = k[i + 1];
  const double h = b.time_s - a.time_s;
  // Cubic Hermite with finite-difference tangents; zero where the body holds still.
  auto tangent = [&](size_t j) -> Vec3 {
    if (j == 0 || j + 1 >= k.size()) return {};
    if (k[j].center == k[j - 1].center || k[j].center == k[j + 1].center) return {};
    return (k[j + 1].center - k[j - 1].center) / (k[j + 1].time_s - k[j - 1].time_s);
  };
  const double u = (t - a.time_s) / h;
  const double u2 = u * u, u3 = u2 * u;
  BodyKnot out;
  out.time_s = t;
  out.center = a.center * (2 * u3 - 3 * u2 + 1) + tangent(i) * (h * (u3 - 2 * u2 + u)) + b.center * (-2 * u3 + 3 * u2) +
               tangent(i + 1) * (h * (u3 - u2));
  out.yaw_rad = lerp_angle(a.yaw_rad, b.yaw_rad, smoothstep(u));
  return out;
}

}  // namespace footfix
