// Issue 34: the README's sample clip starts with its exporter's rest pose. `clean` finds it on
// the clip and again on its cleaned copy, says so at info level (it is not a problem), and writes frame 0 back as it was.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
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
  const std::string note = "frame 0 is a rest or reference pose, not motion";
  const std::string report = (dir / "report.json").string();
  auto r = run_footfix_bounded({"clean", walk, "-o", (dir / "once.bvh").string(), "--report", report},
                               std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The report and the contacts file carry it as a note, not as a warning.
  const auto record = nlohmann::json::parse(read_file(report))["clips"][0];
  ASSERT_EQ(record["notes"].size(), 1u) << record.dump();
  EXPECT_TRUE(contains(record["notes"][0].get<std::string>(), note));
  EXPECT_TRUE(record["warnings"].empty()) << record.dump();
  const auto contacts = nlohmann::json::parse(read_file(dir / "once.contacts.json"));
  EXPECT_TRUE(contains(contacts["notes"][0].get<std::string>(), note));
  EXPECT_TRUE(contacts["warnings"].empty()) << contacts.dump();
  EXPECT_TRUE(contains(r.err, "info: " + walk + ": " + note)) << r.err;
  EXPECT_FALSE(contains(r.err, "warning")) << "a rest pose handled as designed is not a problem: " << r.err;
  const std::vector<double> source0 = motion_row(walk, 0);
  ASSERT_GT(source0.size(), 90u);
  EXPECT_EQ(motion_row(dir / "once.bvh", 0), source0);
  EXPECT_NE(motion_row(dir / "once.bvh", 1), source0) << "the rows read are the motion";

  r = run_footfix_bounded({"clean", (dir / "once.bvh").string(), "-o", (dir / "twice.bvh").string()},
                          std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "info: " + (dir / "once.bvh").string() + ": " + note)) << r.err;
  EXPECT_EQ(motion_row(dir / "twice.bvh", 0), source0);
}

}  // namespace
}  // namespace footfix
