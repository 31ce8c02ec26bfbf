// Settings and input validation for the offline solve, and the solver switch.
#include "footfix/solve/offline_solve.h"

#include <cmath>
#include <string>

#include "footfix/core/error.h"
#include "solve/offline_window.h"
#include "solve/swing_blend.h"

namespace footfix {
namespace {

void require(bool ok, ErrorKind kind, const std::string& message) {
  if (!ok) fail(kind, "offline solve: " + message);
}

bool is_factor(double f) { return std::isfinite(f) && f > 0 && f <= 1; }

}  // namespace

void OfflineSolveSettings::validate() const {
  require(reference_iterations > 0, ErrorKind::usage,
          "reference_iterations must be > 0, got " + std::to_string(reference_iterations));
  require(is_factor(soft_factor), ErrorKind::usage,
          "soft_factor must be in (0, 1], got " + std::to_string(soft_factor));
  require(is_factor(hard_factor), ErrorKind::usage,
          "hard_factor must be in (0, 1], got " + std::to_string(hard_factor));
  require(fast_max_steps > 0, ErrorKind::usage,
          "fast_max_steps must be > 0, got " + std::to_string(fast_max_steps));
  require(std::isfinite(fast_tolerance_m) && fast_tolerance_m > 0, ErrorKind::usage,
          "fast_tolerance_m must be > 0, got " + std::to_string(fast_tolerance_m));
  require(std::isfinite(fast_anchor) && fast_anchor > 0, ErrorKind::usage,
          "fast_anchor must be > 0, got " + std::to_string(fast_anchor));
  require(std::isfinite(fast_hard_scale) && fast_hard_scale >= 1, ErrorKind::usage,
          "fast_hard_scale must be >= 1, got " + std::to_string(fast_hard_scale));
  require(std::isfinite(fast_blend_s) && fast_blend_s >= 0 && fast_blend_s <= 1, ErrorKind::usage,
          "fast_blend_s must be in [0, 1] s, got " + std::to_string(fast_blend_s));
  require(std::isfinite(fast_pelvis_blend_s) && fast_pelvis_blend_s >= 0 && fast_pelvis_blend_s <= 1, ErrorKind::usage,
          "fast_pelvis_blend_s must be in [0, 1] s, got " + std::to_string(fast_pelvis_blend_s));
  require(std::isfinite(fast_pelvis_height) && fast_pelvis_height >= 0, ErrorKind::usage,
          "fast_pelvis_height must be >= 0, got " + std::to_string(fast_pelvis_height));
  require(std::isfinite(fast_reach_weight) && fast_reach_weight >= 0, ErrorKind::usage,
          "fast_reach_weight must be >= 0, got " + std::to_string(fast_reach_weight));
  require(std::isfinite(fast_lock_anchor) && fast_lock_anchor >= 0, ErrorKind::usage,
          "fast_lock_anchor must be >= 0, got " + std::to_string(fast_lock_anchor));
  require(std::isfinite(fast_lock_width_anchor) && fast_lock_width_anchor >= 0, ErrorKind::usage,
          "fast_lock_width_anchor must be >= 0, got " + std::to_string(fast_lock_width_anchor));
  require(std::isfinite(swing_blend_s) && swing_blend_s >= 0 && swing_blend_s <= 1, ErrorKind::usage,
          "swing_blend_s must be in [0, 1] s, got " + std::to_string(swing_blend_s));
  require(std::isfinite(fast_lock_blend_s) && fast_lock_blend_s >= 0 && fast_lock_blend_s <= 1, ErrorKind::usage,
          "fast_lock_blend_s must be in [0, 1] s, got " + std::to_string(fast_lock_blend_s));
  require(std::isfinite(fast_short_swing_s) && fast_short_swing_s >= 0 && fast_short_swing_s <= 1, ErrorKind::usage,
          "fast_short_swing_s must be in [0, 1] s, got " + std::to_string(fast_short_swing_s));
}

void OfflineSolveInput::validate() const {
  const auto n = static_cast<size_t>(frame_count);
  require(frame_count >= 0, ErrorKind::process, "frame_count must be >= 0");
  require(std::isfinite(fps) && fps > 0, ErrorKind::process, "fps must be > 0");
  require(pelvis_ws.size() == n, ErrorKind::process,
          "pelvis_ws has " + std::to_string(pelvis_ws.size()) + " frames, expected " +
              std::to_string(n));
  // Per frame: the message is made only on failure.
  for (const Vec3& p : pelvis_ws)
    if (!is_finite(p)) require(false, ErrorKind::process, "pelvis_ws is not finite");
  for (int leg = 0; leg < 2; ++leg) {
    const std::string name = leg == 0 ? "left" : "right";
    require(
        toe_ws[leg].size() == n && contact[leg].size() == n && contact_height_m[leg].size() == n,
        ErrorKind::process, name + " leg arrays must have " + std::to_string(n) + " frames");
    for (const Vec3& p : toe_ws[leg])
      if (!is_finite(p)) require(false, ErrorKind::process, name + " toe_ws is not finite");
    for (size_t i = 0; i < n; ++i)
      if (contact[leg][i] && !std::isfinite(contact_height_m[leg][i]))
        require(false, ErrorKind::process, name + " contact height is not finite at frame " + std::to_string(i));
    require(!std::isnan(toe_min_height_m[leg]), ErrorKind::process,
            name + " toe_min_height_m is NaN");
    require(reach_m[leg].size() == reach_offset_m[leg].size() && (reach_m[leg].empty() || reach_m[leg].size() == n),
            ErrorKind::process, name + " reach arrays must be empty or have " + std::to_string(n) + " frames");
    for (size_t i = 0; i < reach_m[leg].size(); ++i)
      if (!(std::isfinite(reach_m[leg][i]) && reach_m[leg][i] > 0 && is_finite(reach_offset_m[leg][i])))
        require(false, ErrorKind::process, name + " reach is not finite and > 0 at frame " + std::to_string(i));
  }
}

void use_reach_limit(OfflineSolveSettings& settings) {
  settings.fast_reach_weight = 10;
  settings.fast_pelvis_height = 30;
  settings.fast_pelvis_height_below_only = false;
  settings.fast_blend_s = 0.15;
  settings.fast_pelvis_blend_s = 0.3;
  // The reach term decides where a lock out of the leg's reach goes; a pull of the lock towards
  // its input mean would fight it and leave the targets short of the leg.
  settings.fast_lock_anchor = 0;
  settings.fast_lock_width_anchor = 0;
  // Its longer blends already spread lock onsets, and a swing blended afterwards ignores the
  // reach its targets were solved to keep.
  settings.swing_blend_s = 0;
}

OfflineSolveResult solve_offline(const OfflineSolveInput& input,
                                 const OfflineSolveSettings& settings) {
  settings.validate();
  input.validate();
  OfflineSolveResult result =
      settings.solver == OfflineSolver::reference ? solve_offline_reference(input, settings)
      : input.frame_count > detail::k_windowed_above_frames
          ? detail::solve_offline_windowed(input, settings, detail::k_window_frames, detail::k_window_lookahead_frames)
          : solve_offline_fast(input, settings);
  blend_swing_corrections(input, settings.swing_blend_s, result);
  return result;
}

}  // namespace footfix
