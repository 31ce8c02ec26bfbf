// Warnings are for what a user should act on: a standing clip gets no warning about standing, and
// the README's own sample cleans without any warning.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace footfix
