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

/// `tolerance_rad`: slack on each limit angle (a BVH round trip adds ~1e-9 rad).
WalkMeasures measure_walk(const Clip& clip, const Rig& rig, const Terrain& terrain, const ContactResult& truth,
                          const LegLimits& limits, double tolerance_rad = 1e-6);

}  // namespace footfix
