// The player's motion data (report_motion.h): base64 against RFC 4648's test vectors, the series
// coding read back by a decoder written here from the format's description, and the choice of
// drawn joints on a skeleton with fingers and a zero-length joint.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "batch/report_motion.h"

namespace footfix {
namespace {


TEST(ReportMotion, Base64MatchesRfc4648Vectors) {
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
  EXPECT_EQ(base64("foob"), "Zm9vYg==");
  EXPECT_EQ(base64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64(std::string("\xff\xfe\x00", 3)), "//4A");
}

/// The format as documented: per series, zigzag varints of the residual from 2a - b (a, b the
/// two previous values; 0 for the first, a for the second).
std::vector<std::int64_t> decode(const std::string& bytes, int length) {
  std::vector<std::int64_t> out;
  std::size_t at = 0;
  while (at < bytes.size()) {
    std::int64_t a = 0, b = 0;
    for (int i = 0; i < length; ++i) {
      std::uint64_t v = 0;
      for (int shift = 0;; shift += 7) {
        const auto byte = static_cast<std::uint8_t>(bytes.at(at++));
        v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
        if (!(byte & 0x80)) break;
      }
      const std::int64_t r = (v & 1) ? -static_cast<std::int64_t>(v >> 1) - 1 : static_cast<std::int64_t>(v >> 1);
      const std::int64_t x = (i == 0 ? 0 : i == 1 ? a : 2 * a - b) + r;
      out.push_back(x);
      b = a, a = x;
    }
  }
  return out;
}

TEST(ReportMotion, SeriesReadBackAsWritten) {
  // Two series of 6: a smooth one (residuals small), one with jumps and large magnitudes.
  const std::vector<std::int64_t> values{1000, 1010, 1021, 1031, 1040, 1050, -70000, 3, 3, 0, 123456789, -5};
  const std::string bytes = encode_series(values, 6);
  EXPECT_EQ(decode(bytes, 6), values);
  // Constant motion costs one byte per value after the first two.
  const std::string smooth = encode_series({500, 510, 520, 530, 540, 550}, 6);
  EXPECT_EQ(smooth.size(), 2u + 1u + 4u) << "500 takes two bytes, 10 and four zero residuals one each";
}

TEST(ReportMotion, DrawnJointsDropFingersAndMergeZeroLengthJointsButKeepTheLegs) {
  Clip clip;
  Skeleton& s = clip.skeleton;
  const int hips = s.add_joint("Hips", -1, {0, 1, 0});
  const int hip_joint = s.add_joint("LHipJoint", hips, {0, 0, 0});  // zero length: merged
  Rig rig;
  rig.pelvis = rig.translation_joint = hips;
  for (int side = 0; side < 2; ++side) {
    const double x = side == 0 ? 0.1 : -0.1;
    LegChain& leg = rig.legs[static_cast<std::size_t>(side)];
    leg.hip = s.add_joint("UpLeg" + std::to_string(side), side == 0 ? hip_joint : hips, {x, -0.05, 0});
    leg.knee = s.add_joint("Leg" + std::to_string(side), leg.hip, {0, -0.45, 0});
    leg.heel = s.add_joint("Foot" + std::to_string(side), leg.knee, {0, -0.42, 0});
    leg.toe = s.add_joint("Toe" + std::to_string(side), leg.heel, {0, -0.05, 0.008});  // short, kept: a leg joint
  }
  const int spine = s.add_joint("Spine", hips, {0, 0.3, 0});
  const int head = s.add_joint("Head", spine, {0, 0.3, 0});
  std::vector<int> fingers;
  for (int side = 0; side < 2; ++side) {
    const int hand = s.add_joint("Hand" + std::to_string(side), spine, {side == 0 ? 0.6 : -0.6, 0.2, 0});
    for (int f = 0; f < 5; ++f) {  // 5 fingers of 3 bones, 3 to 2 cm
      int parent = hand;
      for (int bone = 0; bone < 3; ++bone) fingers.push_back(parent = s.add_joint("F", parent, {0.03 - 0.005 * bone, 0, 0.01 * f}));
    }
  }
  clip.resize(3);
  ASSERT_GT(s.joint_count(), k_motion_joints);

  const MotionSamples m = sample_motion(clip, rig);
  EXPECT_EQ(static_cast<int>(m.joints.size()), k_motion_joints);
  auto drawn = [&](int j) { return std::find(m.joints.begin(), m.joints.end(), j) != m.joints.end(); };
  EXPECT_FALSE(drawn(hip_joint)) << "a zero-length joint is merged into its parent";
  for (const LegChain& leg : rig.legs)
    for (int j : {leg.hip, leg.knee, leg.heel, leg.toe}) EXPECT_TRUE(drawn(j)) << s.names[static_cast<std::size_t>(j)];
  EXPECT_TRUE(drawn(head));
  // Only end bones are dropped: every drawn joint's parent is drawn, and is its drawn parent.
  for (std::size_t k = 0; k < m.joints.size(); ++k) {
    const int parent = s.parents[static_cast<std::size_t>(m.joints[k])];
    if (parent < 0 || parent == hip_joint) continue;
    ASSERT_GE(m.parents[k], 0);
    EXPECT_EQ(m.joints[static_cast<std::size_t>(m.parents[k])], parent) << s.names[static_cast<std::size_t>(m.joints[k])];
  }
  EXPECT_LT(std::count_if(fingers.begin(), fingers.end(), drawn), 30) << "the shortest end bones (fingertips) go";
  EXPECT_EQ(m.parents[static_cast<std::size_t>(std::find(m.joints.begin(), m.joints.end(), rig.legs[0].hip) - m.joints.begin())],
            0) << "the left thigh hangs from the hips once its zero-length parent is merged";
  EXPECT_EQ(m.samples, 3);
  EXPECT_EQ(m.positions.size(), 3u * m.joints.size());
}

}  // namespace
}  // namespace footfix
