// Compares two clips of the same skeleton by the world positions of their joints (forward
// kinematics), in the clips' own units: what a reader, writer or round trip must preserve.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/core/fk.h"

namespace footfix::test {

/// Largest world-position distance between two clips over every joint and frame (a mismatch of
/// joint names or frame counts is a test failure; the common part is compared).
inline double max_world_distance(const Clip& a, const Clip& b) {
  EXPECT_EQ(a.skeleton.names, b.skeleton.names);
  EXPECT_EQ(a.frame_count, b.frame_count);
  std::vector<Transform> wa(a.joint_count()), wb(b.joint_count());
  double worst = 0;
  for (int f = 0; f < std::min(a.frame_count, b.frame_count); ++f) {
    world_pose(a, f, wa);
    world_pose(b, f, wb);
    for (int j = 0; j < std::min(a.joint_count(), b.joint_count()); ++j)
      worst = std::max(worst, length(wa[j].translation - wb[j].translation));
  }
  return worst;
}

}  // namespace footfix::test
