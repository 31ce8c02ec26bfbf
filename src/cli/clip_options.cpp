#include "clip_options.h"

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
  cmd.add_option("--take", take, "FBX: animation take by name or index (default: the first)");
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
  return options;
}

}  // namespace footfix::cli
