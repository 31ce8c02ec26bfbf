// A batch stopped by SIGTERM (a CI job's timeout) or SIGINT (Ctrl-C), through the real binary:
// it says it was interrupted and how far it got, its --report is marked incomplete (and
// `footfix report` and the page say so), and the --incremental manifest holds the clips that
// finished, so that the same command resumes. The batch sends itself SIGTERM once its first clip
// is recorded (FOOTFIX_TEST_INTERRUPT_AFTER=1), so it stops at a known point.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <signal.h>

#include "cli/cli_test_helpers.h"
#include "support/limited_run.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::contains;

std::vector<std::string> dot_files(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind(".footfix-", 0) == 0 && e.path().filename() != ".footfix-manifest.json")
      names.push_back(e.path().filename().string());
  return names;
}

TEST(InterruptCli, SigtermAfterOneClipRecordsItAndTheSameCommandResumes) {
  test::TempDir dir;
  for (const char* name : {"a", "b", "c"}) test::copy_walk(dir / "in" / (std::string(name) + ".bvh"));
  const fs::path report = dir / "r.json", out = dir / "out";
  const std::vector<std::string> args{"clean", (dir / "in").string(), "-o", out.string(), "-j", "1",
                                      "--incremental", "--report", report.string()};
  test::LimitedRunOptions stop_after_one;
  stop_after_one.bound = std::chrono::seconds(120);
  stop_after_one.env = {"FOOTFIX_TEST_INTERRUPT_AFTER=1"};
  test::LimitedRun r = test::run_footfix_limited(args, stop_after_one);
  ASSERT_FALSE(r.timed_out) << r.err;
  EXPECT_EQ(r.signal, SIGTERM) << "the run must still end by the signal: " << r.err;
  EXPECT_TRUE(contains(r.err, "error: interrupted by SIGTERM: 1 of 3 clips finished\n")) << r.err;
  EXPECT_TRUE(contains(r.err, "marked incomplete")) << r.err;
  EXPECT_FALSE(contains(r.err, "3 clips: ")) << "no summary of a batch that did not end: " << r.err;

  const json doc = json::parse(read_file(report));
  EXPECT_EQ(doc["summary"]["complete"], false);
  EXPECT_EQ(doc["summary"]["interrupted"], "SIGTERM");
  EXPECT_EQ(doc["summary"]["clips_done"], 1);
  EXPECT_EQ(doc["summary"]["clips_planned"], 3);
  ASSERT_EQ(doc["clips"].size(), 1u);
  EXPECT_EQ(doc["clips"][0]["status"], "ok");
  EXPECT_FALSE(fs::exists(report.string() + ".journal")) << "the report holds every finished clip";
  const json manifest = json::parse(read_file(out / ".footfix-manifest.json"));
  ASSERT_EQ(manifest["entries"].size(), 1u) << manifest.dump();
  EXPECT_TRUE(manifest["entries"].contains("a.bvh")) << manifest.dump();
  EXPECT_EQ(dot_files(out), std::vector<std::string>{}) << "temporary files left";

  // `footfix report` and the page it draws say the run was incomplete.
  auto drawn = test::run_footfix_bounded({"report", report.string(), "--html", (dir / "page.html").string()});
  EXPECT_EQ(drawn.exit_code, 0) << drawn.err;
  const std::string note = "incomplete: the run was interrupted by SIGTERM after 1 of 3 clips";
  EXPECT_TRUE(contains(drawn.err, "warning: " + report.string() + ": " + note)) << drawn.err;
  EXPECT_TRUE(contains(read_file(dir / "page.html"), "<p class=\"incomplete\">" + note));

  // The same command resumes: the finished clip is skipped, the others are cleaned.
  test::LimitedRunOptions plain;
  plain.bound = std::chrono::seconds(120);
  test::LimitedRun again = test::run_footfix_limited(args, plain);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(contains(again.err, "info: 3 clips: 2 cleaned, 1 unchanged, 0 failed in ")) << again.err;
  EXPECT_TRUE(contains(again.err, "info: unchanged, skipped " + (dir / "in" / "a.bvh").string())) << again.err;
  const json done = json::parse(read_file(report));
  EXPECT_EQ(done["summary"]["complete"], true);
  EXPECT_FALSE(done["summary"].contains("interrupted"));
}

// A signal landing between a clip's two renames (FOOTFIX_TEST_SIGTERM_AT sends SIGTERM right
// after the clip is put in place, before its contacts are, and holds that thread): the stop waits
// for the contacts, so the run ends with the clip whole and nothing half-written.
TEST(InterruptCli, SigtermBetweenAClipsRenamesStillLeavesItsContacts) {
  test::TempDir dir;
  for (const char* name : {"a", "b"}) test::copy_walk(dir / "in" / (std::string(name) + ".bvh"));
  const fs::path out = dir / "out";
  test::LimitedRunOptions between;
  between.bound = std::chrono::seconds(120);
  between.env = {"FOOTFIX_TEST_SIGTERM_AT=committed:a.bvh"};
  const test::LimitedRun r = test::run_footfix_limited(
      {"clean", (dir / "in").string(), "-o", out.string(), "-j", "1", "--incremental", "--report",
       (dir / "r.json").string()},
      between);
  ASSERT_FALSE(r.timed_out) << r.err;
  EXPECT_EQ(r.signal, SIGTERM) << r.err;
  ASSERT_TRUE(fs::exists(out / "a.bvh")) << "the hook never ran: " << r.err;
  EXPECT_TRUE(fs::exists(out / "a.contacts.json")) << "a clip without its contacts";
  EXPECT_FALSE(fs::exists(out / "b.bvh")) << "a clip written after the stop";
  EXPECT_EQ(dot_files(out), std::vector<std::string>{}) << "temporary files left";
}

}  // namespace
}  // namespace footfix
