// BVH as real capture tools write it (issue 30, section 1), each a small variant of the bundled
// walk cleaned through the binary: what Blender's importer reads, footfix reads, and a guess is
// said in one warning.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cctype>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "cli/bvh_variant_helpers.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using test::clean_text;
using test::contains;
using test::count_of;
using test::numbers_of;
using test::replace_all;
using test::walk_text;

/// Cleans `text` as `name` and expects it read as it is: a cleaned clip and no warning (nothing
/// was guessed).
void expect_read_without_guessing(const std::string& name, const std::string& text) {
  test::TempDir dir;
  auto r = clean_text(dir, name, text);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir / "out" / name));
  EXPECT_FALSE(contains(r.err, "warning")) << r.err;
}

TEST(BvhVariantsCli, TextAfterEndSiteIsAComment) {
  expect_read_without_guessing("commented.bvh", replace_all(walk_text(), "End Site", "End Site #name: tip"));
}

TEST(BvhVariantsCli, SeveralEndSitesUnderOneJointKeepTheFirstWithOneWarning) {
  test::TempDir dir;
  // Every End Site block written twice, the copy with another offset (a hand tracker's tips).
  std::string text = walk_text();
  for (std::size_t at = 0; (at = text.find("End Site", at)) != std::string::npos;) {
    const std::size_t close = text.find('}', at) + 1;
    text.insert(close, "\nEnd Site\n{ OFFSET 9 9 9 }");
    at = close + 10;  // past the copy's own "End Site"
  }
  ASSERT_EQ(count_of(text, "End Site"), 2 * count_of(walk_text(), "End Site"));
  auto r = clean_text(dir, "tips.bvh", text);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count_of(r.err, "warning:"), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, "extra End Site")) << r.err;
  // The first End Site of each joint is the one kept: the cleaned clip has the walk's offsets.
  const std::string cleaned = read_file(dir / "out" / "tips.bvh");
  EXPECT_EQ(count_of(cleaned, "End Site"), count_of(walk_text(), "End Site"));
  EXPECT_FALSE(contains(cleaned, "9 9 9")) << "a later End Site replaced the first";
}

TEST(BvhVariantsCli, CrlfLineEndingsRead) {
  test::TempDir dir;
  auto r = clean_text(dir, "crlf.bvh", replace_all(walk_text(), "\n", "\r\n"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir / "out" / "crlf.bvh"));
}

TEST(BvhVariantsCli, KeywordsInAnyCaseRead) {
  // Blender's importer matches keywords without regard to case; some converters write them so.
  std::string text = walk_text();
  for (const char* keyword : {"HIERARCHY", "ROOT", "JOINT", "OFFSET", "CHANNELS", "MOTION", "Frames:"}) {
    std::string lower = keyword;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    text = replace_all(text, keyword, lower);
  }
  text = replace_all(replace_all(text, "End Site", "end site"), "Frame Time:", "Frame time:");
  ASSERT_FALSE(contains(text, "ROOT"));
  expect_read_without_guessing("lower.bvh", text);
}

TEST(BvhVariantsCli, AByteOrderMarkIsSkipped) {
  // Windows tools write a UTF-8 byte-order mark before HIERARCHY.
  expect_read_without_guessing("bom.bvh", "\xef\xbb\xbf" + walk_text());
}

/// The motion block ("MOTION" on) of the clip cleaned from `text` as `name`, read without warning.
std::string cleaned_motion(const std::string& name, const std::string& text) {
  test::TempDir dir;
  auto r = clean_text(dir, name, text);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "warning")) << r.err;
  const std::string cleaned = fs::exists(dir / "out" / name) ? read_file(dir / "out" / name) : "";
  const std::size_t motion = cleaned.find("MOTION");
  return motion == std::string::npos ? "" : cleaned.substr(motion);
}

TEST(BvhVariantsCli, BracesOnTheNameLineRead) {
  // assimp's and three.js's readers take the hierarchy as tokens: "ROOT Hips {", "End Site {
  // OFFSET 0 0 1 }" on one line. The clip is the walk's: it cleans to the same motion.
  // Each line that holds only a '{' joins the line before it.
  std::string joined;
  std::istringstream lines(walk_text());
  for (std::string line; std::getline(lines, line);) {
    if (line.find_first_not_of(" \t") == line.find('{') && line.find('{') != std::string::npos)
      joined.back() = ' ';
    joined += line + "\n";
  }
  ASSERT_TRUE(contains(joined, "Hips {")) << joined.substr(0, 200);
  const std::string blocks_opened_inline = replace_all(replace_all(joined, "{\n", "{ "), "\n}", " }");
  for (const std::string& variant : {joined, blocks_opened_inline})
    EXPECT_EQ(cleaned_motion("braces.bvh", variant), cleaned_motion("walk.bvh", walk_text()));
}

