// BVH variants of timing and values (issue 30, section 1): a stated frame rate the motion
// contradicts (a 30 Hz sensor written as 100 Hz), the --fps override, and --repair of
// non-finite values. Each is the bundled walk changed one way and cleaned through the binary.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

#include "cli/bvh_variant_helpers.h"
#include "footfix/bvh/bvh.h"
#include "support/clip_variants.h"

namespace footfix {
namespace {

using test::clean_text;
using test::contains;
using test::count_of;
using test::walk_text;

/// The walk at 30 fps, its Frame Time stating `stated_fps`.
std::string walk_at_30_fps_stated_as(double stated_fps) {
  Clip clip = test::walk_source_clip();
  test::keep_every(clip, 4);  // 120 -> 30 fps
  clip.fps = stated_fps;
  return test::bvh_text(clip);
}

/// Expects the same contacts, in seconds, within `tolerance_s`.
void expect_same_contacts(const nlohmann::json& a, const nlohmann::json& b, double tolerance_s) {
  const auto feet_a = test::contact_intervals(a), feet_b = test::contact_intervals(b);
  ASSERT_EQ(feet_a.size(), feet_b.size());
  for (size_t s = 0; s < feet_a.size(); ++s) {
    ASSERT_EQ(feet_a[s].size(), feet_b[s].size()) << feet_a[s].dump() << "\n" << feet_b[s].dump();
    for (size_t i = 0; i < feet_a[s].size(); ++i) {
      EXPECT_NEAR(feet_a[s][i]["start_time_s"].get<double>(), feet_b[s][i]["start_time_s"].get<double>(), tolerance_s);
      EXPECT_NEAR(feet_a[s][i]["end_time_s"].get<double>(), feet_b[s][i]["end_time_s"].get<double>(), tolerance_s);
    }
  }
}

TEST(BvhVariantsValuesCli, StatedRateTheMotionContradictsIsProcessedAtTheLikelyRate) {
  test::TempDir dir;
  auto right = clean_text(dir, "stated30.bvh", walk_at_30_fps_stated_as(30));
  test::expect_cleaned_with_contacts(dir, "stated30.bvh", right);
  EXPECT_FALSE(contains(right.err, "frame rate")) << right.err;

  auto wrong = clean_text(dir, "stated100.bvh", walk_at_30_fps_stated_as(100));
  test::expect_cleaned_with_contacts(dir, "stated100.bvh", wrong);
  EXPECT_EQ(count_of(wrong.err, "warning:"), 1u) << wrong.err;
  EXPECT_TRUE(contains(wrong.err, "states 100 fps")) << wrong.err;
  EXPECT_TRUE(contains(wrong.err, "looks like 30 fps")) << wrong.err;
  EXPECT_TRUE(contains(wrong.err, "--fps")) << wrong.err;
  expect_same_contacts(test::cleaned_contacts(dir, "stated30.bvh"), test::cleaned_contacts(dir, "stated100.bvh"),
                       1.0 / 30 + 1e-6);
  // The output keeps the file's timing.
  EXPECT_TRUE(contains(read_file(dir / "out" / "stated100.bvh"), "Frame Time: 0.01\n"));
}

TEST(BvhVariantsValuesCli, FpsOptionReplacesTheStatedRate) {
  test::TempDir dir;
  auto right = clean_text(dir, "stated30.bvh", walk_at_30_fps_stated_as(30));
  ASSERT_EQ(right.exit_code, 0) << right.err;
  auto forced = clean_text(dir, "stated100.bvh", walk_at_30_fps_stated_as(100), {"--fps", "30"});
  test::expect_cleaned_with_contacts(dir, "stated100.bvh", forced);
  EXPECT_FALSE(contains(forced.err, "warning")) << forced.err;
  expect_same_contacts(test::cleaned_contacts(dir, "stated30.bvh"), test::cleaned_contacts(dir, "stated100.bvh"), 1e-6);
}

TEST(BvhVariantsValuesCli, ACorrectlyStatedRateIsKept) {
  // The walk as captured (120 fps) and at 30 fps stated as 30: no rate warning (checked above),
  // and the 120 fps file's contacts are in its own seconds.
  test::TempDir dir;
  auto r = clean_text(dir, "walk.bvh", walk_text());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "frame rate")) << r.err;
  EXPECT_EQ(test::cleaned_contacts(dir, "walk.bvh")["clip"]["fps"], 120.0);
}

/// The walk's text with the values at (row, index) replaced by `token`.
std::string with_values(std::string text, const std::vector<std::pair<int, int>>& at, const std::string& token) {
  const size_t first_row = text.find('\n', text.find("Frame Time:")) + 1;
  for (const auto& [row, index] : at) {
    size_t p = first_row;
    for (int r = 0; r < row; ++r) p = text.find('\n', p) + 1;
    for (int i = 0; i < index; ++i) p = text.find_first_not_of(" \t", text.find_first_of(" \t", p));
    text.replace(p, text.find_first_of(" \t\r\n", p) - p, token);
  }
  return text;
}

/// Line number of motion row `row` in the walk's text.
long walk_row_line(int row) {
  const std::string text = walk_text();
  return 2 + row + static_cast<long>(count_of(text.substr(0, text.find("Frame Time:")), "\n"));
}

