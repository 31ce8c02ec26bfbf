#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <sstream>

#include "bvh_test_text.h"
#include "footfix/files/atomic_file.h"
#include "footfix/bvh/bvh.h"
#include "bvh/bvh_source.h"  // BvhSource: internal to bvh, not installed
#include "support/paths.h"

namespace footfix {
namespace {

using test::k_small_bvh;
using test::replaced;

const BvhSource& source_of(const Clip& clip) {
  const auto* s = dynamic_cast<const BvhSource*>(clip.source.get());
  EXPECT_NE(s, nullptr);
  return *s;
}

void expect_vec(Vec3 actual, Vec3 expected, double tolerance = 1e-12) {
  EXPECT_NEAR(actual.x, expected.x, tolerance);
  EXPECT_NEAR(actual.y, expected.y, tolerance);
  EXPECT_NEAR(actual.z, expected.z, tolerance);
}

TEST(BvhRead, SmallFileStructureAndRawData) {
  Clip clip = parse_bvh(k_small_bvh, "small.bvh");
  ASSERT_EQ(clip.joint_count(), 2);
  EXPECT_EQ(clip.skeleton.names[0], "Hips");
  EXPECT_EQ(clip.skeleton.names[1], "Leg");
  EXPECT_EQ(clip.skeleton.parents[1], 0);
  EXPECT_EQ(clip.frame_count, 2);
  EXPECT_DOUBLE_EQ(clip.fps, 2.0);
  EXPECT_EQ(clip.source_name, "small.bvh");
  expect_vec(clip.skeleton.rest_offsets[1], {1, -2, 0});
  EXPECT_FALSE(clip.skeleton.end_sites[0].has_value());
  ASSERT_TRUE(clip.skeleton.end_sites[1].has_value());
  expect_vec(*clip.skeleton.end_sites[1], {0, -3, 0});

  const BvhSource& s = source_of(clip);
  EXPECT_EQ(s.values_per_frame, 9);
  EXPECT_EQ(s.joints[1].first_value, 6);
  ASSERT_EQ(s.values.size(), 18u);
  EXPECT_EQ(s.values[6], 10.0);
  EXPECT_EQ(s.values[17], -30.0);
  EXPECT_EQ(s.frame_time_s, 0.5);
  // Root translation comes from its position channels, the leg keeps its OFFSET.
  expect_vec(clip.translation(1, 0), {4, 5, 6});
  expect_vec(clip.translation(1, 1), {1, -2, 0});
}

TEST(BvhRead, RotationChannelsMultiplyInFileOrder) {
  // Leg: Zrotation Xrotation Yrotation = 90 90 0 means Rz(90) * Rx(90): +Y -> +Z (Rx) -> +Z (Rz).
  // The opposite order Rx(90) * Rz(90) would give -X.
  std::string text = replaced(k_small_bvh, "1 2 3 0 0 0 10 20 30", "1 2 3 0 0 0 90 90 0");
  Clip clip = parse_bvh(text, "order.bvh");
  expect_vec(rotate(clip.rotation(0, 1), {0, 1, 0}), {0, 0, 1});
  // Root: Zrotation Xrotation Yrotation = 0 90 90 means Rx(90) * Ry(90): +X -> -Z -> +Y.
  text = replaced(k_small_bvh, "1 2 3 0 0 0 10 20 30", "1 2 3 0 90 90 0 0 0");
  clip = parse_bvh(text, "order.bvh");
  expect_vec(rotate(clip.rotation(0, 0), {1, 0, 0}), {0, 1, 0});
}

TEST(BvhRead, AnyChannelSubsetAndOrder) {
  std::string text = replaced(k_small_bvh, "CHANNELS 3 Zrotation Xrotation Yrotation",
                              "CHANNELS 4 Zposition Yrotation Xrotation Zrotation");
  text = replaced(text, "1 2 3 0 0 0 10 20 30", "1 2 3 0 0 0 7 0 0 90");
  text = replaced(text, "4 5 6 90 0 0 -10 -20 -30", "4 5 6 90 0 0 8 0 0 0");
  Clip clip = parse_bvh(text, "subset.bvh");
  // Zposition replaces only the z of the offset (1, -2, 0).
  expect_vec(clip.translation(0, 1), {1, -2, 7});
  expect_vec(clip.translation(1, 1), {1, -2, 8});
  // Y X Z with Z = 90: +X -> +Y.
  expect_vec(rotate(clip.rotation(0, 1), {1, 0, 0}), {0, 1, 0});

  // A joint without CHANNELS has no values and rests at its offset.
  text = replaced(k_small_bvh, "    CHANNELS 3 Zrotation Xrotation Yrotation\n", "");
  text = replaced(text, "1 2 3 0 0 0 10 20 30", "1 2 3 0 0 0");
  text = replaced(text, "4 5 6 90 0 0 -10 -20 -30", "4 5 6 90 0 0");
  clip = parse_bvh(text, "nochannels.bvh");
  EXPECT_EQ(source_of(clip).values_per_frame, 6);
  expect_vec(clip.translation(1, 1), {1, -2, 0});
  EXPECT_EQ(clip.rotation(1, 1), Quat{});
}

// The reader decodes a whole clip at once (each joint's channels worked out once, repeated angles
// not decoded again); the writer decodes single joints with decode_bvh_joint to find those left
// as read. Both must give the same bits, and the fingerprints those of the clip as read.
TEST(BvhRead, ClipAsReadIsWhatDecodeBvhJointGivesBitForBit) {
  // Leg: positions and rotations interleaved in an odd order; a foot with X Y Z rotations; a toe
  // with two position channels and no rotation (it keeps the identity).
  std::string text = replaced(k_small_bvh, "    CHANNELS 3 Zrotation Xrotation Yrotation\n",
                              "    CHANNELS 6 Xposition Yrotation Zposition Xrotation Zrotation Yposition\n");
  text = replaced(text, "    End Site\n    {\n      OFFSET 0 -3 0\n    }\n",
                  "    JOINT Foot\n    {\n      OFFSET 0 -3 0\n      CHANNELS 3 Xrotation Yrotation Zrotation\n"
                  "      JOINT Toe\n      {\n        OFFSET 0 0 1\n        CHANNELS 2 Yposition Zposition\n"
                  "        End Site\n        {\n          OFFSET 0 0 1\n        }\n      }\n    }\n");
  text = replaced(text, "Frames: 2\n", "Frames: 4\n");
  // Frame 1 repeats frame 0's angles bit for bit (the leg moves); frame 2 has the leg and foot
  // at zero angles; frame 3 repeats the leg's zeros and turns the rest.
  text = replaced(text, "1 2 3 0 0 0 10 20 30\n4 5 6 90 0 0 -10 -20 -30\n",
                  "1 2 3 10 20 30 9 11.5 8 -12.25 33 7 1 2 3 4 5\n"
                  "4 5 6 10 20 30 9 11.5 7 -12.25 33 8 1 2 3 4 5\n"
                  "7 8 9 -45 0.5 3 9 0 6 0 0 5 0 0 0 0 7\n"
                  "1 1 1 -44 0.5 3 9 0 6 0 0 5 1 0 0 8 9\n");
  const Clip clip = parse_bvh(text, "layouts.bvh");
  ASSERT_EQ(clip.frame_count, 4);
  ASSERT_EQ(clip.joint_count(), 4);
  const BvhSource& source = source_of(clip);
  for (int f = 0; f < clip.frame_count; ++f)
    for (int j = 0; j < clip.joint_count(); ++j) {
      SCOPED_TRACE("frame " + std::to_string(f) + " joint " + std::to_string(j));
      const Transform t = decode_bvh_joint(source, source.raw_offsets[static_cast<size_t>(j)], f, j);
      EXPECT_EQ(0, std::memcmp(&t.rotation, &clip.rotation(f, j), sizeof(Quat)));
      EXPECT_EQ(0, std::memcmp(&t.translation, &clip.translation(f, j), sizeof(Vec3)));
    }
  EXPECT_EQ(source.rotation_fingerprints, rotation_fingerprints(clip));
  // The layouts read as meant.
  EXPECT_EQ(clip.translation(0, 1), (Vec3{9, 7, 8}));
  EXPECT_NE(clip.rotation(1, 1), Quat{});
  EXPECT_EQ(clip.rotation(2, 1), Quat{});
  EXPECT_NE(clip.rotation(3, 2), Quat{});
  EXPECT_EQ(clip.rotation(3, 3), Quat{});
  EXPECT_EQ(clip.translation(3, 3), (Vec3{0, 8, 9}));
}

TEST(BvhRead, LineEndingsTabsAndShortFrameTime) {
  std::string text;
  for (char c : k_small_bvh) {
    if (c == '\n') text += "\r\n";
    else if (c == ' ') text += "\t ";
    else text += c;
  }
  text = replaced(text, "Frame\t Time:\t 0.5", "Frame Time:\t.0083333");
  // Mix in a bare LF line ending and trailing blank lines.
  text = replaced(text, "MOTION\r\n", "MOTION\n");
  text += "\r\n\r\n";
  Clip clip = parse_bvh(text, "crlf.bvh");
  EXPECT_EQ(clip.frame_count, 2);
  EXPECT_DOUBLE_EQ(clip.fps, 1.0 / 0.0083333);
  expect_vec(clip.translation(1, 0), {4, 5, 6});
}

TEST(BvhRead, NamesAreTheRestOfTheLineAsBytes) {
  std::string text = replaced(k_small_bvh, "JOINT Leg\n", "JOINT  Left Leg \xff\xfe \t\n");
  Clip clip = parse_bvh(text, "names.bvh");
  EXPECT_EQ(clip.skeleton.names[1], "Left Leg \xff\xfe");
}

TEST(BvhRead, AFramesCountThatDisagreesReadsEveryCompleteRow) {
  // Rows past the count, as Blender's importer reads them.
  std::vector<std::string> warnings;
  Clip clip = parse_bvh(k_small_bvh + "7 8 9 0 0 0 0 0 0\n\n1 1 1 1 1 1 1 1 1\n", "extra.bvh", &warnings);
  EXPECT_EQ(clip.frame_count, 4);
  expect_vec(clip.translation(3, 0), {1, 1, 1});
  EXPECT_EQ(warnings, std::vector<std::string>{"Frames: 2 at line 17, 4 complete rows read"});
  // Fewer rows than the count, and a last row cut in a value or between values: dropped.
  for (const char* cut : {"7 8 9 0 0 -", "7 8 9 0\n \n"}) {
    SCOPED_TRACE(cut);
    warnings.clear();
    clip = parse_bvh(replaced(k_small_bvh, "Frames: 2", "Frames: 4") + cut, "cut.bvh", &warnings);
    EXPECT_EQ(clip.frame_count, 2);
    expect_vec(clip.translation(1, 0), {4, 5, 6});
    EXPECT_EQ(warnings, std::vector<std::string>{"Frames: 4 at line 17, 2 complete rows read; a partial row at line 21 was dropped"});
  }
  // Frames: 0 from a writer that never filled it in, and a cut row with no count at all.
  warnings.clear();
  clip = parse_bvh(replaced(k_small_bvh, "Frames: 2", "Frames: 0"), "zero.bvh", &warnings);
  EXPECT_EQ(clip.frame_count, 2);
  EXPECT_EQ(warnings, std::vector<std::string>{"Frames: 0 at line 17, 2 complete rows read"});
  warnings.clear();
  clip = parse_bvh(replaced(k_small_bvh, "Frames: 2\n", "") + "7 8", "uncounted.bvh", &warnings);
  EXPECT_EQ(clip.frame_count, 2);
  EXPECT_EQ(warnings, std::vector<std::string>{"2 complete rows read; a partial row at line 20 was dropped"});
}

TEST(BvhRead, SeveralSkeletons) {
  // A second ROOT after the first closes: a forest, its channels after the first's in each row,
  // said in one warning, and written back as two ROOT blocks with the same values.
  const std::string text = replaced(k_small_bvh, "MOTION\n",
                                    "ROOT Prop\n{\n  OFFSET 5 0 0\n  CHANNELS 3 Xposition Yposition Zposition\n"
                                    "  End Site\n  {\n    OFFSET 0 1 0\n  }\n}\nMOTION\n");
  std::vector<std::string> warnings;
  Clip clip = parse_bvh(replaced(replaced(text, "10 20 30\n", "10 20 30 7 8 9\n"), "-10 -20 -30\n", "-10 -20 -30 -7 -8 -9\n"),
                        "forest.bvh", &warnings);
  ASSERT_EQ(clip.joint_count(), 3);
  EXPECT_EQ(clip.skeleton.parents[2], -1);
  expect_vec(clip.translation(1, 2), {-7, -8, -9});
  expect_vec(clip.translation(1, 0), {4, 5, 6});
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "2 skeletons in one file (ROOTs 'Hips', 'Prop'): all are read; only the legs found are changed, the other skeletons keep their motion");
  std::ostringstream out;
  write_bvh(clip, out);
  Clip again = parse_bvh(out.str(), "again.bvh");
  EXPECT_EQ(again.skeleton.parents, clip.skeleton.parents);
  EXPECT_EQ(source_of(again).values, source_of(clip).values);
}

TEST(BvhRead, DeepButLegalNesting) {
  std::string text = "HIERARCHY\nROOT J0\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\n";
  const int depth = 1000;
  for (int i = 1; i < depth; ++i) text += "JOINT J" + std::to_string(i) + "\n{\nOFFSET 0 1 0\n";
  for (int i = 0; i < depth; ++i) text += "}\n";
  text += "MOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0\n";
  Clip clip = parse_bvh(text, "deep.bvh");
  EXPECT_EQ(clip.joint_count(), depth);
  EXPECT_EQ(clip.skeleton.parents[depth - 1], depth - 2);
}

// The motion values of `text` as std::from_chars reads each whitespace-separated token.
std::vector<double> from_chars_values(const std::string& text) {
  size_t at = text.find("Frame Time:");
  at = text.find('\n', at);
  std::istringstream in(text.substr(at + 1));
  std::vector<double> out;
  std::string token;
  while (in >> token) {
    const char* first = token.data() + (token[0] == '+' ? 1 : 0);
    double v = 0;
    auto result = std::from_chars(first, token.data() + token.size(), v);
    EXPECT_EQ(result.ec, std::errc()) << token;
    out.push_back(v);
  }
  return out;
}

void expect_values_match_from_chars(const std::string& text, const std::string& name) {
  Clip clip = parse_bvh(text, name);
  const std::vector<double> expected = from_chars_values(text);
  const std::vector<double>& values = source_of(clip).values;
  ASSERT_EQ(values.size(), expected.size()) << name;
  size_t differing = 0;
  for (size_t i = 0; i < values.size(); ++i)
    differing += std::bit_cast<uint64_t>(values[i]) == std::bit_cast<uint64_t>(expected[i]) ? 0 : 1;
  EXPECT_EQ(differing, 0u) << name;
}

TEST(BvhRead, NumbersAreExactlyWhatFromCharsReads) {
  // Plain decimals take a fast path; it must agree bit for bit with std::from_chars, including
  // signed zero, 15/16/17-digit numbers, exponents and numbers that are not exactly representable.
  const std::string row =
      "0.1 -0 .5 5. -.25 123456789012345 1234567890123456 0.30000000000000004 9007199254740993 "
      "1e-5 -2.5E3 +1.5 000000000000000001.5 0.000000000000001 -0.0083333 3.14159265358979 2.718281828459045";
  std::string text = "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Xrotation Yrotation Zrotation\n";
  const int joints = 3;  // 18 values per row, the row above has 17 + one more
  for (int j = 1; j < joints; ++j)
    text += "JOINT J" + std::to_string(j) + "\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Xrotation Yrotation Zrotation\n";
  for (int j = 0; j < joints; ++j) text += "}\n";
  text += "MOTION\nFrames: 1\nFrame Time: 1\n" + row + " 7\n";
  expect_values_match_from_chars(text, "numbers.bvh");
  for (const char* name : {"cmu_07_01_walk.bvh", "cmu_01_01_hops_turnaround.bvh"})
    expect_values_match_from_chars(read_file(test::data_clip(name)), name);
}

TEST(BvhRead, CorpusNumbersAreExactlyWhatFromCharsReads) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  for (const auto& entry : std::filesystem::directory_iterator(test::shared_clips_dir()))
    if (entry.path().extension() == ".bvh")
      expect_values_match_from_chars(read_file(entry.path()), entry.path().filename().string());
}

