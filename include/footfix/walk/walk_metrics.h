// The acceptance figures of a generated walk, measured on the clip itself (so they apply to a
// walk read back from its BVH too): stance-foot slide, terrain penetration, joint-limit
// violations and knee flips, against the ground-truth contacts and the terrain.
#pragma once

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/walk/joint_limits.h"
#include "footfix/walk/terrain.h"

namespace footfix {

struct WalkMeasures {
  /// Largest motion (3D) of a planted toe joint between consecutive contact frames, mm/frame.
  double max_stance_slide_mm = 0;
  /// Deepest a foot joint (ankle, toe, toe tip) goes below the terrain under it, mm (0: none).
  double max_penetration_mm = 0;
  /// Deepest a sole point (heel, ball or toe-tip sole of the walk body's foot, see walk_body.h)
  /// goes below the terrain under it, mm (0: none).
  double max_sole_penetration_mm = 0;
  /// (frame, joint) pairs of hip, knee, ankle, toe whose local rotation is outside its limits
  /// by more than the tolerance.
  int limit_violations = 0;
  /// (frame, leg) pairs whose bent knee (> 3 degrees) points backwards: the hip-knee-ankle
  /// plane's normal against the pelvis's left axis.
  int knee_flips = 0;
  /// Consecutive contact starts by the same foot (contact_eval's alternation_breaks).
  int contact_alternation_breaks = 0;
};

/// The deepest a sole point of a walk goes below the terrain under it.
struct SoleSink {
  double depth_mm = 0;  ///< 0 when no sole point is below the terrain
  int frame = -1;       ///< -1 when none is
  Side side = Side::left;
  Vec3 point;           ///< the sole point (world, m)
};
/// Over every frame of `clip`, the heel, ball and toe-tip sole points of the walk body's feet
/// (walk_body.h) of the skeleton whose legs are `rig`.
SoleSink deepest_sole_sink(const Clip& clip, const Rig& rig, const Terrain& terrain, const LegLimits& limits);

/// `tolerance_rad`: slack on each limit angle (a BVH round trip adds ~1e-9 rad).
WalkMeasures measure_walk(const Clip& clip, const Rig& rig, const Terrain& terrain, const ContactResult& truth,
                          const LegLimits& limits, double tolerance_rad = 1e-6);

}  // namespace footfix
