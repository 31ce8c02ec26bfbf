// The BVH writer re-emits joints left as read without decoding them again (their rotations'
// fingerprints match the reader's): an edit of one rotation in one frame, a millionth of a degree,
// must still be written, and only there.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <sstream>

#include "footfix/core/read_file.h"
#include "footfix/bvh/bvh.h"
#include "bvh/bvh_source.h"  // BvhSource: internal to bvh, not installed
#include "support/paths.h"

namespace footfix {
namespace {

struct Edit {
  int joint;
  int frame;
};

// Reads the bundled walk (converted as `frame`), turns each edit's rotation by 1e-6 degrees,
// writes and re-reads; returns the joints and frames whose raw values differ from the file's.
std::vector<Edit> changed_values(const std::vector<Edit>& edits, const SourceFrame& frame) {
  const std::string text = read_file(test::data_clip("cmu_07_01_walk.bvh"));
  Clip clip = parse_bvh(text, "walk.bvh");
  convert_to_internal(clip, frame);
  const Quat nudge = axis_angle(normalize(Vec3{1, 2, 3}), 1e-6 * k_deg_to_rad);
  for (const Edit& e : edits) clip.rotation(e.frame, e.joint) = clip.rotation(e.frame, e.joint) * nudge;
  std::ostringstream out;
  write_bvh(clip, out);
  const Clip reread = parse_bvh(out.str(), "walk (written).bvh");
  const auto& before = dynamic_cast<const BvhSource&>(*clip.source);
  const auto& after = dynamic_cast<const BvhSource&>(*reread.source);
  std::vector<Edit> changed;
  for (int f = 0; f < clip.frame_count; ++f)
    for (int j = 0; j < clip.joint_count(); ++j) {
      const BvhJointLayout& layout = before.joints[j];
      for (size_t i = 0; i < layout.channels.size(); ++i) {
        const size_t k = static_cast<size_t>(f) * before.values_per_frame + layout.first_value + i;
        if (std::bit_cast<std::uint64_t>(before.values[k]) != std::bit_cast<std::uint64_t>(after.values[k])) {
          changed.push_back({j, f});
          break;
        }
      }
    }
  return changed;
}

TEST(BvhWriteUnchanged, TinyEditInOneFrameIsWrittenAndNothingElse) {
  const Clip clip = parse_bvh(read_file(test::data_clip("cmu_07_01_walk.bvh")), "walk.bvh");
  const int knee = clip.skeleton.find("LeftLeg"), spine = clip.skeleton.find("Spine");
  ASSERT_GT(knee, 0);
  ASSERT_GT(spine, 0);
  const int last = clip.frame_count - 1;
  for (const SourceFrame& frame : {SourceFrame{0.056444, Axis::pos_y}, SourceFrame{0.01, Axis::pos_z}}) {
    EXPECT_TRUE(changed_values({}, frame).empty());
    const std::vector<Edit> changed = changed_values({{knee, 0}, {spine, last}}, frame);
    ASSERT_EQ(changed.size(), 2u);
    EXPECT_EQ(changed[0].joint, knee);
    EXPECT_EQ(changed[0].frame, 0);
    EXPECT_EQ(changed[1].joint, spine);
    EXPECT_EQ(changed[1].frame, last);
  }
}

}  // namespace
}  // namespace footfix
