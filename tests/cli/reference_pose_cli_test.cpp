// Issue 34: the README's sample clip starts with its exporter's rest pose. `clean` finds it on
// the clip and again on its cleaned copy, says so, and writes frame 0 back as it was.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/cli_test_helpers.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::run_footfix_bounded;

// The numbers of motion row `frame` of a BVH file.
std::vector<double> motion_row(const fs::path& path, int frame) {
  std::istringstream in(read_file(path));
  std::string line;
  while (std::getline(in, line) && line.rfind("Frame Time:", 0) != 0) {
  }
  for (int f = 0; f <= frame; ++f) std::getline(in, line);
  std::istringstream row(line);
  std::vector<double> values;
  for (double v; row >> v;) values.push_back(v);
  return values;
}

TEST(ReferencePoseCli, TheSampleClipsRestPoseIsFoundBeforeAndAfterCleaningAndKept) {
  test::TempDir dir;
  const std::string walk = test::copy_walk(dir / "walk.bvh");
  const std::string warning = "frame 0 is a rest or reference pose, not motion";
  auto r = run_footfix_bounded({"clean", walk, "-o", (dir / "once.bvh").string()}, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "warning: " + walk + ": " + warning)) << r.err;
  const std::vector<double> source0 = motion_row(walk, 0);
  ASSERT_GT(source0.size(), 90u);
  EXPECT_EQ(motion_row(dir / "once.bvh", 0), source0);
  EXPECT_NE(motion_row(dir / "once.bvh", 1), source0) << "the rows read are the motion";

  r = run_footfix_bounded({"clean", (dir / "once.bvh").string(), "-o", (dir / "twice.bvh").string()},
                          std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "warning: " + (dir / "once.bvh").string() + ": " + warning)) << r.err;
  EXPECT_EQ(motion_row(dir / "twice.bvh", 0), source0);
}

}  // namespace
}  // namespace footfix
