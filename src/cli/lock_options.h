// Options shared by `lock` and `compare`: the runtime lock's distances and blend time, the clean
// settings file, every contact setting, and feeding the lock the offline contacts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli11_fwd.h"
#include "contact_options.h"
#include "footfix/lock/runtime_lock.h"
#include "footfix/solve/clean.h"
#include "footfix/walk/terrain.h"

namespace footfix::cli {

struct LockOptions {
  LockSettings lock;
  double release_miss_m = RuntimeLockSettings{}.release_miss_m;  ///< --release-miss (m)
  bool offline_contacts = false;
  std::vector<double> ground_velocity;  ///< X,Z (m/s, internal frame) when given
  std::string terrain = "flat";         ///< --terrain: a walk terrain spec or file
  std::string settings_path;  ///< clean settings JSON (contacts, solve, ik)
  ContactOptions contact_options;

  /// Adds --lock-distance, --unlock-distance, --blend-time, --release-miss, --offline-contacts,
  /// --ground-velocity, --terrain, --settings and the contact settings to `cmd`.
  void add_to(CLI::App& cmd);
  /// Clean settings (file, then command line) with the runtime settings derived from them.
  /// Throws Error(usage/read).
  void resolve(CleanSettings& clean, RuntimeLockSettings& runtime);
  /// --ground-velocity as a velocity (unset when not given). Throws Error(usage) when not finite.
  std::optional<Vec3> ground_velocity_mps() const;
  /// --terrain parsed (flat by default). Throws Error(usage/read) naming the option.
  Terrain resolve_terrain() const;
};

/// The terrain as the runtime lock's ground query; `terrain` must outlive its use.
GroundQuery terrain_ground_query(const Terrain& terrain);

}  // namespace footfix::cli
