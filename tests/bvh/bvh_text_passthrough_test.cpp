// The BVH writer keeps the text of the motion values it leaves unchanged: their digits, signs,
// exponents, blanks and line ends as in the file; only changed values are written anew.
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "bvh_test_text.h"
#include "footfix/core/euler.h"
#include "footfix/core/read_file.h"
#include "bvh/bvh_source.h"  // BvhSource: internal to bvh, not installed
#include "footfix/bvh/bvh.h"
#include "support/paths.h"

namespace footfix {
namespace {

// The small test skeleton (a root with 6 channels, a leg with 3) with motion rows in odd but
// valid formatting that a print of the parsed numbers would not reproduce.
const std::string k_motion_rows =
    "1.500000 -0 1e-5 0 0.0 +2 10 20 30\n"
    "\t4\t\t5  6 90.10 0 0  -10.000 20 -3.0E+1 \r\n"
    "  7 8 9 0 0 0 1 2 3";  // no line end after the last row
const std::string k_odd_bvh = test::replaced(test::replaced(test::k_small_bvh, "Frames: 2", "Frames: 3"),
                                             "1 2 3 0 0 0 10 20 30\n4 5 6 90 0 0 -10 -20 -30\n", k_motion_rows);

std::string text_written(const Clip& clip) {
  std::ostringstream out;
  write_bvh(clip, out);
  return out.str();
}

// The text after the "Frame Time:" line.
std::string motion_rows_text(const std::string& bvh) {
  const size_t at = bvh.find("Frame Time:");
  EXPECT_NE(at, std::string::npos);
  return bvh.substr(bvh.find('\n', at) + 1);
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(BvhTextPassthrough, UnchangedValuesKeepTheirText) {
  const Clip clip = parse_bvh(k_odd_bvh, "odd.bvh");
  ASSERT_EQ(clip.frame_count, 3);
  // The rows as in the file, the last given the line end it lacked.
  EXPECT_EQ(motion_rows_text(text_written(clip)), motion_rows_text(k_odd_bvh) + "\n");
}

const BvhSource& bvh_source(const Clip& clip) {
  const auto* source = dynamic_cast<const BvhSource*>(clip.source.get());
  EXPECT_NE(source, nullptr);
  return *source;
}

Clip parse_without_text(const std::string& text) {
  ReadLimits limits;
  limits.keep_bvh_text = false;
  return parse_bvh(text, "odd.bvh", nullptr, limits);
}

TEST(BvhTextPassthrough, AReadWithoutTheTextKeepsNoTextAndTheSameClip) {
  const Clip kept = parse_bvh(k_odd_bvh, "odd.bvh");
  const Clip bare = parse_without_text(k_odd_bvh);
  EXPECT_EQ(bvh_source(kept).motion_text, motion_rows_text(k_odd_bvh));
  EXPECT_TRUE(bvh_source(bare).motion_text.empty());
  EXPECT_TRUE(bvh_source(bare).row_ends.empty());
  EXPECT_TRUE(bvh_source(bare).value_starts.empty());
  EXPECT_EQ(bvh_source(bare).values, bvh_source(kept).values);
  ASSERT_EQ(bare.frame_count, kept.frame_count);
  for (int f = 0; f < kept.frame_count; ++f)
    for (int j = 0; j < kept.joint_count(); ++j) {
      EXPECT_EQ(std::memcmp(&bare.rotation(f, j), &kept.rotation(f, j), sizeof(Quat)), 0) << f << " " << j;
      EXPECT_EQ(std::memcmp(&bare.translation(f, j), &kept.translation(f, j), sizeof(Vec3)), 0) << f << " " << j;
    }
}

TEST(BvhTextPassthrough, AClipReadWithoutTheTextIsWrittenAnewWithTheSameValues) {
  const std::string written = text_written(parse_without_text(k_odd_bvh));
  // "-0", "1e-5", "+2", "-3.0E+1", the tabs and the "\r\n" are the file's text, not a print.
  EXPECT_NE(motion_rows_text(written), motion_rows_text(k_odd_bvh) + "\n");
  EXPECT_EQ(bvh_source(parse_bvh(written, "written.bvh")).values, bvh_source(parse_bvh(k_odd_bvh, "odd.bvh")).values);
}

// lock keeps the text for the outputs save_clip writes as BVH: the same extensions.
TEST(BvhTextPassthrough, BvhPathsAreTheLastExtensionInAnyCase) {
  EXPECT_TRUE(is_bvh_path("out/walk.bvh"));
  EXPECT_TRUE(is_bvh_path("WALK.BVH"));
  EXPECT_FALSE(is_bvh_path("walk.bvh.glb"));
  EXPECT_FALSE(is_bvh_path("walk.fbx"));
  EXPECT_FALSE(is_bvh_path("bvh"));
}

TEST(BvhTextPassthrough, OnlyTheChangedJointIsWrittenAnew) {
  Clip clip = parse_bvh(k_odd_bvh, "odd.bvh");
  const int leg = clip.skeleton.find("Leg");
  ASSERT_GT(leg, 0);
  clip.rotation(1, leg) = axis_angle(Vec3{0, 0, 1}, 0.25);  // 0.25 rad about Z, in frame 1 only
  const std::vector<std::string> in = split_lines(motion_rows_text(k_odd_bvh));
  const std::vector<std::string> out = split_lines(motion_rows_text(text_written(clip)));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0], in[0]);
  EXPECT_EQ(out[2], in[2]);
  // Frame 1: the root's six values and the blanks before the leg's keep their text.
  const std::string root_text = "\t4\t\t5  6 90.10 0 0  ";
  EXPECT_EQ(out[1].substr(0, root_text.size()), root_text);
  EXPECT_NE(out[1], in[1]);
  const Clip reread = parse_bvh(text_written(clip), "odd (written).bvh");
  const Quat q = reread.rotation(1, leg);
  EXPECT_NEAR(angle_of(q * conjugate(axis_angle(Vec3{0, 0, 1}, 0.25))), 0, 1e-12);
  EXPECT_EQ(reread.translation(1, 0), clip.translation(1, 0));
}

// Changed values in the middle of a row are written over their own text only: the blanks
// around them (tabs, two spaces) and the values after them keep theirs.
TEST(BvhTextPassthrough, ChangedValuesMidRowKeepTheBlanksAroundThem) {
  Clip clip = parse_bvh(k_odd_bvh, "odd.bvh");
  clip.translation(1, 0) = Vec3{0.5, 5, 6};  // the root's X position in frame 1 only (file units)
  const std::vector<std::string> in = split_lines(motion_rows_text(k_odd_bvh));
  const std::vector<std::string> out = split_lines(motion_rows_text(text_written(clip)));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0], in[0]);
  EXPECT_EQ(out[1], "\t0.5\t\t5  6 90.10 0 0  -10.000 20 -3.0E+1 \r");
  EXPECT_EQ(out[2], in[2]);
}

