// The procedural walk: a lower body driven 100% by IK over a terrain.
// The gait plans footsteps and foot trajectories (walk/gait.h); per frame the pelvis is placed
// from both feet, below the height where either leg would have to stretch past
// k_walk_max_reach of its length, and each leg is solved with damped-least-squares IK within
// its joint limits (walk/leg_dls.h); the toe joint keeps its segment flat on the ground at toe
// off. On stairs the push-off's heel rise is lowered, one degree at a time, until every planted
// foot is held on its target within the leg's limits (a tread does not let every skeleton roll
// its foot as far as on level ground). The output is a normal clip plus the ground-truth contacts (the frames each toe joint is
// planted). Deterministic for given settings and seed.
#pragma once

#include <string>
#include <vector>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/walk/gait.h"
#include "footfix/walk/joint_limits.h"
#include "footfix/walk/leg_dls.h"
#include "footfix/walk/terrain.h"

namespace footfix {

/// Largest hip-to-ankle distance as a fraction of thigh + shin.
constexpr double k_walk_max_reach = 0.998;

struct WalkSettings {
  GaitSettings gait;
  double fps = 60;
  LegLimits limits = default_leg_limits();
  DlsSettings ik;
  /// With a source skeleton: the upper body (every joint but the legs and the root) plays the
  /// source clip's frames in a loop; false keeps its rest pose.
  bool upper_body_from_frames = true;
  void validate() const;  ///< Throws Error(usage)
};

struct WalkResult {
  Clip clip;       ///< internal frame (meters, Y up); writes as a normal BVH
  Rig rig;
  ContactResult contacts;  ///< ground truth: the frames each toe joint is planted
  GaitPlan plan;
  Terrain terrain;
  // IK convergence over every frame and leg (ankle and toe joint distance to their targets).
  double max_ik_error_m = 0;
  double mean_ik_iterations = 0;
  int max_ik_iterations = 0;
  int ik_unconverged = 0;  ///< leg solves that stopped above the tolerance
};

/// A walk of the built-in humanoid (walk/humanoid.h).
WalkResult generate_walk(const Terrain& terrain, const WalkSettings& settings);

/// A walk of `source`'s skeleton (internal frame) whose legs are `rig`; its frames, if any,
/// give the upper body. Throws Error(process) when the legs cannot be driven (see
/// make_walk_body) and Error(usage) for bad settings.
WalkResult generate_walk(const Clip& source, const Rig& rig, const Terrain& terrain, const WalkSettings& settings);

/// The walk's terrain and footsteps as JSON text (format "footfix-walk-terrain", documented in
/// schemas/terrain_walk.schema.json): the terrain
/// (terrain.schema.json keys), the gait settings, and per footstep its index, side, state,
/// phase, times (s), toe position (m), heading, terrain pitch and roll (deg), tread and lift.
std::string walk_terrain_json(const WalkResult& walk, const WalkSettings& settings);

}  // namespace footfix
