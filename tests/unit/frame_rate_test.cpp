// Frame rates as files state them, and text locations for error messages.
#include <gtest/gtest.h>

#include "footfix/core/frame_rate.h"
#include "footfix/core/text_location.h"

namespace footfix {
namespace {

TEST(FrameRate, RoundedFrameTimesAreTheCommonRates) {
  EXPECT_EQ(nominal_frame_rate(1.0 / 0.0083333), 120.0);  // BVH "Frame Time: 0.0083333"
  EXPECT_EQ(nominal_frame_rate(1.0 / 0.0333333), 30.0);
  EXPECT_EQ(nominal_frame_rate(1.0 / 0.016667), 60.0);
  EXPECT_EQ(nominal_frame_rate(29.97), 30000.0 / 1001.0);
  EXPECT_EQ(nominal_frame_rate(37.5), 37.5);  // not a common rate: as it is
  EXPECT_EQ(nominal_frame_rate(121.0), 121.0);
  EXPECT_EQ(describe_frame_rate(1.0 / 0.0083333), "120 fps (1/120 s)");
  EXPECT_EQ(describe_frame_rate(30000.0 / 1001.0), "29.97 fps (1001/30000 s)");
  EXPECT_EQ(describe_frame_rate(37.5), "37.5 fps (0.0266667 s)");
}

TEST(TextLocation, CountsLinesAndColumnsFromOne) {
  EXPECT_EQ(text_location("abc", 0), "line 1, column 1");
  EXPECT_EQ(text_location("ab\ncd\nef", 4), "line 2, column 2");
  EXPECT_EQ(text_location("ab\n", 3), "line 2, column 1");
  EXPECT_EQ(text_location("ab", 99), "line 1, column 3");
}

}  // namespace
}  // namespace footfix
