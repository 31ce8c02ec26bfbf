// Gait figures of any walking clip, measured from its joint positions alone (forward kinematics),
// so a generated walk and an optical-mocap walk are measured the same way: sagittal joint
// angles per frame, the stance figures a clinician reads (Perry; Winter), cadence and step
// length, and peak accelerations. Internal frame (meters, Y up); angles in degrees.
//
// Angle conventions (per leg, from world positions of hip, knee, ankle and toe joints):
// - hip: thigh (hip to knee) against the vertical, in the plane of travel; + flexion (knee ahead).
// - knee: angle between thigh and shin; 0 straight, + flexion.
// - ankle: change of the shin-to-foot angle (knee-ankle against ankle-toe) from the rest pose;
//   + dorsiflexion (toes toward the shin), - plantarflexion.
#pragma once

#include <array>
#include <vector>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

/// Per-frame sagittal angles of one leg, degrees.
struct LegAngleCurves {
  std::vector<double> hip_deg, knee_deg, ankle_deg;
};

struct GaitFigures {
  std::array<LegAngleCurves, 2> angles;  ///< per Side
  /// Over the strides between inner contacts (neither a foot's first nor its last; all strides
  /// when a foot has fewer than 4 contacts):
  double speed_mps = 0;           ///< mean horizontal pelvis speed
  double cadence_steps_per_s = 0; ///< steps per second (2 / mean stride time)
  double step_length_m = 0;       ///< speed / cadence
  /// Stance figures, means over complete stances (a contact interval with contact on both sides
  /// of it; the contacts mark the contact joint planted):
  double knee_mid_stance_deg = 0;  ///< least knee flexion in the middle third of stance
  double knee_loading_deg = 0;     ///< most knee flexion in the first quarter of stance
  double hip_max_deg = 0, hip_min_deg = 0;  ///< extremes over the cycles (mean per cycle)
  double ankle_dorsi_max_deg = 0;  ///< most dorsiflexion during stance
  double push_off_plantar_deg = 0; ///< most plantarflexion from the last third of stance to 0.1 s after it
  /// Time from the heel joint starting to rise (2 cm above its stance height) to the end of
  /// the contact, s; negative when the heel rises only after the toe leaves.
  double heel_rise_lead_s = 0;
  int cycles = 0;                  ///< complete stances measured (both feet)
  /// Peak accelerations (m/s^2) over the whole clip: second differences of positions over 1/30 s
  /// (the same step at every frame rate, so capture noise at 120 Hz is not amplified 16-fold).
  double knee_accel_max = 0, toe_accel_max = 0, pelvis_vertical_accel_max = 0;
};

/// Measures `clip` (internal frame) whose legs are `rig`, with stances from `contacts`.
/// Figures without a complete stance stay 0.
GaitFigures measure_gait(const Clip& clip, const Rig& rig, const ContactResult& contacts);

/// Mean of a per-frame curve over the cycles between consecutive contact starts of `foot`, each
/// resampled to `samples` points (linear); empty without a complete cycle. A contact already under
/// way at the clip's first frame has no known start: no cycle begins with it.
std::vector<double> mean_gait_cycle(const std::vector<double>& curve, const FootContacts& foot, int samples = 51);

/// Frame-level F1 score of `detected` contacts against `truth` (1: the same frames; 0 when
/// neither has a contact frame in common).
double contact_f1(const FootContacts& truth, const FootContacts& detected);

/// Root mean square difference of two curves of equal length (NaN if the lengths differ or are
/// 0); with `remove_offset`, of the curves less their means (their shapes only).
double rms_difference(const std::vector<double>& a, const std::vector<double>& b, bool remove_offset = false);

/// RMS difference (degrees) of one angle's mean gait cycles (mean_gait_cycle) between two measured
/// walks, `a` cut into cycles by `contacts_a` and `b` by `contacts_b`, averaged over the sides on
/// which both have a complete cycle (NaN where neither side has); with `remove_offset`, of the
/// curves less their means.
double mean_cycle_rms(const GaitFigures& a, const ContactResult& contacts_a, const GaitFigures& b,
                      const ContactResult& contacts_b, std::vector<double> LegAngleCurves::*angle, bool remove_offset = false);

}  // namespace footfix