/// Cleans `text` as `name` in `dir`: refused (exit 3, the message holding `refusal`), then
/// cleaned with --repair; returns the repaired run.
test::BoundedRun refused_then_repaired(const test::TempDir& dir, const std::string& name, const std::string& text,
                                       const std::string& refusal) {
  auto refused = clean_text(dir, name, text);
  EXPECT_EQ(refused.exit_code, 3) << refused.err;
  EXPECT_TRUE(contains(refused.err, refusal)) << refused.err;
  auto repaired = clean_text(dir, name, text, {"--repair"});
  test::expect_cleaned_with_contacts(dir, name, repaired);
  return repaired;
}

TEST(BvhVariantsValuesCli, RepairFillsNonFiniteValuesFromTheirChannel) {
  const std::string text = with_values(walk_text(), {{10, 0}, {11, 0}, {11, 7}}, "nan");
  test::TempDir dir;
  auto repaired = refused_then_repaired(dir, "nan.bvh", text, "--repair");
  EXPECT_EQ(count_of(repaired.err, "warning:"), 1u) << repaired.err;
  EXPECT_TRUE(contains(repaired.err, "line " + std::to_string(walk_row_line(10)) +
                                         ": repaired 3 non-finite values on 2 motion lines"))
      << repaired.err;
  EXPECT_FALSE(contains(read_file(dir / "out" / "nan.bvh"), "nan"));

  // Linear between the nearest finite values of the channel: the root's X at rows 10 and 11
  // a third and two thirds of the way from row 9 to row 12.
  ReadLimits repair;
  repair.repair_bvh = true;
  const Clip original = parse_bvh(walk_text(), "walk.bvh");
  const Clip clip = parse_bvh(text, "nan.bvh", nullptr, repair);
  const double x9 = original.translation(9, 0).x, x12 = original.translation(12, 0).x;
  EXPECT_NEAR(clip.translation(10, 0).x, x9 + (x12 - x9) / 3, 1e-12);
  EXPECT_NEAR(clip.translation(11, 0).x, x9 + 2 * (x12 - x9) / 3, 1e-12);
}

TEST(BvhVariantsValuesCli, ACutFileReadsItsRowsWithOrWithoutRepair) {
  // Frames states more rows than the file holds (cut, or a writer's wrong count): the rows
  // present are read, said once, and the written file states the count it read; --repair, which
  // fills non-finite values, reads it the same.
  std::string text = walk_text();
  text.replace(text.find("Frames: 317"), 11, "Frames: 400");
  for (const std::vector<std::string>& options : {std::vector<std::string>{}, std::vector<std::string>{"--repair"}}) {
    test::TempDir dir;
    auto r = clean_text(dir, "cut.bvh", text, options);
    test::expect_cleaned_with_contacts(dir, "cut.bvh", r);
    EXPECT_EQ(count_of(r.err, "warning:"), 1u) << r.err;
    EXPECT_TRUE(contains(r.err, "Frames: 400 at line 186, 317 complete rows read")) << r.err;
    EXPECT_TRUE(contains(read_file(dir / "out" / "cut.bvh"), "Frames: 317\n"));
  }
}

TEST(BvhVariantsValuesCli, RepairHoldsTheEndsAndReadsInfinities) {
  const std::string text = with_values(walk_text(), {{0, 1}, {316, 1}}, "-inf");
  test::TempDir dir;
  auto repaired = clean_text(dir, "inf.bvh", text, {"--repair"});
  test::expect_cleaned_with_contacts(dir, "inf.bvh", repaired);
  EXPECT_TRUE(contains(repaired.err, "repaired 2 non-finite values on 2 motion lines")) << repaired.err;
  ReadLimits repair;
  repair.repair_bvh = true;
  const Clip original = parse_bvh(walk_text(), "walk.bvh");
  const Clip clip = parse_bvh(text, "inf.bvh", nullptr, repair);
  EXPECT_EQ(clip.translation(0, 0).y, original.translation(1, 0).y);
  EXPECT_EQ(clip.translation(316, 0).y, original.translation(315, 0).y);
}

TEST(BvhVariantsValuesCli, OldWindowsSpellingsOfNonFiniteValuesAreRepairedToo) {
  // Microsoft's C runtime before 2015 printed NaN and infinity as "1.#QNAN0", "-1.#IND00" and
  // "1.#INF00"; older Windows depth-camera tools wrote them so.
  std::string text = walk_text();
  text = with_values(text, {{10, 0}}, "1.#QNAN0");
  text = with_values(text, {{20, 0}}, "-1.#IND00");
  text = with_values(text, {{30, 0}}, "1.#INF00");
  test::TempDir dir;
  auto repaired = refused_then_repaired(dir, "msvc.bvh", text, "non-finite value '1.#QNAN0'");
  EXPECT_TRUE(contains(repaired.err, "repaired 3 non-finite values on 3 motion lines")) << repaired.err;
}

TEST(BvhVariantsValuesCli, RepairRefusesAChannelWithNoFiniteValue) {
  std::vector<std::pair<int, int>> every_row;
  for (int row = 0; row < 317; ++row) every_row.emplace_back(row, 4);  // the root's Yrotation
  test::TempDir dir;
  auto r = clean_text(dir, "hollow.bvh", with_values(walk_text(), every_row, "nan"), {"--repair"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_TRUE(contains(r.err, "hollow.bvh:" + std::to_string(walk_row_line(0)) + ": joint 'Hips': channel Yrotation"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "no finite value")) << r.err;
}

}  // namespace
}  // namespace footfix
