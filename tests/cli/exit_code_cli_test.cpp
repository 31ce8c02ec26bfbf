// Exit codes: ranked by severity (a failed --check is never hidden by a read failure), the
// report's summary and per-clip check result, "check passed", bad settings with line and column,
// and Frames: 0 as a read error in every command.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_test_helpers.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::contains;
using test::run_footfix_bounded;

constexpr const char* k_broken_bvh = "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0\n";

TEST(ExitCodeCli, FailedCheckOutranksAReadFailureAndTheReportSaysSo) {
  test::TempDir dir;
  test::copy_walk(dir / "in" / "walk.bvh");
  test::write_text(dir / "in" / "broken.bvh", k_broken_bvh);
  auto r = run_footfix_bounded({"clean", (dir / "in").string(), "-o", (dir / "out").string(), "--check",
                                "--max-slide", "0.001", "--report", (dir / "report.json").string()});
  EXPECT_EQ(r.exit_code, 6) << r.err;
  EXPECT_TRUE(contains(r.err, "error: check failed")) << r.err;
  json report = json::parse(read_file(dir / "report.json"));
  EXPECT_EQ(report["summary"]["exit_code"], 6);
  EXPECT_EQ(report["summary"]["clips"], 2);
  EXPECT_EQ(report["summary"]["ok"], 1);
  EXPECT_EQ(report["summary"]["failed"], 1);
  EXPECT_EQ(report["summary"]["check"]["max_slide_cm_s"], 0.001);
  EXPECT_EQ(report["summary"]["check"]["failed"], 1);
  EXPECT_EQ(report["summary"]["complete"], true);
  ASSERT_EQ(report["clips"].size(), 2u);
  for (const json& clip : report["clips"]) {
    if (contains(clip["input"].get<std::string>(), "broken")) {
      EXPECT_EQ(clip["status"], "failed");
      EXPECT_EQ(clip["exit_code"], 3);
      EXPECT_FALSE(clip.contains("output")) << clip.dump();  // never written
      EXPECT_TRUE(clip["check"].is_null());
    } else {
      EXPECT_EQ(clip["status"], "ok");
      EXPECT_EQ(clip["check"], "failed");
      EXPECT_TRUE(fs::exists(clip["output"].get<std::string>()));
    }
  }
  EXPECT_FALSE(fs::exists(dir / "report.json.journal"));
}

TEST(ExitCodeCli, PassingCheckSaysSoInOneLine) {
  test::TempDir dir;
  std::string walk = test::copy_walk(dir / "walk.bvh");
  auto r = run_footfix_bounded({"clean", walk, "-o", (dir / "out").string(), "--max-slide", "1000"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "check passed: 1 clip at or under 1000 cm/s")) << r.err;  // --max-slide implies --check
  auto strict = run_footfix_bounded({"clean", walk, "-o", (dir / "out2").string(), "--max-slide", "0.001"});
  EXPECT_EQ(strict.exit_code, 6) << strict.err;
}

TEST(ExitCodeCli, BadSettingsFileIsAUsageErrorWithLineAndColumn) {
  test::TempDir dir;
  std::string walk = test::copy_walk(dir / "walk.bvh");
  std::string settings = test::write_text(dir / "s.json", "{\n  \"contacts\": {\n    \"speed_threshold_mps\": 0.3,,\n  }\n}\n");
  for (const char* command : {"clean", "annotate"}) {
    auto r = run_footfix_bounded({command, walk, "-o", (dir / "out").string(), "--settings", settings});
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "error: " + settings + ": not valid JSON at line 3, column 32")) << r.err;
  }
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(ExitCodeCli, ZeroFramesIsAReadErrorInEveryCommand) {
  test::TempDir dir;
  std::string text = read_file(test::data_clip("cmu_07_01_walk.bvh"));
  std::string zero = test::write_text(dir / "zero.bvh", text.substr(0, text.find("MOTION")) +
                                                            "MOTION\nFrames: 0\nFrame Time: 0.0083333\n");
  for (std::vector<std::string> args : {std::vector<std::string>{"clean", zero, "-o", (dir / "o1").string()},
                                        std::vector<std::string>{"annotate", zero, "-o", (dir / "o2").string()},
                                        std::vector<std::string>{"inspect", zero},
                                        std::vector<std::string>{"convert", zero, (dir / "c.bvh").string()}}) {
    auto r = run_footfix_bounded(args);
    EXPECT_EQ(r.exit_code, 3) << args[0] << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "error: ") && contains(r.err, "no frames")) << args[0] << ": " << r.err;
  }
}

}  // namespace
}  // namespace footfix
