// inspect follows the batch rules: folders, goes on past a bad file naming it, exits with the most
// severe failure, --json is always one valid JSON array with errors as entries, a clip without
// legs still shows its joint tree, and frame rates print as the file states them.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_test_helpers.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::contains;
using test::run_footfix_bounded;

TEST(InspectBatchCli, FolderWithBadFilesGivesValidJsonWithErrorEntries) {
  test::TempDir dir;
  test::copy_walk(dir / "in" / "a_walk.bvh");
  test::write_text(dir / "in" / "b_broken.bvh", "HIERARCHY\nROOT Hips\n{\n");
  fs::copy_file(fs::path(FOOTFIX_TESTS_DIR) / "data" / "bad" / "single_leg.bvh", dir / "in" / "c_single_leg.bvh");
  auto r = run_footfix_bounded({"inspect", (dir / "in").string(), "--json"});
  EXPECT_EQ(r.exit_code, 4) << r.err;  // process (no legs) outranks read
  json all = json::parse(r.out);
  ASSERT_EQ(all.size(), 3u) << r.out;
  EXPECT_EQ(all[0]["fps"], 120.0);
  EXPECT_EQ(all[0]["frame_rate"], "120 fps (1/120 s)");
  EXPECT_FALSE(all[0].contains("error"));
  EXPECT_EQ(all[1]["exit_code"], 3);
  EXPECT_TRUE(contains(all[1]["error"].get<std::string>(), "b_broken.bvh")) << all[1].dump();
  EXPECT_EQ(all[2]["exit_code"], 4);
  ASSERT_TRUE(all[2].contains("joints")) << all[2].dump();
  EXPECT_EQ(all[2]["joints"][0]["name"], "Hips");
  EXPECT_TRUE(contains(r.err, "error: ") && contains(r.err, "b_broken.bvh")) << r.err;
}

TEST(InspectBatchCli, TextShowsTheStatedFrameRateAndTheTreeOfAClipWithoutLegs) {
  test::TempDir dir;
  std::string walk = test::copy_walk(dir / "walk.bvh");
  std::string single = (fs::path(FOOTFIX_TESTS_DIR) / "data" / "bad" / "single_leg.bvh").string();
  auto r = run_footfix_bounded({"inspect", walk, single});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(contains(r.out, "frames 317 at 120 fps (1/120 s)")) << r.out;
  EXPECT_FALSE(contains(r.out, "120.0")) << r.out;
  EXPECT_TRUE(contains(r.out, "no legs found: name them in a --rig profile")) << r.out;
  EXPECT_TRUE(contains(r.out, "    Hips\n      LeftUpLeg\n")) << r.out;
}

}  // namespace
}  // namespace footfix