TEST(BvhRead, CmuWalkFromData) {
  const std::string text = read_file(test::data_clip("cmu_07_01_walk.bvh"));
  Clip clip = parse_bvh(text, "cmu_07_01_walk.bvh");
  // Figures from data/clips/README.md: 120 fps, 317 frames, 31 joints (+7 End Sites).
  EXPECT_EQ(clip.joint_count(), 31);
  EXPECT_EQ(clip.frame_count, 317);
  EXPECT_NEAR(clip.fps, 120.0, 0.01);
  int end_sites = 0;
  for (const auto& e : clip.skeleton.end_sites) end_sites += e ? 1 : 0;
  EXPECT_EQ(end_sites, 7);
  EXPECT_GE(clip.skeleton.find("LeftToeBase"), 0);
  // First motion row starts "8.8721 15.7511 -31.7081".
  expect_vec(clip.translation(0, 0), {8.8721, 15.7511, -31.7081});
}

TEST(BvhRead, MixedLineEndingsClipFromData) {
  const std::string text = read_file(test::data_clip("cmu3dsmax_131_01_start_walk_stop.bvh"));
  ASSERT_NE(text.find("\r\n"), std::string::npos);
  Clip clip = parse_bvh(text, "131_01.bvh");
  EXPECT_EQ(clip.frame_count, 994);
  EXPECT_EQ(clip.joint_count(), 31);
  EXPECT_GE(clip.skeleton.find("LeftToe"), 0);
}

