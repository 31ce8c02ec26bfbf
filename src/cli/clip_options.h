// Options shared by every command that reads clips: unit/up/rate overrides, rig profile, FBX take,
// repair of non-finite values.
#pragma once

#include <optional>
#include <string>

#include "cli11_fwd.h"
#include "footfix/pipeline/load_clip.h"

namespace footfix::cli {

/// Meters per unit from a unit name (m, cm, mm, inch, foot, cmu; also in, ft, meters) or a
/// positive number. Throws Error(usage) for 0, negatives and anything else.
double parse_unit_scale(const std::string& text);

struct ClipOptions {
  std::string unit_scale;      ///< --unit-scale as given: a number of meters per unit or a unit name; empty = detect
  std::string up;              ///< empty = detect
  std::string rig_profile_path;
  std::string take;
  double max_input_mib = static_cast<double>(k_default_max_input_bytes >> 20);
  double max_memory_mib = static_cast<double>(k_default_max_memory_bytes >> 20);
  double max_duration_s = k_default_max_duration_s;
  double fps = 0;       ///< --fps: BVH processing rate in Hz; 0 = the stated one, checked against the motion
  bool repair = false;  ///< --repair: fill non-finite BVH values from their channel

  std::optional<RigProfile> rig_profile;  ///< loaded by resolve()

  /// Adds --unit-scale, --up, --rig, --take, --fps, and what add_limits_to adds, to `cmd`.
  void add_to(CLI::App& cmd);
  /// Adds --repair and the input limits (--max-input-size, --max-memory, --max-duration) only
  /// (walk: its --skeleton is read with detected units and legs).
  void add_limits_to(CLI::App& cmd);
  /// Validates the options and loads the rig profile. Throws Error(usage/read).
  ReadOptions resolve();
};

}  // namespace footfix::cli
