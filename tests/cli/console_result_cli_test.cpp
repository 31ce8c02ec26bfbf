// What the console says by default, through the real binary: one line per clip with its result
// (clean: contact slide p95 before -> after and the contacts, as in the report; annotate:
// contacts; lock: locks), a batch summary with the time, an incremental re-run said once, and
// counts in the singular where they are one.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <regex>
#include <sstream>

#include "cli/cli_test_helpers.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::contains;
using test::run_footfix_bounded;

/// The lines of `text` that contain `part`.
std::vector<std::string> lines_with(const std::string& text, const std::string& part) {
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (contains(line, part)) found.push_back(line);
  return found;
}

TEST(ConsoleResultCli, CleanPrintsEachClipsSlideAndContactsAndASummary) {
  test::TempDir dir;
  for (const char* name : {"a", "b"}) test::copy_walk(dir / "in" / (std::string(name) + ".bvh"));
  const fs::path report = dir / "r.json";
  auto r = run_footfix_bounded({"clean", (dir / "in").string(), "-o", (dir / "out").string(), "--report", report.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(read_file(report));
  const std::regex line_re(R"(info: cleaned (.*) -> (.*): contact slide p95 ([0-9.]+) -> ([0-9.]+) cm/s, ([0-9]+) contacts)");
  auto lines = lines_with(r.err, "info: cleaned ");
  ASSERT_EQ(lines.size(), 2u) << r.err;
  for (const std::string& line : lines) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(line, m, line_re)) << line;
    const json* clip = nullptr;
    for (const json& c : doc["clips"])
      if (c["input"] == m[1].str()) clip = &c;
    ASSERT_NE(clip, nullptr) << line;
    EXPECT_EQ((*clip)["output"], m[2].str());
    EXPECT_NEAR(std::stod(m[3]), (*clip)["metrics"]["slide_source"]["p95_cm_per_s"].get<double>(), 0.006) << line;
    EXPECT_NEAR(std::stod(m[4]), (*clip)["metrics"]["slide_cleaned"]["p95_cm_per_s"].get<double>(), 0.006) << line;
    EXPECT_GT(std::stod(m[3]), std::stod(m[4])) << line;
    EXPECT_EQ(std::stoul(m[5]), (*clip)["contact_count"].get<size_t>()) << line;
    EXPECT_GE(std::stoul(m[5]), 4u) << line;
  }
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(info: 2 clips: 2 cleaned, 0 failed in [0-9]+\.[0-9] s\n)"))) << r.err;
  EXPECT_FALSE(contains(r.err, "debug:")) << r.err;

  auto quiet = run_footfix_bounded({"clean", (dir / "in").string(), "-o", (dir / "q").string(), "-q"});
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
}

TEST(ConsoleResultCli, IncrementalReRunSaysOnceThatItSkipped) {
  test::TempDir dir;
  for (const char* name : {"a", "b", "c"}) test::copy_walk(dir / "in" / (std::string(name) + ".bvh"));
  const std::vector<std::string> args{"clean", (dir / "in").string(), "-o", (dir / "out").string(), "--incremental"};
  auto first = run_footfix_bounded(args);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_TRUE(contains(first.err, "info: 3 clips: 3 cleaned, 0 failed in ")) << first.err;
  auto again = run_footfix_bounded(args);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(contains(again.err, "info: 3 clips: 0 cleaned, 3 unchanged, 0 failed in ")) << again.err;
  EXPECT_EQ(lines_with(again.err, "info: unchanged, skipped ").size(), 3u) << again.err;
  EXPECT_TRUE(std::regex_search(again.err, std::regex(R"(skipped .*a\.bvh: contact slide p95 [0-9.]+ -> [0-9.]+ cm/s, [0-9]+ contacts)")))
      << again.err;
  EXPECT_FALSE(contains(again.err, "info: cleaned ")) << again.err;
  EXPECT_EQ(lines_with(again.err, "unchanged").size(), 4u) << "one summary, one line per clip: " << again.err;
}

TEST(ConsoleResultCli, OneFailedClipIsOneClip) {
  test::TempDir dir;
  const std::string bad = test::write_text(dir / "bad.bvh", "HIERARCHY\nROOT Hips\n{\n");
  auto r = run_footfix_bounded({"clean", bad, "-o", (dir / "out").string() + "/"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_TRUE(contains(r.err, "info: 1 clip: 0 cleaned, 1 failed in ")) << r.err;
  EXPECT_FALSE(contains(r.err, "1 clips")) << r.err;
}

TEST(ConsoleResultCli, CheckCountsInTheSingular) {
  test::TempDir dir;
  const std::string walk = test::copy_walk(dir / "walk.bvh");
  auto pass = run_footfix_bounded({"clean", walk, "-o", (dir / "p.bvh").string(), "--check"});
  EXPECT_EQ(pass.exit_code, 0) << pass.err;
  EXPECT_TRUE(contains(pass.err, "info: check passed: 1 clip at or under 5 cm/s")) << pass.err;
  auto fail = run_footfix_bounded({"clean", walk, "-o", (dir / "f.bvh").string(), "--max-slide", "0.0001"});
  EXPECT_EQ(fail.exit_code, 6) << fail.err;
  EXPECT_TRUE(contains(fail.err, "error: check failed: 1 of 1 clip over 0.0001 cm/s")) << fail.err;
}

TEST(ConsoleResultCli, AnnotateAndLockPrintWhatTheyFound) {
  test::TempDir dir;
  const std::string walk = test::copy_walk(dir / "walk.bvh");
  auto r = run_footfix_bounded({"annotate", walk, "-o", (dir / "c.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, std::regex(R"(info: annotated .*walk\.bvh -> .*c\.json: ([0-9]+) contacts \(([0-9]+) left, ([0-9]+) right\))")))
      << r.err;
  EXPECT_EQ(std::stoi(m[1]), std::stoi(m[2]) + std::stoi(m[3]));
  const json contacts = json::parse(read_file(dir / "c.json"));
  EXPECT_EQ(std::stoul(m[2]), contacts["feet"][0]["intervals"].size()) << r.err;
  EXPECT_EQ(std::stoul(m[3]), contacts["feet"][1]["intervals"].size()) << r.err;
  EXPECT_GE(std::stoi(m[2]), 2) << r.err;

  r = run_footfix_bounded({"lock", walk, "-o", (dir / "l.bvh").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(std::regex_search(r.err, m, std::regex(R"(info: locked .*walk\.bvh -> .*l\.bvh: ([0-9]+) locks \(([0-9]+) left, ([0-9]+) right\))")))
      << r.err;
  const json lock = json::parse(read_file(dir / "l.lock.json"));
  int locks[2] = {0, 0};
  for (int side = 0; side < 2; ++side) {
    const json& locked = lock["feet"][side]["locked"];
    for (size_t f = 0; f < locked.size(); ++f) locks[side] += locked[f] == 1 && (f == 0 || locked[f - 1] == 0);
  }
  EXPECT_EQ(std::stoi(m[2]), locks[0]);
  EXPECT_EQ(std::stoi(m[3]), locks[1]);
  EXPECT_GE(locks[0], 2);
}

}  // namespace
}  // namespace footfix
