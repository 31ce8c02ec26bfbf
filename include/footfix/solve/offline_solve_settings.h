// The offline solve's settings (solve/offline_solve.h runs it): which solver, and its weights,
// iterations and blends.
#pragma once

namespace footfix {

enum class OfflineSolver {
  reference,  ///< the position-based (PBD) sweeps, literally; O(iterations * frames)
  fast,       ///< Newton on the equivalent least-squares energy, banded Cholesky; O(frames)
};

struct OfflineSolveSettings {
  OfflineSolver solver = OfflineSolver::fast;
  /// Reference solver: sweeps over the clip (> 0).
  int reference_iterations = 25000;
  /// Fraction (0, 1] of a soft correction applied per reference step: velocity follows the
  /// input, pelvis-toe distance follows the input. Fast solver: sets the soft weights.
  double soft_factor = 0.05;
  /// Fraction (0, 1] of a hard correction per reference step: consecutive contact frames share
  /// the toe position at the contact height. Fast solver: sets the hard weights.
  double hard_factor = 0.9;
  /// Fast solver: at most this many Newton steps (> 0).
  int fast_max_steps = 40;
  /// Fast solver: stops when no position moved more than this in a step (meters, > 0).
  double fast_tolerance_m = 1e-5;
  /// Fast solver: weight of the pull of every particle towards its input position, relative to
  /// the soft weight (> 0). Fixes the global translation the other terms leave free, and bounds
  /// how far along the clip a correction spreads (about 1/sqrt(fast_anchor) frames): the
  /// reference's 25000 sweeps only spread corrections over a few dozen frames and so keep the
  /// clip's global path; with a vanishing anchor the whole path would shift by up to meters on
  /// long sliding clips.
  double fast_anchor = 1e-3;
  /// Fast solver: multiplies the hard (contact) weights the factors map to (>= 1). The reference
  /// only approaches its own lock after many sweeps; a stiffer lock here gives the strict
  /// locking the reference is heading for, at no cost in speed.
  double fast_hard_scale = 100;
  /// Fast solver: time (s, >= 0) over which the correction's velocity may change, so a lock
  /// starting or ending blends in over about this long (the runtime lock's inertialization
  /// plays the same part) instead of snapping the toe in one frame. 0: no smoothing.
  double fast_blend_s = 0.025;
  /// Fast solver: the same for the pelvis (s, >= 0; the longer of this and fast_blend_s is
  /// used): a pelvis correction that keeps planted feet in reach then starts before a contact
  /// does. 0: the pelvis smooths over fast_blend_s like the toes.
  double fast_pelvis_blend_s = 0;
  /// Fast solver: weight of the pull of the pelvis towards its input height, relative to the
  /// soft weight (>= 0; 0: off; with fast_pelvis_height_below_only, only up where it is below
  /// it). The pelvis-toe distances keep the input's, and a planted foot further away than in the
  /// input would otherwise bring the hips down by centimeters where the leg could straighten or
  /// the step shorten: lowered hips bend the knees ("dinosaur"). clean then moves the pelvis
  /// towards (up to 3 cm) and lowers it only as far as its planted targets need
  /// (lower_pelvis_to_reach). The price: with the hips kept up, the pelvis-toe distances of a
  /// stretched pelvis travel pull each lock towards the longer of the strides on either side of
  /// it; where a walk's stride length changes (its first and last steps, out of and into a
  /// standing pose) those pulls do not cancel and the lock moves off the toe's mean position
  /// towards the middle of the walk. Measured in docs/tuning.md.
  double fast_pelvis_height = 3;
  /// Fast solver: fast_pelvis_height pulls only a pelvis that comes down (a pelvis that rises,
  /// as over a slowed-down clip's shorter strides, is left free): on the frames whose pelvis
  /// the solve's first step (taken without the pull) or a later one brings below its input
  /// height; a frame pulled stays pulled, back towards its input height. The reach-limited
  /// solve (use_reach_limit) pulls both ways on every frame.
  bool fast_pelvis_height_below_only = true;
  /// Fast solver: weight (relative to the soft weight, >= 0; 0: off) of the leg-reach term on
  /// input.reach_m: the hip to heel-target distance beyond the reach is penalised, so every
  /// target is one the leg IK reaches (clean then ends the IK's soft limit at the straight
  /// leg). Experimental (bench_clean_quality --reach measures it).
  double fast_reach_weight = 0;
  /// Both solvers: time (s, in [0, 1]; 0: off) before each lock onset and after each release
  /// over which a toe's horizontal correction is blended into its contact's (a cubic with
  /// continuous position and velocity; contact frames untouched). The solve changes the
  /// correction's velocity within a few frames there, a pop in the toe's acceleration of up to
  /// several times the source's; this spreads it as inertialization does.
  double swing_blend_s = 0.15;
  /// Fast solver: time (s, >= 0) over which a contact's lock weight ramps from soft to hard at
  /// its onset and at its release (smoothstep, geometric in the weight). Longer removes more of
  /// the onset pop and leaves more slide in a contact's first and last frames. 0: hard at once.
  double fast_lock_blend_s = 0;
  /// Fast solver: a swing shorter than this (s, in [0, 1]; 0: off) between two contacts of a
  /// leg (a shuffle, a toe that barely lifts) ramps the lock weight of both contacts at that
  /// swing over this long, as fast_lock_blend_s does for every contact. The solve may give two
  /// neighbouring locks corrections centimeters apart, and a few frames of swing cannot carry
  /// that difference without a pop (4 x difference / swing time^2 at best: 20 m/s^2 for 3 cm in
  /// 75 ms); the locks then give over their first and last frames instead, at more slide in
  /// those contacts (docs/tuning.md).
  double fast_short_swing_s = 0.1;
  /// Fast solver: weight (relative to the soft weight, per contact frame, >= 0; 0: off) of the
  /// horizontal pull of a planted toe towards the mean of the input's toe positions over its
  /// contact (meters, world X and Z). Without it only the weak fast_anchor holds a lock in place,
  /// and the pelvis-toe distances of a leg whose joints drift, with the pelvis free to shift,
  /// carry the lock off its foothold by up to centimeters (most at the clip's first and last
  /// contacts); with it a toe that creeps about its foothold is locked on it. Larger values hold
  /// the lock closer to that mean and make a clip whose detected contacts start late or end
  /// early move the toe more in the frames just outside the lock.
  double fast_lock_anchor = 0.05;
  /// Fast solver: weight (relative to the soft weight, per contact frame, >= 0; 0: off) of the
  /// pull of a planted toe towards that same mean across the pelvis's travel over the contact
  /// only (horizontal, at right angles to it): the stance width. The pelvis-toe distances,
  /// no longer met by lowering the hips (fast_pelvis_height), pull planted toes in under the
  /// body; this keeps them out.
  double fast_lock_width_anchor = 1;
  /// Throws Error(usage) naming the bad field.
  void validate() const;
};

/// Turns on the reach-limited fast solve (the `solve.reach_limit` clean setting): the reach term,
/// the pull of the pelvis towards its height and longer correction blends (toes 0.15 s, pelvis
/// 0.3 s); no lock anchor (the reach term places the locks). It keeps the hips up and moves them
/// back along the path instead (a larger deviation from a stretched root path); docs/tuning.md
/// compares it with the default.
void use_reach_limit(OfflineSolveSettings& settings);

}  // namespace footfix
