// Issue 34, the console's wording: settings keys mistyped get a suggestion, a bad contact
// setting is named once ("contacts: contacts:" no more), `metrics` says how two clips it cannot
// compare differ, and counts of one take the singular.
#include <gtest/gtest.h>

#include "cli/cli_test_helpers.h"

namespace footfix {
namespace {

using test::contains;
using test::run_footfix_bounded;

TEST(ConsoleWordingCli, MistypedSettingsKeysGetASuggestion) {
  test::TempDir dir;
  const std::string walk = test::copy_walk(dir / "walk.bvh");
  const std::string top = test::write_text(dir / "top.json", R"({"contactz": {}})");
  auto r = run_footfix_bounded({"clean", walk, "--settings", top, "-o", (dir / "out.bvh").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "error: " + top + ": unknown key 'contactz' (did you mean 'contacts'?)\n");
  const std::string inner = test::write_text(dir / "inner.json", R"({"contacts": {"speed_treshold_mps": 0.2}})");
  r = run_footfix_bounded({"clean", walk, "--settings", inner, "-o", (dir / "out.bvh").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "error: " + inner + ": unknown contact setting 'speed_treshold_mps' (did you mean 'speed_threshold_mps'?)\n");
  const std::string far = test::write_text(dir / "far.json", R"({"colour": 1})");
  r = run_footfix_bounded({"clean", walk, "--settings", far, "-o", (dir / "out.bvh").string()});
  EXPECT_EQ(r.err, "error: " + far + ": unknown key 'colour'\n") << "no suggestion when nothing is near";
  EXPECT_FALSE(std::filesystem::exists(dir / "out.bvh"));
}

TEST(ConsoleWordingCli, ABadContactSettingIsNamedOnce) {
  test::TempDir dir;
  const std::string walk = test::copy_walk(dir / "walk.bvh");
  const std::string settings = test::write_text(dir / "s.json", R"({"contacts": {"contact_threshold": 3}})");
  auto r = run_footfix_bounded({"clean", walk, "--settings", settings, "-o", (dir / "out.bvh").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "error: " + settings + ": contacts: contact_threshold must be > 0 and <= 1, got 3\n");
}

TEST(ConsoleWordingCli, MetricsSaysHowTheClipsDiffer) {
  auto r = run_footfix_bounded({"metrics", test::data_clip("cmu_07_01_walk.bvh").string(),
                                test::data_clip("cmu_01_01_hops_turnaround.bvh").string()});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(contains(r.err, "cmu_07_01_walk.bvh has 317 frames and 31 joints, ")) << r.err;
  EXPECT_TRUE(contains(r.err, "cmu_01_01_hops_turnaround.bvh has ")) << r.err;
}

TEST(ConsoleWordingCli, OneClipIsSingular) {
  test::TempDir dir;
  const std::string walk = test::copy_walk(dir / "in" / "walk.bvh");
  auto r = run_footfix_bounded({"clean", (dir / "in").string(), "-o", (dir / "out").string(), "--shard", "1/1",
                                "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "shard 1/1: 1 of 1 clip\n")) << r.err;
  EXPECT_TRUE(contains(r.out, "dry run: 1 clip planned")) << r.out;
}

}  // namespace
}  // namespace footfix
