// The frame rate a clip's locomotion implies, to catch a stated rate that contradicts the motion
// (a 30 Hz sensor written with "Frame Time: 0.01", 100 Hz). Stride length and hip height do not
// depend on the frame rate; speed does. Alexander's dynamic similarity relates them for walking
// and running: stride / hip_height = 2.3 * Fr^0.3 with Fr = v^2 / (g * hip_height). The speed it
// predicts from the stride, over the speed measured at the stated rate, estimates the rate error
// (calibrated so that correctly stated human clips give about 1).
#pragma once

#include <optional>
#include <string>

#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

struct GaitFrameRate {
  double stated_fps = 0;      ///< the clip's rate as read
  double likely_fps = 0;      ///< the common rate nearest stated_fps * factor
  /// Predicted over measured speed, calibrated on human clips: true rate / stated rate.
  double factor = 1;
  double stride_m = 0;        ///< median stride (two steps), meters
  double speed_mps = 0;       ///< median step length over median step time at the stated rate, m/s
  double hip_height_m = 0;    ///< mean pelvis height above the lower foot, meters
  int steps = 0;              ///< steps (feet passing each other) the estimate is made from
  /// True when the motion clearly contradicts the stated rate: enough steps, a factor outside
  /// [0.6, 1.6] and a likely rate other than the stated one.
  bool contradicts = false;
};

/// Estimates the rate of `clip` (internal frame: meters, Y up) from its locomotion; nullopt when
/// the clip does not travel in steps enough to tell (in place, standing, fewer than 3 steps).
std::optional<GaitFrameRate> gait_frame_rate(const Clip& clip, const Rig& rig);

/// "the file states 100 fps but its motion looks like 30 fps (...); processed at 30 fps, ..."
std::string describe_rate_contradiction(const GaitFrameRate& rate);

}  // namespace footfix