TEST(BvhVariantsCli, ClassicMacLineEndsRead) {
  // A CR alone ends each line (classic Mac OS tools); Blender's importer reads it so.
  EXPECT_EQ(cleaned_motion("cr.bvh", replace_all(walk_text(), "\n", "\r")), cleaned_motion("walk.bvh", walk_text()));
}

TEST(BvhVariantsCli, AMissingFrameTimeIsAssumedWithAWarning) {
  // The rows straight after "Frames:", as Blender's importer reads them (at the scene's rate).
  test::TempDir dir;
  std::string text = walk_text();
  const std::size_t at = text.find("Frame Time:");
  ASSERT_NE(at, std::string::npos);
  text.erase(at, text.find('\n', at) + 1 - at);
  auto r = clean_text(dir, "no_time.bvh", text);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "no 'Frame Time:' line")) << r.err;
  // The walk's motion says 120 Hz, and the assumed rate is corrected for the clean, with a word.
  EXPECT_TRUE(contains(r.err, "looks like 120 fps")) << r.err;
  // The written clip states a rate, and reads back without that warning.
  const std::string cleaned = read_file(dir / "out" / "no_time.bvh");
  EXPECT_TRUE(contains(cleaned, "Frame Time:"));
  test::TempDir again;
  auto back = clean_text(again, "again.bvh", cleaned);
  EXPECT_EQ(back.exit_code, 0) << back.err;
  EXPECT_FALSE(contains(back.err, "no 'Frame Time:' line")) << back.err;
}

/// The walk with its motion header's two lines ("Frames: 317", "Frame Time: .0083333") replaced
/// by `header` (lines, each ending in a line end).
std::string walk_with_motion_header(const std::string& header) {
  std::string text = walk_text();
  const std::size_t frames = text.find("Frames:");
  const std::size_t rows = text.find('\n', text.find("Frame Time:")) + 1;
  return text.replace(frames, rows - frames, header);
}

TEST(BvhVariantsCli, MotionHeadersAsWritersSpellThemRead) {
  // Blender's importer splits the header lines into words: any spacing, '=' or no colon, and
  // the two lines in either order, clean to the same motion. The cleaned file states the header
  // in the usual spelling.
  const std::string as_read = cleaned_motion("walk.bvh", walk_text());
  ASSERT_TRUE(contains(as_read, "Frames: 317\nFrame Time: .0083333\n")) << as_read.substr(0, 80);
  for (const std::string header : {"Frames = 317\nFrame   Time =  .0083333\n", "FRAMES 317\nframe time .0083333\n",
                                    "Frame Time: .0083333\nFrames: 317\n"}) {
    const std::string motion = cleaned_motion("spelt.bvh", walk_with_motion_header(header));
    EXPECT_TRUE(contains(motion, "Frames: 317\nFrame Time: 0.0083333\n")) << header;
    EXPECT_EQ(motion.substr(motion.find('\n', motion.find("Frame Time")) + 1),
              as_read.substr(as_read.find('\n', as_read.find("Frame Time")) + 1)) << header;
  }
}

TEST(BvhVariantsCli, WithoutAFramesLineEveryRowIsRead) {
  // Nothing is guessed: the rows present are the frames.
  const std::string motion = cleaned_motion("no_count.bvh", walk_with_motion_header("Frame Time: .0083333\n"));
  EXPECT_TRUE(contains(motion, "Frames: 317\n")) << motion.substr(0, 80);
}

TEST(BvhVariantsCli, ColumnsPastTheChannelsOnEveryRowAreIgnoredWithAWarning) {
  // Some writers add columns to each row (a time stamp, padding); Blender's importer reads a row
  // by its channels' positions. On some rows only, they are damage: a located error.
  std::string text = walk_text();
  const std::size_t first_row = text.find('\n', text.find("Frame Time:")) + 1;
  std::string padded = text.substr(0, first_row);
  std::istringstream rows(text.substr(first_row));
  for (std::string row; std::getline(rows, row);)
    if (!row.empty()) padded += row + " 0 1.5\n";
  test::TempDir dir;
  auto r = clean_text(dir, "padded.bvh", padded);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count_of(r.err, "warning:"), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, "every motion row holds 2 values more than the hierarchy's 96 channels")) << r.err;
  // The same values as the walk's own rows give, written without the extra columns (printed
  // anew, not copied from the rows' text).
  const std::string cleaned = read_file(dir / "out" / "padded.bvh");
  EXPECT_EQ(numbers_of(cleaned.substr(cleaned.find("MOTION"))), numbers_of(cleaned_motion("walk.bvh", text)));

  const std::size_t third_row = padded.find('\n', padded.find('\n', first_row) + 1) + 1;
  std::string damaged = padded;
  damaged.replace(damaged.find(" 0 1.5\n", third_row), 7, "\n");
  test::TempDir bad;
  auto refused = clean_text(bad, "damaged.bvh", damaged);
  EXPECT_EQ(refused.exit_code, 3) << refused.err;
  EXPECT_TRUE(contains(refused.err, "damaged.bvh:190: expected 98 values, found 96")) << refused.err;
}

