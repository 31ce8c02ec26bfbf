// BVH variants of skeletons and axes (issue 30, section 1): position channels on every joint,
// Y-down and Z-up hierarchies, joints without meaningful names, zero-length joints between hips
// and thighs, legs without toe joints. Each is the bundled walk changed one way and cleaned
// through the binary; each must clean with contacts on both feet.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>
#include <string>

#include "cli/bvh_variant_helpers.h"
#include "support/clip_variants.h"

namespace footfix {
namespace {

using test::clean_text;
using test::contains;
using test::count_of;
using test::replace_all;
using test::walk_text;


/// `text` with position channels on every joint that has only rotations, their values the
/// joint's OFFSET in every frame (what many converters write).
std::string with_positions_everywhere(const std::string& text) {
  std::istringstream in(text);
  std::string out, line, offset;
  std::vector<std::pair<int, std::string>> joints;  // channel count, OFFSET values, motion order
  bool motion = false;
  while (std::getline(in, line)) {
    if (line.find("MOTION") != std::string::npos) motion = true;
    if (!motion) {
      if (const auto at = line.find("OFFSET"); at != std::string::npos) offset = line.substr(at + 6);
      const auto at = line.find("CHANNELS 3 ");
      if (at != std::string::npos) line.replace(at, 11, "CHANNELS 6 Xposition Yposition Zposition ");
      if (line.find("CHANNELS") != std::string::npos) joints.emplace_back(at == std::string::npos ? 6 : 3, offset);
    } else if (!line.empty() && (std::isdigit(static_cast<unsigned char>(line[0])) || line[0] == '-')) {
      std::istringstream values(line);
      std::string row, value;
      for (const auto& [channels, joint_offset] : joints) {
        if (channels == 3) row += joint_offset + " ";
        for (int i = 0; i < channels && values >> value; ++i) row += value + " ";
      }
      line = row;
    }
    out += line + "\n";
  }
  return out;
}

/// The first motion row's value at `index`.
double first_row_value(const std::string& bvh, int index) {
  std::istringstream row(bvh.substr(bvh.find('\n', bvh.find("Frame Time:")) + 1));
  double v = 0;
  for (int i = 0; i <= index; ++i) row >> v;
  return v;
}

TEST(BvhVariantsRigCli, PositionChannelsOnEveryJointRead) {
  test::TempDir dir;
  const std::string text = with_positions_everywhere(walk_text());
  ASSERT_EQ(count_of(text, "CHANNELS 6"), count_of(text, "CHANNELS"));
  auto r = clean_text(dir, "six.bvh", text);
  test::expect_cleaned_with_contacts(dir, "six.bvh", r);
  EXPECT_FALSE(contains(r.err, "warning")) << r.err;
  EXPECT_EQ(count_of(read_file(dir / "out" / "six.bvh"), "CHANNELS 6"), count_of(text, "CHANNELS"));
}

/// Cleans the walk turned by `q` as `name`; the cleaned file keeps the turned file's axes.
void expect_turned_walk_cleans(Quat q, const std::string& name, const std::string& up_axis, int root_height_value) {
  Clip clip = test::walk_source_clip();
  test::turn_clip(clip, q);
  const std::string text = test::bvh_text(clip);
  test::TempDir dir;
  auto r = clean_text(dir, name, text);
  test::expect_cleaned_with_contacts(dir, name, r);
  EXPECT_FALSE(contains(r.err, "warning")) << r.err;
  EXPECT_EQ(test::cleaned_contacts(dir, name)["clip"]["up_axis"], up_axis);
  // Written back in the file's own axes: same hierarchy, the root as high along the file's up.
  const std::string cleaned = read_file(dir / "out" / name);
  EXPECT_EQ(cleaned.substr(0, cleaned.find("MOTION")), text.substr(0, text.find("MOTION")));
  const double before = first_row_value(text, root_height_value), after = first_row_value(cleaned, root_height_value);
  EXPECT_GT(std::abs(before), 10.0);
  EXPECT_NEAR(after, before, 0.1 * std::abs(before));
}

TEST(BvhVariantsRigCli, YDownHierarchyCleansInItsOwnAxes) {
  // Half a turn about Z: legs' offsets point +Y, the body's up is -Y.
  expect_turned_walk_cleans(axis_angle({0, 0, 1}, k_pi), "ydown.bvh", "-y", 1);
}

TEST(BvhVariantsRigCli, ZUpHierarchyCleansInItsOwnAxes) {
  expect_turned_walk_cleans(axis_angle({1, 0, 0}, k_pi / 2), "zup.bvh", "+z", 2);
}

TEST(BvhVariantsRigCli, TiltedHierarchyWarnsThatTheUpAxisIsAGuess) {
  Clip clip = test::walk_source_clip();
  test::turn_clip(clip, axis_angle({1, 0, 0}, 0.3 * k_pi));  // 54 degrees: between Y and Z, nearer Z
  test::TempDir dir;
  auto r = clean_text(dir, "tilted.bvh", test::bvh_text(clip));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count_of(r.err, "up axis"), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, "--up")) << r.err;
}

