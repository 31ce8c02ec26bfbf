// Leg chain solve: puts one leg's contact joint (toe, or heel on a rig
// without toes) on a world-space target at one frame, keeping as much of the pose as possible.
// A plain job: it edits only the local rotations of the leg's hip, knee, heel and toe joints of
// the given frame, allocates nothing and keeps no state.
#pragma once

#include "footfix/core/clip.h"
#include "footfix/ik/leg_heights.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

struct LegIkSettings {
  /// Soft reach limit width s (meters, > 0): the heel's distance from the hip approaches the
  /// input pose's |hip - heel| only exponentially, starting s before it.
  double softness_m = 0.005;
  /// apply_offline_solve: the soft limit ends at the straight leg (thigh plus shin) instead of
  /// near the input pose's |hip - heel| (for targets a reach-limited solve kept within the leg).
  bool reach_to_straight = false;
  /// Largest pitch (degrees, 0 - 60; 0: off) of the foot about its toe target that brings a heel
  /// target beyond the soft reach limit back within it, as much as LegIkHints::foot_pitch allows:
  /// the heel rises (as in a heel-off) and the toe lands on its target instead of missing it.
  /// The pitch is the needed one up to 70% of the max, then saturates smoothly towards the max
  /// (as soft_reach_m, over 30% of the max), so it never snaps. 40 by default: with the pelvis
  /// kept up (OfflineSolveSettings::fast_pelvis_height) a heel-off reaches the long steps'
  /// targets that would otherwise lower the hips.
  double max_foot_pitch_deg = 40;
  /// Throws Error(usage) naming the bad field when a value is out of range or not finite.
  void validate() const;
};

struct LegIkResult {
  /// True when the contact joint ended within k_leg_ik_reach_tolerance_m of its target (after
  /// the target's height clamp).
  bool reached = false;
  /// Distance (meters) from the contact joint to its height-clamped target after the solve.
  double miss_m = 0;
};

/// Per-call hints for solve_leg from a caller that knows the whole clip (rigs with a toe).
struct LegIkHints {
  /// The heel-to-toe offset to keep in step 2 instead of the current pose's (world, meters; its
  /// direction is used, the pose's length kept: the foot is rigid), e.g. a smoothed one, so a
  /// planted toe's jitter in the source does not move the heel. Null: the pose's.
  const Vec3* heel_offset_ws = nullptr;
  /// The share (0 - 1) of LegIkSettings::max_foot_pitch_deg this frame's foot pitch is limited
  /// to: 1 where the toe is planted (a miss there is sliding left), easing to 0 in the swing
  /// around it (a swing target out of reach only bends the swing's path a little). 0: no pitch.
  double foot_pitch = 0;
};

/// Distance (meters) under which a target counts as reached.
inline constexpr double k_leg_ik_reach_tolerance_m = 1e-4;

/// Solves `leg` at `frame` of `clip` (internal frame: meters, Y up) so its contact joint lands on
/// `toe_target_ws`, in five steps: toe target height clamp; heel target = toe target + (heel -
/// toe) of the current pose, height clamped; two-bone IK of hip and knee with the soft reach
/// limit (bend axis = leg.knee_side_ls turned by the knee's world rotation); heel look-at so
/// the toe points at its target; toe look-at so the foot tip stays above toe_end_min_m.
/// `max_extension_m` is |hip - heel| of the INPUT (unmodified) pose of this frame; the heel is
/// never put farther than that from the hip. Modifies only the local rotations of leg.hip,
/// leg.knee, leg.heel and leg.toe at `frame`; every other value of the clip is left bit for bit.
/// Preconditions (asserted): leg.valid(), 0 <= frame < clip.frame_count, the chain hip -> knee
/// -> heel (-> toe) descends in the skeleton. Unreachable targets are not an error: the result
/// says how far the contact joint stayed from its target. Never produces NaN from finite input.
/// `hints` (see LegIkHints): a heel offset to keep, and how much the foot may pitch about the toe
/// target (between steps 2 and 3) to bring a heel target beyond the soft limit within it.
LegIkResult solve_leg(Clip& clip, int frame, const LegChain& leg, Vec3 toe_target_ws,
                      const LegHeights& heights, double max_extension_m,
                      const LegIkSettings& settings, const LegIkHints& hints = {});

/// max(y, floor) with the corner rounded over +-knee_m (all meters, knee_m > 0; C1): a height
/// that meets its floor is eased onto it over a few millimetres instead of stopping in one frame
/// (a clamp that switches on in one frame would jerk the leg). Never below the floor; at most
/// knee_m / 4 above max() (at y = floor).
double smooth_floor(double y, double floor, double knee_m);

/// Distance the soft reach limit gives to a target at distance `l_m` from the hip (all meters):
/// l_m itself up to max_m - softness_m, then max_m - s + s (1 - exp(-(l_m - max_m + s) / s)).
double soft_reach_m(double l_m, double max_m, double softness_m);

/// The foot pitch of solve_leg (all positions world, meters; angles radians): `heel_target`
/// turned about `toe_target` (the foot rigid, in the plane of toe -> heel and toe -> hip) towards
/// `hip` until it stands `reach_m` from the hip, by soft_reach_m(needed, limit, 0.3 limit) with
/// limit = weight x max_pitch_rad: the needed turn itself up to exact_foot_pitch_rad(limit),
/// then a smooth saturation, so the turn never exceeds the limit and falls short of the needed
/// one only near it. (The weight limits the turn rather than scaling it: a frame easing in or
/// out still gives the needed turn exactly while it is small.) A heel beyond the leg's reach
/// rises, as in a heel-off, and the toe keeps its target. `heel_target` itself when it is within
/// reach, max_pitch_rad or weight <= 0, or the geometry is degenerate (heel on the toe, hip on
/// the toe, or the hip along the foot's line).
Vec3 pitched_heel_target(Vec3 toe_target, Vec3 heel_target, Vec3 hip, double reach_m, double max_pitch_rad,
                         double weight);

/// The largest turn (radians) pitched_heel_target gives exactly under a limit of `limit_rad`
/// (weight x max_pitch_rad): where its saturation begins, 70% of the limit. A caller planning on
/// the pitch to reach a target plans within this (lower_pelvis_to_reach).
double exact_foot_pitch_rad(double limit_rad);

}  // namespace footfix