TEST(BvhVariantsCli, AChannelsCountThatDisagreesWithItsNamesIsReadByTheNames) {
  // Blender's importer reads the names on the CHANNELS line and ignores the count: one warning
  // per joint, and the clip cleans to the walk's motion (written with the right counts).
  const std::string walk = walk_text();
  const std::string fewer = replace_all(walk, "CHANNELS 6 Xposition", "CHANNELS 3 Xposition");
  const std::string more = replace_all(walk, "CHANNELS 3 Zrotation", "CHANNELS 4 Zrotation");
  ASSERT_NE(fewer, walk);
  ASSERT_NE(more, walk);
  for (const std::string& text : {fewer, more}) {
    test::TempDir dir;
    auto r = clean_text(dir, "count.bvh", text);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "CHANNELS count does not match the")) << r.err;
    const std::string cleaned = read_file(dir / "out" / "count.bvh");
    EXPECT_TRUE(contains(cleaned, "CHANNELS 6 Xposition")) << cleaned.substr(0, 200);
    EXPECT_FALSE(contains(cleaned, "CHANNELS 4")) << cleaned.substr(0, 200);
    EXPECT_EQ(numbers_of(cleaned.substr(cleaned.find("MOTION"))), numbers_of(cleaned_motion("walk.bvh", walk)));
  }
}

/// The motion rows of a written BVH text, each as its words.
std::vector<std::vector<std::string>> motion_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text.substr(text.find("Frame Time")));
  std::string line;
  std::getline(lines, line);  // the Frame Time line
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    rows.emplace_back(std::istream_iterator<std::string>(words), std::istream_iterator<std::string>());
  }
  return rows;
}

/// The walk's hierarchy lines (between HIERARCHY and MOTION) and its motion rows.
std::pair<std::string, std::vector<std::string>> walk_parts() {
  const std::string text = walk_text();
  const std::size_t first = text.find('\n') + 1, motion = text.find("MOTION");
  std::vector<std::string> rows;
  std::istringstream lines(text.substr(text.find('\n', text.find("Frame Time")) + 1));
  for (std::string line; std::getline(lines, line);)
    if (line.find_first_not_of(" \t\r") != std::string::npos) rows.push_back(line);
  return {text.substr(first, motion - first), rows};
}

/// `text` with its motion header ("MOTION", Frames, Frame Time) put before `rows`.
std::string with_walk_motion(const std::string& hierarchy, const std::vector<std::string>& rows) {
  const std::string text = walk_text();
  const std::size_t motion = text.find("MOTION"), first_row = text.find('\n', text.find("Frame Time")) + 1;
  std::string out = "HIERARCHY\n" + hierarchy + text.substr(motion, first_row - motion);
  for (const std::string& row : rows) out += row + "\n";
  return out;
}

TEST(BvhVariantsCli, CommentLinesInTheHierarchyAreSkippedWithOneWarning) {
  // Some exporters sign the hierarchy ("# written by ..."); Blender's importer skips any line it
  // does not know. The clip is the walk's: it cleans to the same motion.
  test::TempDir dir;
  std::string text = replace_all(walk_text(), "HIERARCHY\n", "HIERARCHY\n# exported by a capture tool 2.1\n");
  text = replace_all(text, "\tJOINT LHipJoint", "\t// left leg\n\tJOINT LHipJoint");
  ASSERT_EQ(count_of(text, "// left leg"), 1u);
  auto r = clean_text(dir, "signed.bvh", text);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count_of(r.err, "warning:"), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, "2 comment line(s) in the hierarchy (first: line 2) ignored")) << r.err;
  // The hierarchy is written anew (without the comments); the motion is the walk's clean.
  EXPECT_EQ(motion_rows(read_file(dir / "out" / "signed.bvh")), motion_rows(cleaned_motion("walk.bvh", walk_text())));
  // A '#' where a value belongs is no comment: still a located error.
  test::TempDir bad;
  auto refused = clean_text(bad, "bad.bvh", replace_all(walk_text(), "OFFSET 0 0 0", "OFFSET 0 # 0"));
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_TRUE(contains(refused.err, "bad.bvh:8: joint 'LHipJoint': bad OFFSET value '#'")) << refused.err;
}

