// Leg chain solve: puts one leg's contact joint (toe, or heel on a rig
// without toes) on a world-space target at one frame, keeping as much of the pose as possible.
// A plain job: it edits only the local rotations of the leg's hip, knee, heel and toe joints of
// the given frame, allocates nothing and keeps no state.
#pragma once

#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

/// World-space Y minima (meters) of the leg's joints over the source clip: the lowest each ever
/// goes, i.e. its height when standing on the ground. Targets are clamped to stay above them.
struct LegHeights {
  double toe_min_m = -1e30;      ///< contact joint (toe, or heel on a rig without toes)
  double heel_min_m = -1e30;     ///< heel (ankle / foot) joint
  double toe_end_min_m = -1e30;  ///< foot tip (toe_end joint or end site, see foot_tip_world)
};

struct LegIkSettings {
  /// Soft reach limit width s (meters, > 0): the heel's distance from the hip approaches the
  /// input pose's |hip - heel| only exponentially, starting s before it.
  double softness_m = 0.005;
  /// apply_offline_solve: the soft limit ends at the straight leg (thigh plus shin) instead of
  /// the input pose's |hip - heel| (for targets a reach-limited solve kept within the leg).
  bool reach_to_straight = false;
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
/// `heel_offset_ws` (rigs with a toe): the heel-to-toe offset to keep in step 2 instead of the
/// current pose's (world, meters; its direction is used, the pose's length kept: the foot is
/// rigid), e.g. a smoothed one, so a planted toe's jitter in the source does not move the heel.
LegIkResult solve_leg(Clip& clip, int frame, const LegChain& leg, Vec3 toe_target_ws,
                      const LegHeights& heights, double max_extension_m,
                      const LegIkSettings& settings, const Vec3* heel_offset_ws = nullptr);

/// Distance the soft reach limit gives to a target at distance `l_m` from the hip (all meters):
/// l_m itself up to max_m - softness_m, then max_m - s + s (1 - exp(-(l_m - max_m + s) / s)).
double soft_reach_m(double l_m, double max_m, double softness_m);

}  // namespace footfix
