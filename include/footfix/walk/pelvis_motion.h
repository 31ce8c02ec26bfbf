// The pelvis of the procedural walk beyond following the feet: its sway, rotation and list over
// the gait cycle, and its height, which rises and falls once per step within what the legs reach.
// Meters, radians, seconds; amplitudes of adult level walking (Perry; Saunders et al. 1953).
#pragma once

#include <vector>

#include "footfix/walk/gait.h"

namespace footfix {

/// Pelvis motion relative to the body's centre and heading at one time, scaled by the gait
/// phase's walking weight (0 when standing).
struct PelvisSway {
  double lateral_m = 0;     ///< toward the character's left (+): over the stance foot, peak at mid-stance
  double rotation_rad = 0;  ///< about the vertical, + turns the left hip back; the swing-side hip leads
  double list_rad = 0;      ///< about the forward axis, + raises the left hip; the swing side drops
  /// Along the heading (+ ahead of the body's centre): the pelvis leads the feet's midpoint a
  /// little, and further in terminal swing and at heel strike, so the swing leg reaches less far
  /// ahead at its heel strike and the pelvis dips less there.
  double forward_m = 0;
};
/// `stairs`: the walk is over stairs (no extra lead at heel strike).
PelvisSway pelvis_sway(const GaitPlan& plan, const GaitPhase& phase, bool stairs);

/// Smooths per-frame body samples (centre x, z and heading) with a Gaussian of `sigma_frames`,
/// so the pelvis's horizontal acceleration is continuous across the footstep knots; y is kept.
void smooth_body_path(std::vector<BodyKnot>& per_frame, double sigma_frames);

/// Pelvis heights per frame (m), never above `cap` (the highest height both legs reach and the
/// standing height, per frame at `fps`): cap where it bends gently, a parabola under each sharp
/// dip where the reach passes from one leg to the other (upward acceleration at most
/// `max_up_mps2`), and a bridge over each sharp peak (downward acceleration at most
/// `max_down_mps2`). At mid-stance the height follows the stance leg's reach, so its knee is
/// straight; around heel strike the knees bend just enough for the parabola.
std::vector<double> pelvis_heights(const std::vector<double>& cap, double fps, double max_up_mps2, double max_down_mps2);

}  // namespace footfix
