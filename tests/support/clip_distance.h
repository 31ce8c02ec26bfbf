// Compares two clips of the same skeleton by the world positions of their joints (forward
// kinematics), in the clips' own units: what a reader, writer or round trip must preserve.
#pragma once

#include <gtest/gtest.h>

#include "footfix/core/clip.h"
#include "support/world_distance.h"

namespace footfix::test {

/// Largest world-position distance between two clips over every joint and frame (a mismatch of
/// joint names or frame counts is a test failure; the common part is compared).
inline double max_world_distance(const Clip& a, const Clip& b) {
  EXPECT_EQ(a.skeleton.names, b.skeleton.names);
  EXPECT_EQ(a.frame_count, b.frame_count);
  return common_world_distance(a, b);
}

}  // namespace footfix::test
