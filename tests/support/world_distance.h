// World joint positions of two clips of the same skeleton compared by forward kinematics, without
// GoogleTest (the fuzz targets use it too; tests use clip_distance.h, which also checks shapes).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/core/fk.h"

namespace footfix::test {

/// Distance between two points in the ground plane (x, z), in their units.
inline double horizontal_distance(Vec3 a, Vec3 b) { return std::hypot(a.x - b.x, a.z - b.z); }

/// Largest world-position distance between `a` and `b` over every joint and frame they have in
/// common, in the clips' own units. NaN when a compared position is not finite.
inline double common_world_distance(const Clip& a, const Clip& b) {
  std::vector<Transform> wa(static_cast<size_t>(a.joint_count())), wb(static_cast<size_t>(b.joint_count()));
  double worst = 0;
  for (int f = 0; f < std::min(a.frame_count, b.frame_count); ++f) {
    world_pose(a, f, wa);
    world_pose(b, f, wb);
    for (int j = 0; j < std::min(a.joint_count(), b.joint_count()); ++j) {
      const double d = length(wa[j].translation - wb[j].translation);
      if (std::isnan(d)) return d;
      worst = std::max(worst, d);
    }
  }
  return worst;
}

/// The largest drop of `joint` in `lowered` below where it is in `reference` (world height, the
/// clips' own units; 0 where it never comes lower), over the frames they have in common.
inline double largest_drop(const Clip& reference, const Clip& lowered, int joint) {
  double drop = 0;
  for (int f = 0; f < std::min(reference.frame_count, lowered.frame_count); ++f)
    drop = std::max(drop, joint_world(reference, f, joint).translation.y - joint_world(lowered, f, joint).translation.y);
  return drop;
}

}  // namespace footfix::test