TEST(BvhVariantsCli, SeveralSkeletonsInOneFileAreReadAndOnlyTheOneWithLegsIsCleaned) {
  // A prop before the body and a second performer after it, each a ROOT of its own, as Blender's
  // importer reads them. The body is cleaned as it is alone; the others keep their motion.
  const auto [hierarchy, rows] = walk_parts();
  const std::vector<std::vector<std::string>> alone = motion_rows(cleaned_motion("walk.bvh", walk_text()));
  const std::string prop = "ROOT Prop\n{\n\tOFFSET 0 0 0\n\tCHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
                           "\tEnd Site\n\t{\n\t\tOFFSET 0 10 0\n\t}\n}\n";
  const std::string second = replace_all(replace_all(hierarchy, "ROOT ", "ROOT P2_"), "JOINT ", "JOINT P2_");
  std::vector<std::string> with_prop, with_second;
  for (const std::string& row : rows) {
    with_prop.push_back("1.5 2.5 3.5 10 20 -30 " + row);
    with_second.push_back(row + " " + row);
  }
  struct Case {
    std::string name, text, warning;
    std::size_t body_first;  // the body's first value in a row
  };
  const Case cases[] = {{"prop.bvh", with_walk_motion(prop + hierarchy, with_prop), "2 skeletons in one file (ROOTs 'Prop', 'Hips')", 6},
                        {"two.bvh", with_walk_motion(hierarchy + second, with_second), "2 skeletons in one file (ROOTs 'Hips', 'P2_Hips')", 0}};
  for (const Case& c : cases) {
    test::TempDir dir;
    auto r = clean_text(dir, c.name, c.text);
    ASSERT_EQ(r.exit_code, 0) << c.name << ": " << r.err;
    EXPECT_EQ(count_of(r.err, "warning:"), 1u) << r.err;
    EXPECT_TRUE(contains(r.err, c.warning)) << r.err;
    const std::string cleaned = read_file(dir / "out" / c.name);
    EXPECT_EQ(count_of(cleaned, "ROOT "), 2u) << c.name;
    const auto out = motion_rows(cleaned), in = motion_rows(c.text.substr(c.text.find("MOTION")));
    ASSERT_EQ(out.size(), alone.size()) << c.name;
    std::size_t body_differs = 0, others_differ = 0;
    for (std::size_t f = 0; f < out.size(); ++f) {
      const std::size_t width = alone[f].size();
      ASSERT_EQ(out[f].size(), width + in[f].size() - width) << c.name << " row " << f;
      for (std::size_t i = 0; i < out[f].size(); ++i) {
        const bool body = i >= c.body_first && i < c.body_first + width;
        if (body) body_differs += out[f][i] != alone[f][i - c.body_first];
        else others_differ += out[f][i] != in[f][i];
      }
    }
    EXPECT_EQ(body_differs, 0u) << c.name << ": the body is not cleaned as it is alone";
    EXPECT_EQ(others_differ, 0u) << c.name << ": a skeleton without legs found changed";
  }
}

TEST(BvhVariantsCli, NonFiniteValuesAreALocatedError) {
  test::TempDir dir;
  std::string text = walk_text();
  const std::size_t row = text.find('\n', text.find("Frame Time:")) + 1;
  text.replace(row, text.find_first_of(" \t", row) - row, "nan");  // the first value of the first frame
  auto r = clean_text(dir, "nan.bvh", text);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const std::size_t at = r.err.find("nan.bvh:");
  ASSERT_NE(at, std::string::npos) << r.err;
  EXPECT_TRUE(std::isdigit(static_cast<unsigned char>(r.err[at + 8]))) << "no line number: " << r.err;
  EXPECT_TRUE(contains(r.err, "non-finite value")) << r.err;
}

// Leg naming conventions of video, depth-camera and game exporters: the legs are found, left as
// left, and the clip cleans.
struct Convention {
  const char* name;
  std::vector<std::pair<std::string, std::string>> renames;  ///< walk joint -> convention's name
};

class NamingConvention : public testing::TestWithParam<Convention> {};