// A clip read and written unchanged is its file again, byte for byte: the bundled clips, read
// streaming from the file (read_bvh_file) and from text, with LF and CRLF line ends.
TEST(BvhTextPassthrough, UnchangedClipIsWrittenAsItsFile) {
  for (const char* name : {"cmu_07_01_walk.bvh", "cmu3dsmax_131_03_start_hop_stop_meters.bvh"}) {
    const std::string file = read_file(test::data_clip(name));
    EXPECT_EQ(text_written(read_bvh_file(test::data_clip(name), name)), file) << name;
    std::string crlf;
    for (char c : file) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    EXPECT_EQ(text_written(parse_bvh(crlf, name)), crlf) << name << " with CRLF";
  }
}

// The header is written anew where the skeleton or frame count differ from the file's.
TEST(BvhTextPassthrough, ChangedFrameCountWritesTheHeaderAnew) {
  Clip clip = parse_bvh(k_odd_bvh, "odd.bvh");
  clip.frame_count = 2;
  clip.rotations.resize(2 * static_cast<size_t>(clip.joint_count()));
  clip.translations.resize(2 * static_cast<size_t>(clip.joint_count()));
  const std::string text = text_written(clip);
  EXPECT_NE(text.find("Frames: 2\n"), std::string::npos);
  const std::vector<std::string> rows = split_lines(motion_rows_text(text));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], split_lines(k_motion_rows)[0]);
  EXPECT_EQ(parse_bvh(text, "odd (written).bvh").frame_count, 2);
}

// Rows too long for the per-value text offsets, and repaired values, have no text to keep: their
// values are printed and read back the same.
TEST(BvhTextPassthrough, RowsWithoutTextArePrintedAndReadBackTheSame) {
  const std::string long_row = test::replaced(k_odd_bvh, "-0 1e-5", "-0" + std::string(70000, ' ') + "1e-5");
  const std::string repaired = test::replaced(k_odd_bvh, "90.10", "nan");
  ReadLimits repair;
  repair.repair_bvh = true;
  for (const std::string& text : {long_row, repaired}) {
    const Clip clip = parse_bvh(text, "odd.bvh", nullptr, repair);
    const std::string out = text_written(clip);
    EXPECT_EQ(motion_rows_text(out).find("  "), std::string::npos);  // one blank between values
    EXPECT_EQ(out.find("nan"), std::string::npos);
    const Clip reread = parse_bvh(out, "odd (written).bvh");
    EXPECT_EQ(reread.rotations, clip.rotations);
    EXPECT_EQ(reread.translations, clip.translations);
  }
}

}  // namespace
}  // namespace footfix
