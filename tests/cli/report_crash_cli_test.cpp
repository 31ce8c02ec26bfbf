// The --report JSON survives the process dying midway: it is valid JSON holding the clips done
// (summary.complete false), and the journal beside it holds at least as many.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <signal.h>
#include <sys/wait.h>

#include <fstream>

#include "cli/cli_test_helpers.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(ReportCrashCli, KilledBatchLeavesAValidReportOfTheClipsDone) {
  test::TempDir dir;
  for (int i = 0; i < 12; ++i) test::copy_walk(dir / "in" / ("walk" + std::to_string(i) + ".bvh"));
  fs::path report = dir / "report.json";
  // The run stops itself right after its report is first written (after the first clip), then
  // dies.
  int pid = test::start_footfix({"clean", (dir / "in").string(), "-o", (dir / "out").string(), "-j", "1", "--report",
                                 report.string()},
                                {"FOOTFIX_TEST_STOP_AT=committed:report.json"});
  ASSERT_GT(pid, 0);
  const bool stopped = test::wait_until_stopped(pid);
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(stopped) << "the run never wrote its report";
  ASSERT_TRUE(WIFSIGNALED(status));
  ASSERT_TRUE(fs::exists(report));
  json doc = json::parse(read_file(report));  // throws (test fails) if the file is not valid JSON
  ASSERT_GE(doc["clips"].size(), 1u);
  EXPECT_LT(doc["clips"].size(), 12u);
  EXPECT_EQ(doc["summary"]["complete"], false);
  EXPECT_EQ(doc["summary"]["clips_planned"], 12);
  for (const json& clip : doc["clips"]) {
    EXPECT_EQ(clip["status"], "ok");
    EXPECT_TRUE(fs::exists(clip["output"].get<std::string>()));
  }
  std::ifstream journal(report.string() + ".journal");
  size_t lines = 0;
  for (std::string line; std::getline(journal, line); ++lines) EXPECT_TRUE(json::accept(line)) << line;
  EXPECT_GE(lines, doc["clips"].size());
}

}  // namespace
}  // namespace footfix