TEST_P(NamingConvention, LegsAreFoundAndTheClipCleans) {
  const Convention& c = GetParam();
  std::string text = walk_text();
  for (const auto& [from, to] : c.renames)
    for (const char* keyword : {"JOINT ", "ROOT "}) text = replace_all(text, keyword + from + "\n", keyword + to + "\n");
  test::TempDir dir;
  test::write_text(dir / "clip.bvh", text);
  const nlohmann::json found = test::inspected_legs(dir / "clip.bvh");
  const auto renamed = [&](const std::string& walk_name) {
    for (const auto& [from, to] : c.renames)
      if (from == walk_name) return to;
    return walk_name;
  };
  EXPECT_EQ(found["left"]["hip"], renamed("LeftUpLeg")) << found.dump();
  EXPECT_EQ(found["left"]["knee"], renamed("LeftLeg"));
  EXPECT_EQ(found["right"]["heel"], renamed("RightFoot"));
  EXPECT_EQ(found["right"]["toe"], renamed("RightToeBase"));
  auto cleaned = clean_text(dir, "clip.bvh", text);
  EXPECT_EQ(cleaned.exit_code, 0) << cleaned.err;
}

std::vector<std::pair<std::string, std::string>> legs(const std::string& pelvis, const std::vector<std::string>& left,
                                                      const std::vector<std::string>& right) {
  std::vector<std::pair<std::string, std::string>> out{{"Hips", pelvis}};
  const char* walk_left[] = {"LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase"};
  const char* walk_right[] = {"RightUpLeg", "RightLeg", "RightFoot", "RightToeBase"};
  for (std::size_t i = 0; i < 4; ++i) {
    out.emplace_back(walk_left[i], left[i]);
    out.emplace_back(walk_right[i], right[i]);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(
    Bvh, NamingConvention,
    testing::Values(
        Convention{"smpl", legs("Pelvis", {"Left_hip", "Left_knee", "Left_ankle", "Left_foot"},
                                {"Right_hip", "Right_knee", "Right_ankle", "Right_foot"})},
        Convention{"openpose", legs("MidHip", {"LeftHip", "LeftKnee", "LeftAnkle", "LeftBigToe"},
                                    {"RightHip", "RightKnee", "RightAnkle", "RightBigToe"})},
        Convention{"kinect", legs("PELVIS", {"HIP_LEFT", "KNEE_LEFT", "ANKLE_LEFT", "FOOT_LEFT"},
                                  {"HIP_RIGHT", "KNEE_RIGHT", "ANKLE_RIGHT", "FOOT_RIGHT"})},
        Convention{"maya_jnt", legs("root_JNT", {"l_upleg_JNT", "l_leg_JNT", "l_foot_JNT", "l_toebase_JNT"},
                                    {"r_upleg_JNT", "r_leg_JNT", "r_foot_JNT", "r_toebase_JNT"})},
        Convention{"mixamo", legs("mixamorig:Hips", {"mixamorig:LeftUpLeg", "mixamorig:LeftLeg", "mixamorig:LeftFoot",
                                                     "mixamorig:LeftToeBase"},
                                  {"mixamorig:RightUpLeg", "mixamorig:RightLeg", "mixamorig:RightFoot",
                                   "mixamorig:RightToeBase"})},
        Convention{"biped", legs("Bip01 Pelvis", {"Bip01 L Thigh", "Bip01 L Calf", "Bip01 L Foot", "Bip01 L Toe0"},
                                 {"Bip01 R Thigh", "Bip01 R Calf", "Bip01 R Foot", "Bip01 R Toe0"})},
        Convention{"daz", legs("hip", {"lThighBend", "lShin", "lFoot", "lToe"}, {"rThighBend", "rShin", "rFoot", "rToe"})},
        Convention{"unreal", legs("pelvis", {"thigh_l", "calf_l", "foot_l", "ball_l"}, {"thigh_r", "calf_r", "foot_r", "ball_r"})},
        Convention{"rokoko", legs("Hips", {"LeftThigh", "LeftShin", "LeftFoot", "LeftToe"},
                                  {"RightThigh", "RightShin", "RightFoot", "RightToe"})},
        Convention{"vrm", legs("J_Bip_C_Hips", {"J_Bip_L_UpperLeg", "J_Bip_L_LowerLeg", "J_Bip_L_Foot", "J_Bip_L_ToeBase"},
                               {"J_Bip_R_UpperLeg", "J_Bip_R_LowerLeg", "J_Bip_R_Foot", "J_Bip_R_ToeBase"})},
        Convention{"rigify", legs("pelvis", {"thigh.L", "shin.L", "foot.L", "toe.L"}, {"thigh.R", "shin.R", "foot.R", "toe.R"})},
        Convention{"anonymous", legs("j0", {"j1", "j2", "j3", "j4"}, {"j5", "j6", "j7", "j8"})}),
    [](const testing::TestParamInfo<Convention>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace footfix
