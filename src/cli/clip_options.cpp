#include "clip_options.h"

#include "footfix/core/error.h"

namespace footfix::cli {

void ClipOptions::add_to(CLI::App& cmd) {
  cmd.add_option("--unit-scale", meters_per_unit, "Meters per file unit (default: detected from leg length)");
  cmd.add_option("--up", up, "Up axis of the file: x, y, z, -x, -y, -z (default: detected)");
  cmd.add_option("--rig", rig_profile_path, "Rig profile JSON naming the leg joints");
  cmd.add_option("--take", take, "FBX: animation take by name or index (default: the first)");
}

ReadOptions ClipOptions::resolve() {
  ReadOptions options;
  if (meters_per_unit < 0 || !std::isfinite(meters_per_unit))
    fail(ErrorKind::usage, "--unit-scale must be a positive number of meters per unit");
  if (meters_per_unit > 0) options.meters_per_unit = meters_per_unit;
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