TEST(BvhVariantsRigCli, ZeroLengthJointsBetweenHipsAndThighs) {
  // The walk's LHipJoint/RHipJoint are such joints (OFFSET 0 0 0); named as exporters name them.
  std::string text = replace_all(walk_text(), "JOINT LHipJoint", "JOINT Hips_LeftUpLeg");
  text = replace_all(text, "JOINT RHipJoint", "JOINT Hips_RightUpLeg");
  test::TempDir dir;
  test::write_text(dir / "zero.bvh", text);
  const nlohmann::json legs = test::inspected_legs(dir / "zero.bvh");
  EXPECT_EQ(legs["left"]["hip"], "LeftUpLeg") << legs.dump();
  EXPECT_EQ(legs["right"]["hip"], "RightUpLeg") << legs.dump();
  test::expect_cleaned_with_contacts(dir, "zero.bvh", clean_text(dir, "zero.bvh", text));
}

TEST(BvhVariantsRigCli, MeaninglessNamesFindLegsBySkeletonAndSidesByGeometry) {
  Clip clip = test::walk_source_clip();
  const int left_hip = clip.skeleton.find("LeftUpLeg"), right_toe = clip.skeleton.find("RightToeBase");
  for (int j = 0; j < clip.joint_count(); ++j) clip.skeleton.names[j] = "joint_" + std::to_string(j);
  test::TempDir dir;
  const std::string text = test::bvh_text(clip);
  auto r = clean_text(dir, "anonymous.bvh", text);
  test::expect_cleaned_with_contacts(dir, "anonymous.bvh", r);
  EXPECT_EQ(count_of(r.err, "warning:"), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, "sides")) << r.err;
  const nlohmann::json legs = test::inspected_legs(dir / "anonymous.bvh");
  EXPECT_EQ(legs["left"]["hip"], "joint_" + std::to_string(left_hip)) << legs.dump();
  EXPECT_EQ(legs["right"]["toe"], "joint_" + std::to_string(right_toe)) << legs.dump();
}

TEST(BvhVariantsRigCli, LegEndingInAnEndSiteCleansWithContacts) {
  Clip clip = test::walk_source_clip();
  test::remove_leaf(clip, clip.skeleton.find("LeftToeBase"));
  test::remove_leaf(clip, clip.skeleton.find("RightToeBase"));
  const std::string text = test::bvh_text(clip);
  ASSERT_FALSE(contains(text, "ToeBase"));
  test::TempDir dir;
  auto r = clean_text(dir, "toeless.bvh", text);
  test::expect_cleaned_with_contacts(dir, "toeless.bvh", r);
  // Each foot's End Site is the contact point, said once for both legs (end_site_leg_cli_test).
  EXPECT_EQ(count_of(r.err, "no toe joint"), 1u) << r.err;
  EXPECT_EQ(test::cleaned_contacts(dir, "toeless.bvh")["feet"][0]["joint"], "LeftFoot End Site");
}

}  // namespace
}  // namespace footfix
