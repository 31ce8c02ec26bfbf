// Warnings are for what a user should act on: a standing clip gets no warning about standing, and
// the README's own sample cleans without any warning but the one about its rest pose.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/cli_test_helpers.h"

namespace footfix {
namespace {

using test::contains;
using test::run_footfix_bounded;

TEST(WarningsPolicyCli, TheReadmeSampleCleansWithoutAWarningButItsRestPoses) {
  test::TempDir dir;
  auto r = run_footfix_bounded({"clean", test::data_clip("cmu_07_01_walk.bvh").string(), "-o", (dir / "out").string()},
                               std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Its one warning says that its frame 0, the exporter's rest pose, was left as it is.
  EXPECT_FALSE(contains(test::besides_rest_pose(r.err), "warning:")) << r.err;
  EXPECT_TRUE(contains(r.err, "info: cleaned")) << r.err;
}

TEST(WarningsPolicyCli, StandingClipGetsNoWarningAboutStanding) {
  test::TempDir dir;
  // Both feet planted in every frame. (Its synthetic legs are perfectly straight, so the rig's
  // "knee axis guessed" warning still applies to it.)
  const std::string standing = (std::filesystem::path(FOOTFIX_TESTS_DIR) / "data" / "degenerate" / "all_contact.bvh").string();
  auto r = run_footfix_bounded({"clean", standing, "-o", (dir / "out").string(), "--report", (dir / "r.json").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "planted")) << r.err;
  EXPECT_FALSE(contains(read_file(dir / "r.json"), "planted in every frame"));
}

// A warning line names the clip it is about once: "warning: <path>: <what>", whichever stage
// raised it (the library's warnings do not name the clip; the CLI prefixes the path).
TEST(WarningsPolicyCli, EachWarningNamesItsClipOnce) {
  test::TempDir dir;
  // The bundled hops clip starts with its exporter's zero pose (a reference-pose warning from
  // the clean); the copy has two motion rows more than its Frames: line (a reader warning).
  const std::string hops = test::data_clip("cmu_01_01_hops_turnaround.bvh").string();
  std::string extra = read_file(hops);
  const size_t last_row = extra.rfind('\n', extra.size() - 2);
  extra += extra.substr(last_row + 1) + extra.substr(last_row + 1);
  const std::string extra_path = test::write_text(dir / "extra_rows.bvh", extra);
  for (const std::string& input : {hops, extra_path}) {
    auto r = run_footfix_bounded({"clean", input, "-o", (dir / "out").string()}, std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    int warnings = 0;
    std::istringstream lines(r.err);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("warning: ", 0) != 0) continue;
      ++warnings;
      EXPECT_EQ(line.rfind("warning: " + input + ": ", 0), 0u) << line;
      EXPECT_EQ(line.find(input, 9 + input.size()), std::string::npos) << line;  // once
      const std::string name = std::filesystem::path(input).filename().string();
      EXPECT_EQ(line.find(name, 9 + input.size()), std::string::npos) << line;
    }
    EXPECT_GE(warnings, input == hops ? 1 : 2) << r.err;
  }
}

}  // namespace
}  // namespace footfix
