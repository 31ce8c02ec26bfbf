// Settings of contact annotation (speed and height gates, majority vote, Gaussian smoothing,
// hysteresis). Every threshold carries its unit in its name; windows are in seconds and converted
// to frame counts per clip frame rate, so 30, 60, 100 and 120 Hz clips behave alike. Defaults are
// the reference method's values at 60 Hz. Every numeric field has a range a human would use
// (ContactSettingField::min/max, listed in contact_setting_fields() and `footfix clean --help`);
// validate() rejects anything outside it.
#pragma once

#include <span>
#include <string>

namespace footfix {

struct ContactSettings {
  /// Base speed threshold: the contact joint is still when slower than this (m/s, world space).
  double speed_threshold_mps = 0.25;
  /// Robustness to sliding: along the pelvis's horizontal travel direction, the speed threshold
  /// is raised to this fraction of the pelvis's horizontal speed (averaged over
  /// body_speed_window_s); vertical and sideways motion keep speed_threshold_mps. A clip whose
  /// root runs 25% ahead of (or behind) its legs moves planted toes at 0.25 x the pelvis speed
  /// along its travel; swinging feet move at 1.5-3 x. 0 disables the term.
  double body_speed_fraction = 0.5;
  /// Window of the moving average of the pelvis horizontal speed (s). Short enough to follow a
  /// jump's push-off and landing, where the pelvis speeds up and slows down within 0.2-0.3 s
  /// while both feet are planted (a 0.5 s average under-reads it there and drops those frames).
  double body_speed_window_s = 0.2;
  /// Ground velocity: the windowed median over this window (s) of the lower foot's horizontal
  /// velocity is taken as the velocity of the ground and removed from the feet's velocities, so
  /// in-place (treadmill) clips, whose planted feet move backwards at walking speed, and clips
  /// whose root runs ahead of the legs still show still feet. 0 disables it. Shorter than one
  /// jump (about 0.5-1 s), so the median of a clip of repeated jumps is not taken over flight
  /// phases, and longer than a walk's double support.
  double ground_velocity_window_s = 0.3;
  /// Capture noise (video and depth capture shake the feet by 0.5-2 cm from frame to frame): the
  /// white noise on the contact joints is estimated (white_noise_rms) and, where it would leave
  /// more than this fraction of speed_threshold_mps of noise per axis in the feet's velocities,
  /// the contact joints' and the pelvis's positions are smoothed with a Gaussian just wide enough
  /// (noise_smoothing_sigma) before speeds and heights are taken. Applied only when that sigma is
  /// a frame or more (clean capture needs far less and is detected as it is). 0 disables it.
  double denoise_speed_fraction = 0.15;
  /// Widest sigma of that smoothing (s): it keeps a run's 0.2 s contacts.
  double max_denoise_sigma_s = 0.1;
  /// Height gate: the contact joint must be less than this above the ground under it (m).
  double height_threshold_m = 0.10;
  /// The ground under a foot at a frame is the higher of the lowest heights its contact joint
  /// reaches within half this window before and within half after the frame (s), so stairs and
  /// platforms work, and a foot held still in the air for less than half of it is rejected.
  /// 0 = one flat floor (ContactResult::ground_height_m) for the whole clip.
  double ground_window_s = 1.0;
  /// Majority-vote filter window (s); converted to an odd frame count (5 frames at 60 Hz).
  double majority_window_s = 5.0 / 60.0;
  /// Standard deviation of the Gaussian smoothing of the binary signal (s; 1.5 frames at 60 Hz).
  double smoothing_sigma_s = 1.5 / 60.0;
  /// A contact run is kept when its smoothed signal reaches this value somewhere (0..1].
  double contact_threshold = 0.75;
  /// Hysteresis: a kept run extends over neighbouring frames whose smoothed value is at least
  /// this ((0, contact_threshold]); 0.5 puts the boundaries where the filtered signal switches.
  double release_threshold = 0.5;
  /// Clips at or below upsample_max_fps are resampled with cubic (Catmull-Rom) interpolation to
  /// at least upsample_target_fps before detection, and the results mapped back.
  bool upsample_low_fps = true;
  double upsample_max_fps = 30.0;
  double upsample_target_fps = 60.0;

  /// Throws Error(usage) naming the first bad field and its range ("contacts:
  /// speed_threshold_mps must be in [0.01, 5], got -1"); NaN and infinities are refused.
  void validate() const;
};

/// One settable field, for JSON files and command-line options generated from one table.
/// Numeric fields accept values in [min, max] (in the field's unit), or (min, max] when
/// min_exclusive. Ranges (units as in the names):
///   speed_threshold_mps      [0.01, 5]      body_speed_fraction   [0, 2]
///   body_speed_window_s      [0.01, 5]      ground_velocity_window_s [0, 10] (0 = off)
///   denoise_speed_fraction   [0, 1] (0 = off) max_denoise_sigma_s [0.01, 0.5]
///   height_threshold_m       [0.005, 1]     ground_window_s       [0, 10] (0 = flat floor)
///   majority_window_s        (0, 2]         smoothing_sigma_s     (0, 1]
///   contact_threshold        (0, 1]         release_threshold     (0, contact_threshold]
///   upsample_max_fps         [1, 240]       upsample_target_fps   [1, 240]
/// Bounded windows keep the filters' cost and memory bounded for any accepted value.
struct ContactSettingField {
  const char* key;  ///< JSON key and (with '-' for '_') long CLI option name
  const char* help;
  double ContactSettings::*number = nullptr;  ///< set for numeric fields
  bool ContactSettings::*flag = nullptr;      ///< set for boolean fields
  double min = 0;                             ///< numeric fields: smallest accepted value
  double max = 0;                             ///< numeric fields: largest accepted value
  bool min_exclusive = false;                 ///< numeric fields: min itself is refused
};

/// Every field of ContactSettings, in declaration order.
std::span<const ContactSettingField> contact_setting_fields();
/// A numeric field's accepted range as text: "in [0.01, 5]" or "> 0 and <= 2".
std::string contact_setting_range(const ContactSettingField& field);

}  // namespace footfix
