#include "write_format_options.h"

#include <CLI/CLI.hpp>

#include "clip_options.h"

namespace footfix::cli {

void WriteFormatOptions::add_bvh_unit_to(CLI::App& cmd, const std::string& default_text) {
  cmd.add_option("--bvh-unit", bvh_unit,
                 "Length unit of BVH output: m, cm or inch (Maya and MotionBuilder read BVH as cm) [default: " +
                     default_text + "]")
      ->check(CLI::IsMember({"m", "cm", "inch"}));
}

void WriteFormatOptions::add_fbx_format_to(CLI::App& cmd) {
  cmd.add_option("--fbx-format", fbx_format,
                 "FBX output flavour: binary or ascii (Blender imports binary only) [default: the input's]")
      ->check(CLI::IsMember({"binary", "ascii"}));
}

SaveOptions WriteFormatOptions::resolve() const {
  SaveOptions options;
  if (!bvh_unit.empty()) options.bvh.meters_per_unit = parse_unit_scale(bvh_unit);
  if (fbx_format == "binary") options.fbx = FbxFormat::binary;
  if (fbx_format == "ascii") options.fbx = FbxFormat::ascii;
  return options;
}

}  // namespace footfix::cli
