#include "lock_options.h"

#include <CLI/CLI.hpp>
#include <cmath>

#include "footfix/core/error.h"

#include "solve/clean_settings_json.h"

namespace footfix::cli {

void LockOptions::add_to(CLI::App& cmd) {
  cmd.add_option("--lock-distance", lock.lock_distance_m,
                 "Runtime lock: an unlocked foot locks only within this distance of its input (m) [default 0.01]")
      ->group("Runtime lock");
  cmd.add_option("--unlock-distance", lock.unlock_distance_m,
                 "Runtime lock: a locked foot unlocks when its input gets this far away (m) [default 0.18]")
      ->group("Runtime lock");
  cmd.add_option("--blend-time", lock.blend_time_s, "Runtime lock: inertialization blend time (s) [default 0.15]")
      ->group("Runtime lock");
  cmd.add_option("--release-miss", release_miss_m,
                 "Runtime lock: a locked toe the leg cannot bring within this distance of its contact point is let "
                 "go (blended) in that frame (m, > 0) [default 0.01]")
      ->group("Runtime lock");
  cmd.add_flag("--offline-contacts", offline_contacts,
               "Runtime lock: use the offline (whole-clip) contacts instead of the causal detector")
      ->group("Runtime lock");
  cmd.add_option("--ground-velocity", ground_velocity,
                 "Runtime lock: X,Z: the clip plays in place on a ground moving at this velocity (m/s, Y-up internal "
                 "frame); locked feet ride on it [default: the ground stands still]")
      ->delimiter(',')
      ->expected(2)
      ->group("Runtime lock");
  cmd.add_option("--terrain", terrain,
                 "Runtime lock: the ground under the clip, as `footfix walk` takes it (flat, slope:DEG, hills, stairs, "
                 "stairs:RISE:RUN, a terrain JSON or a walk's <name>.terrain.json); the lock queries its height under "
                 "each foot [default: flat: the feet's own past heights]")
      ->group("Runtime lock");
  cmd.add_option("--settings", settings_path, "Clean settings JSON ({\"contacts\": {...}, \"solve\": {...}, \"ik\": {...}})");
  contact_options.add_to(cmd);
}

void LockOptions::resolve(CleanSettings& clean, RuntimeLockSettings& runtime) {
  clean = settings_path.empty() ? CleanSettings{} : clean_settings_from_json_file(settings_path);
  contact_options.apply(clean.contacts);
  clean.validate();
  runtime.lock = lock;
  runtime.release_miss_m = release_miss_m;
  runtime.contacts = clean.contacts;
  runtime.ik = clean.ik;
  runtime.validate();
}

std::optional<Vec3> LockOptions::ground_velocity_mps() const {
  if (ground_velocity.empty()) return std::nullopt;
  for (double v : ground_velocity)
    if (!std::isfinite(v)) fail(ErrorKind::usage, "--ground-velocity: values must be finite");
  return Vec3{ground_velocity[0], 0.0, ground_velocity[1]};
}

Terrain LockOptions::resolve_terrain() const { return parse_terrain_spec(terrain); }

namespace {

GroundHit terrain_hit(const void* context, double x_m, double z_m) {
  const Terrain& terrain = *static_cast<const Terrain*>(context);
  return {terrain.height(x_m, z_m), terrain.normal(x_m, z_m)};
}

}  // namespace

GroundQuery terrain_ground_query(const Terrain& terrain) { return {&terrain_hit, &terrain}; }

}  // namespace footfix::cli