TEST(BvhRead, BandaiSixChannelJointsTakeTranslationFromChannels) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  const std::string text = read_file(test::shared_clips_dir() / "bandai1_run_active_001.bvh");
  Clip clip = parse_bvh(text, "bandai1_run_active_001.bvh");
  EXPECT_EQ(clip.frame_count, 72);
  EXPECT_NEAR(clip.fps, 30.0, 0.001);
  const int hips = clip.skeleton.find("Hips");
  ASSERT_EQ(hips, 1);
  // OFFSET 0.847027 93.984 -452.225, but the first row's Hips channels are -1.42024 85.3925 -256.963.
  expect_vec(clip.skeleton.rest_offsets[hips], {0.847027, 93.984, -452.225});
  expect_vec(clip.translation(0, hips), {-1.42024, 85.3925, -256.963});
  for (const auto& layout : source_of(clip).joints) EXPECT_EQ(layout.channels.size(), 6u);
}

TEST(BvhRead, EveryCorpusClipParses) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::shared_clips_dir())) {
    if (entry.path().extension() != ".bvh") continue;
    std::vector<std::string> warnings;
    Clip clip = parse_bvh(read_file(entry.path()), entry.path().filename().string(), &warnings);
    EXPECT_GT(clip.frame_count, 0) << entry.path();
    EXPECT_TRUE(warnings.empty()) << entry.path() << ": " << (warnings.empty() ? "" : warnings[0]);
    ++count;
  }
  EXPECT_EQ(count, 13);
}

}  // namespace
}  // namespace footfix
