// The output format options of the commands that write clips: --bvh-unit (the length unit of
// BVH output: Maya and MotionBuilder read BVH as centimeters) and --fbx-format (binary or ASCII
// FBX: Blender imports binary only). Unset, each keeps what the command writes today.
#pragma once

#include <string>

#include "cli11_fwd.h"
#include "footfix/io/clip_io.h"

namespace footfix::cli {

struct WriteFormatOptions {
  std::string bvh_unit;    ///< m, cm or inch; empty = the command's default
  std::string fbx_format;  ///< binary or ascii; empty = the input's flavour

  /// Adds --bvh-unit; `default_text` says what is written without it.
  void add_bvh_unit_to(CLI::App& cmd, const std::string& default_text);
  /// Adds --fbx-format.
  void add_fbx_format_to(CLI::App& cmd);
  /// The save options the given values ask for.
  SaveOptions resolve() const;
};

}  // namespace footfix::cli
