// Warnings are for what a user should act on: a standing clip gets no warning about standing, and
// the README's own sample cleans without any warning but the one about its rest pose.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/cli_test_helpers.h"

namespace footfix {
namespace {

using test::contains;
using test::run_footfix_bounded;

TEST(WarningsPolicyCli, TheReadmeSampleCleansWithoutAWarning) {
  test::TempDir dir;
  auto r = run_footfix_bounded({"clean", test::data_clip("cmu_07_01_walk.bvh").string(), "-o", (dir / "out").string()},
                               std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Its frame 0, the exporter's rest pose, left as it is, is a note at info level.
  EXPECT_FALSE(contains(r.err, "warning:")) << r.err;
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

// A warning or note line names the clip it is about once: "warning: <path>: <what>" or
// "info: <path>: <what>", whichever stage raised it (the library's warnings and notes do not
// name the clip; the CLI prefixes the path).
TEST(WarningsPolicyCli, EachWarningNamesItsClipOnce) {
  test::TempDir dir;
  // The bundled hops clip starts with its exporter's zero pose (a reference-pose note from the
  // clean); the copy has two motion rows more than its Frames: line (a reader warning).
  const std::string hops = test::data_clip("cmu_01_01_hops_turnaround.bvh").string();
  std::string extra = read_file(hops);
  const size_t last_row = extra.rfind('\n', extra.size() - 2);
  extra += extra.substr(last_row + 1) + extra.substr(last_row + 1);
  const std::string extra_path = test::write_text(dir / "extra_rows.bvh", extra);
  for (const std::string& input : {hops, extra_path}) {
    auto r = run_footfix_bounded({"clean", input, "-o", (dir / "out").string()}, std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    int warnings = 0, notes = 0;
    std::istringstream lines(r.err);
    for (std::string line; std::getline(lines, line);) {
      const bool warning = line.rfind("warning: ", 0) == 0;
      const bool note = contains(line, "frame 0 is a rest or reference pose");
      if (!warning && !note) continue;
      warnings += warning;
      notes += note;
      const std::string prefix = (warning ? "warning: " : "info: ") + input + ": ";
      EXPECT_EQ(line.rfind(prefix, 0), 0u) << line;
      EXPECT_EQ(line.find(input, prefix.size()), std::string::npos) << line;  // once
      const std::string name = std::filesystem::path(input).filename().string();
      EXPECT_EQ(line.find(name, prefix.size()), std::string::npos) << line;
    }
    EXPECT_EQ(notes, 1) << r.err;
    EXPECT_EQ(warnings, input == hops ? 0 : 1) << r.err;
  }
}

}  // namespace
}  // namespace footfix
