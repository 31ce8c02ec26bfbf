#include "clip_options.h"

#include <CLI/CLI.hpp>
#include <cmath>

#include "footfix/core/conventions.h"
#include "footfix/core/error.h"

namespace footfix::cli {

double parse_unit_scale(const std::string& text) {
  int count = 0;
  const NamedUnit* units = known_units(count);
  std::string names;
  for (int i = 0; i < count; ++i) {
    if (text == units[i].name) return units[i].meters_per_unit;
    names += std::string(i ? ", " : "") + units[i].name;
  }
  if (text == "meter" || text == "meters") return 1.0;
  if (text == "in" || text == "inches") return 0.0254;
  if (text == "ft" || text == "feet") return 0.3048;
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(value) || value <= 0)
    fail(ErrorKind::usage, "--unit-scale must be a unit (" + names + ") or a positive number of meters per unit, got '" +
                               text + "'");
  return value;
}

void ClipOptions::add_to(CLI::App& cmd) {
  cmd.add_option("--unit-scale", unit_scale,
                 "File unit: m, cm, mm, inch, foot, cmu, or meters per unit as a number (e.g. 0.01) "
                 "[default: detected from the leg length; FBX: declared]");
  cmd.add_option("--up", up, "Up axis of the file: x, y, z, -x, -y, -z (default: detected)");
  cmd.add_option("--rig", rig_profile_path, "Rig profile JSON naming the leg joints");
  cmd.add_option("--take,--animation", take,
                 "FBX take or glTF animation, by name or index (default: the first)");
  cmd.add_option("--fps", fps,
                 "BVH: process at this frame rate (Hz) instead of the stated Frame Time, which the output keeps "
                 "[default: the stated rate, unless the motion clearly contradicts it]")
      ->check(CLI::Range(1.0, 1000.0));
  add_limits_to(cmd);
}

void ClipOptions::add_limits_to(CLI::App& cmd) {
  cmd.add_flag("--repair", repair,
               "BVH: fill non-finite values (nan, inf) from the nearest finite values of the same channel "
               "(linear), instead of refusing the file");
  cmd.add_option("--max-input-size", max_input_mib, "Refuse input files larger than this many MiB (default 256)")
      ->check(CLI::Range(1.0, 1048576.0));
  cmd.add_option("--max-memory", max_memory_mib,
                 "Memory budget per clip in MiB, checked before allocating (default 2048)")
      ->check(CLI::Range(16.0, 1048576.0));
  cmd.add_option("--max-duration", max_duration_s, "Refuse takes longer than this many seconds (default 3600)")
      ->check(CLI::Range(1.0, 1e6));
}

ReadOptions ClipOptions::resolve() {
  ReadOptions options;
  if (!unit_scale.empty()) options.meters_per_unit = parse_unit_scale(unit_scale);
  if (!up.empty()) {
    Axis a;
    if (!parse_axis(up, a)) fail(ErrorKind::usage, "--up must be one of x, y, z, -x, -y, -z (got '" + up + "')");
    options.up = a;
  }
  if (!rig_profile_path.empty()) {
    rig_profile = read_rig_profile(rig_profile_path);
    options.rig_profile = &*rig_profile;
  }
  options.take = take;
  if (fps > 0) options.fps = fps;
  options.limits.repair_bvh = repair;
  options.limits.max_input_bytes = static_cast<std::uint64_t>(max_input_mib * (1 << 20));
  options.limits.max_memory_bytes = static_cast<std::uint64_t>(max_memory_mib * (1 << 20));
  options.limits.max_duration_s = max_duration_s;
  return options;
}

}  // namespace footfix::cli
