// The --report JSON survives the process dying midway: it is valid JSON holding the clips done
// (summary.complete false), and the journal beside it holds at least as many.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "cli/cli_test_helpers.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(ReportCrashCli, KilledBatchLeavesAValidReportOfTheClipsDone) {
  test::TempDir dir;
  for (int i = 0; i < 12; ++i) test::copy_walk(dir / "in" / ("walk" + std::to_string(i) + ".bvh"));
  fs::path report = dir / "report.json";
  int pid = test::spawn_footfix({"clean", (dir / "in").string(), "-o", (dir / "out").string(), "-j", "1", "--report",
                                 report.string()});
  ASSERT_GT(pid, 0);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(report) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(fs::exists(report)) << "no report within 60 s";
  json doc = json::parse(read_file(report));  // throws (test fails) if the file is not valid JSON
  ASSERT_GE(doc["clips"].size(), 1u);
  if (!WIFSIGNALED(status)) GTEST_SKIP() << "the batch finished before it could be killed";
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
