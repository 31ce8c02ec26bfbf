// Options shared by every command that reads clips: unit/up overrides, rig profile, FBX take.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "footfix/io/clip_io.h"

namespace footfix::cli {

struct ClipOptions {
  double meters_per_unit = 0;  ///< 0 = detect
  std::string up;              ///< empty = detect
  std::string rig_profile_path;
  std::string take;
  double max_input_mib = static_cast<double>(k_default_max_input_bytes >> 20);
  double max_memory_mib = static_cast<double>(k_default_max_memory_bytes >> 20);
  double max_duration_s = k_default_max_duration_s;

  std::optional<RigProfile> rig_profile;  ///< loaded by resolve()

  /// Adds --unit-scale, --up, --rig, --take and the input limits (--max-input-size, --max-memory,
  /// --max-duration) to `cmd`.
  void add_to(CLI::App& cmd);
  /// Validates the options and loads the rig profile. Throws Error(usage/read).
  ReadOptions resolve();
};

}  // namespace footfix::cli
