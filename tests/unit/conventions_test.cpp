// The source-to-internal conversions: points_to_internal converts many points as
// point_to_internal converts one, to the bit, for every up axis.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "footfix/core/conventions.h"

namespace footfix {
namespace {

TEST(Conventions, PointsToInternalIsPointToInternalOfEachPoint) {
  const std::vector<Vec3> points{{1, 2, 3}, {-0.0, 0, -7.25}, {1e-9, -3.5e4, 0.1}, {0, 0, 0}};
  for (Axis up : {Axis::pos_x, Axis::neg_x, Axis::pos_y, Axis::neg_y, Axis::pos_z, Axis::neg_z}) {
    SCOPED_TRACE(to_string(up));
    const SourceFrame frame{0.0254, up};
    std::vector<Vec3> converted = points;
    points_to_internal(frame, converted);
    for (size_t i = 0; i < points.size(); ++i) {
      const Vec3 one = point_to_internal(frame, points[i]);
      EXPECT_EQ(0, std::memcmp(&one, &converted[i], sizeof(Vec3))) << "point " << i;
    }
  }
}

}  // namespace
}  // namespace footfix
