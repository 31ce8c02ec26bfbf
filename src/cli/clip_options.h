// Options shared by every command that reads clips: unit/up overrides, rig profile, FBX take.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "footfix/io/clip_io.h"

namespace footfix::cli {

/// Meters per unit from a unit name (m, cm, mm, inch, foot, cmu; also in, ft, meters) or a
/// positive number. Throws Error(usage) for 0, negatives and anything else.
double parse_unit_scale(const std::string& text);

struct ClipOptions {
  std::string unit_scale;      ///< --unit-scale as given: a number of meters per unit or a unit name; empty = detect
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
