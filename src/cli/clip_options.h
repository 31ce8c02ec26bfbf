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

  std::optional<RigProfile> rig_profile;  ///< loaded by resolve()

  /// Adds --unit-scale, --up, --rig, --take to `cmd`.
  void add_to(CLI::App& cmd);
  /// Validates the options and loads the rig profile. Throws Error(usage/read).
  ReadOptions resolve();
};

}  // namespace footfix::cli
