// FK sanity on a real clip read from BVH: the decoded rotations and offsets must put the feet
// where a walking person's feet are.
#include <gtest/gtest.h>

#include <algorithm>

#include "footfix/core/fk.h"
#include "footfix/files/atomic_file.h"
#include "footfix/bvh/bvh.h"
#include "support/paths.h"

namespace footfix {
namespace {

TEST(BvhFk, CmuWalkToesStayNearTheGround) {
  Clip clip = parse_bvh(read_file(test::data_clip("cmu_07_01_walk.bvh")), "cmu_07_01_walk.bvh");
  convert_to_internal(clip, {0.056444, Axis::pos_y});  // CMU units (data/clips/README.md)
  std::vector<Vec3> path(static_cast<size_t>(clip.frame_count));
  for (const char* toe : {"LeftToeBase", "RightToeBase"}) {
    const int j = clip.skeleton.find(toe);
    ASSERT_GE(j, 0) << toe;
    joint_trajectory(clip, j, path);
    auto [lo, hi] = std::minmax_element(path.begin(), path.end(),
                                        [](Vec3 a, Vec3 b) { return a.y < b.y; });
    // A walking adult's toe joint: on the floor in stance (within 10 cm of y = 0) and lifted
    // by a few centimetres, but well under knee height, in swing.
    EXPECT_GT(lo->y, -0.10) << toe;
    EXPECT_LT(lo->y, 0.10) << toe;
    EXPECT_GT(hi->y - lo->y, 0.03) << toe;
    EXPECT_LT(hi->y, 0.40) << toe;
  }
  // Hips about a leg length above the floor, and the walk covers about 3.6 m (README).
  joint_trajectory(clip, 0, path);
  double mean_height = 0;
  for (const Vec3& p : path) mean_height += p.y / static_cast<double>(path.size());
  EXPECT_GT(mean_height, 0.75);
  EXPECT_LT(mean_height, 1.10);
  const Vec3 travel = path.back() - path.front();
  EXPECT_NEAR(std::hypot(travel.x, travel.z), 3.6, 0.5);
}

}  // namespace
}  // namespace footfix
