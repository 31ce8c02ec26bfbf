// CI scale-out end to end with the real executable: --shard, `report merge`, --incremental,
// --html and --junit on bundled clips.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <set>

#include "footfix/files/atomic_file.h"
#include "support/paths.h"
#include "support/run_cli.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::quoted;
using test::run_footfix;

// A small library: three clips, one in a sub-folder (copies of the short bundled walk).
fs::path make_library(const fs::path& dir) {
  fs::create_directories(dir / "in" / "sub");
  for (const char* name : {"in/a.bvh", "in/b.bvh", "in/sub/c.bvh"})
    fs::copy_file(test::data_clip("cmu_07_01_walk.bvh"), dir / name);
  return dir / "in";
}

json read_json(const fs::path& path) { return json::parse(read_file(path)); }

// The report without timings (which differ between runs).
json without_timings(json report) {
  for (auto& clip : report["clips"]) clip.erase("time_s");
  return report;
}

std::vector<std::string> statuses(const json& report) {
  std::vector<std::string> out;
  for (const auto& clip : report["clips"]) out.push_back(clip["status"].get<std::string>());
  return out;
}

TEST(PipelineCli, ShardsCoverTheBatchOnceAndMergeIntoTheSingleRunReport) {
  fs::path dir = test::fresh_temp_dir("pipeline_shards");
  fs::path in = make_library(dir);
  auto single = run_footfix("clean " + quoted(in) + " -o " + quoted(dir / "out") + " --report " + quoted(dir / "all.json") +
                            " --html " + quoted(dir / "all.html") + " --junit " + quoted(dir / "all.xml") +
                            " --max-slide 1e-9");
  // --max-slide implies --check: every clip fails the impossible threshold (exit 6), in the
  // single run and in each shard alike.
  ASSERT_EQ(single.exit_code, 6) << single.output;
  std::multiset<std::string> seen;
  for (int k = 1; k <= 2; ++k) {
    std::string shard = std::to_string(k) + "/2";
    auto r = run_footfix("clean " + quoted(in) + " -o " + quoted(dir / "out") + " --shard " + shard + " --report " +
                         quoted(dir / ("shard" + std::to_string(k) + ".json")) + " --max-slide 1e-9");
    json report = read_json(dir / ("shard" + std::to_string(k) + ".json"));
    // A shard may hold none of three clips: nothing over the threshold then.
    ASSERT_EQ(r.exit_code, report["clips"].empty() ? 0 : 6) << r.output;
    for (const auto& clip : report["clips"]) seen.insert(clip["input"].get<std::string>());
  }
  std::multiset<std::string> all;
  json single_report = read_json(dir / "all.json");
  for (const auto& clip : single_report["clips"]) all.insert(clip["input"].get<std::string>());
  EXPECT_EQ(all.size(), 3u);
  EXPECT_EQ(seen, all) << "every clip in exactly one shard";

  auto merged = run_footfix("report merge " + quoted(dir / "shard1.json") + " " + quoted(dir / "shard2.json") + " -o " +
                            quoted(dir / "merged.json") + " --html " + quoted(dir / "merged.html"));
  ASSERT_EQ(merged.exit_code, 0) << merged.output;
  EXPECT_EQ(without_timings(read_json(dir / "merged.json")), without_timings(read_json(dir / "all.json")));
  // The page has no timings: merged and single-run pages are the same bytes, and drawing the
  // saved single-run report gives the page clean wrote.
  EXPECT_EQ(read_file(dir / "merged.html"), read_file(dir / "all.html"));
  auto redraw = run_footfix("report " + quoted(dir / "all.json") + " --html " + quoted(dir / "redrawn.html"));
  ASSERT_EQ(redraw.exit_code, 0) << redraw.output;
  EXPECT_EQ(read_file(dir / "redrawn.html"), read_file(dir / "all.html"));

  // Overlapping shards are refused.
  auto overlap = run_footfix("report merge " + quoted(dir / "shard1.json") + " " + quoted(dir / "all.json") + " -o " +
                             quoted(dir / "bad.json"));
  EXPECT_EQ(overlap.exit_code, 2) << overlap.output;
  EXPECT_FALSE(fs::exists(dir / "bad.json"));

  // Nothing to write, or an input that is not a report: clear errors.
  EXPECT_EQ(run_footfix("report " + quoted(dir / "all.json")).exit_code, 2);
  auto not_report = run_footfix("report merge " + quoted(dir / "all.html") + " -o " + quoted(dir / "bad.json"));
  EXPECT_EQ(not_report.exit_code, 3) << not_report.output;

  // JUnit: one case per clip, each failing against the (impossible) threshold.
  std::string xml = read_file(dir / "all.xml");
  EXPECT_NE(xml.find("tests=\"3\" failures=\"3\" errors=\"0\""), std::string::npos) << xml;
  fs::remove_all(dir);
}

TEST(PipelineCli, ShardAutoIsAClearErrorOutsideCi) {
  if (std::getenv("CI_NODE_INDEX") != nullptr || std::getenv("FOOTFIX_SHARD_INDEX") != nullptr)
    GTEST_SKIP() << "running inside a sharded CI job";
  fs::path dir = test::fresh_temp_dir("pipeline_auto");
  auto r = run_footfix("clean " + quoted(test::data_clip("cmu_07_01_walk.bvh")) + " -o " + quoted(dir / "out") +
                       " --shard auto");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("CI_NODE_INDEX"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out"));
  fs::remove_all(dir);
}

TEST(PipelineCli, IncrementalSkipsUnchangedAndRedoesChangedInputsAndSettings) {
  fs::path dir = test::fresh_temp_dir("pipeline_incremental");
  fs::path in = dir / "in";
  fs::create_directories(in);
  fs::copy_file(test::data_clip("cmu_07_01_walk.bvh"), in / "a.bvh");
  fs::copy_file(test::data_clip("cmu_07_01_walk.bvh"), in / "b.bvh");
  std::string base = "clean " + quoted(in) + " -o " + quoted(dir / "out") + " --incremental --report " + quoted(dir / "r.json");

  auto first = run_footfix(base);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_EQ(statuses(read_json(dir / "r.json")), (std::vector<std::string>{"ok", "ok"}));
  ASSERT_TRUE(fs::exists(dir / "out" / ".footfix-manifest.json"));
  json first_report = read_json(dir / "r.json");

  auto second = run_footfix(base);
  ASSERT_EQ(second.exit_code, 0) << second.output;
  json second_report = read_json(dir / "r.json");
  EXPECT_EQ(statuses(second_report), (std::vector<std::string>{"skipped", "skipped"}));
  // Skipped clips keep their metrics and plots in the report.
  EXPECT_EQ(second_report["clips"][1]["metrics"], first_report["clips"][1]["metrics"]);
  EXPECT_EQ(second_report["clips"][1]["plot"], first_report["clips"][1]["plot"]);

  // Changed input bytes: only that clip is redone.
  std::ofstream(in / "b.bvh", std::ios::app) << "\n";
  auto third = run_footfix(base);
  ASSERT_EQ(third.exit_code, 0) << third.output;
  EXPECT_EQ(statuses(read_json(dir / "r.json")), (std::vector<std::string>{"skipped", "ok"}));

  // A deleted output is redone.
  fs::remove(dir / "out" / "a.bvh");
  auto fourth = run_footfix(base);
  ASSERT_EQ(fourth.exit_code, 0) << fourth.output;
  EXPECT_EQ(statuses(read_json(dir / "r.json")), (std::vector<std::string>{"ok", "skipped"}));
  EXPECT_TRUE(fs::exists(dir / "out" / "a.bvh"));

  // A settings change redoes everything, and is then remembered.
  auto fifth = run_footfix(base + " --speed-threshold 0.3");
  ASSERT_EQ(fifth.exit_code, 0) << fifth.output;
  EXPECT_EQ(statuses(read_json(dir / "r.json")), (std::vector<std::string>{"ok", "ok"}));
  auto sixth = run_footfix(base + " --speed-threshold 0.3");
  ASSERT_EQ(sixth.exit_code, 0) << sixth.output;
  EXPECT_EQ(statuses(read_json(dir / "r.json")), (std::vector<std::string>{"skipped", "skipped"}));

  // A corrupt manifest is not trusted: warning, everything redone, manifest rebuilt.
  std::ofstream(dir / "out" / ".footfix-manifest.json", std::ios::trunc) << "{\"format\": \"footfix-manifest\", \"ver";
  auto seventh = run_footfix(base + " --speed-threshold 0.3");
  ASSERT_EQ(seventh.exit_code, 0) << seventh.output;
  EXPECT_NE(seventh.output.find("corrupt"), std::string::npos) << seventh.output;
  EXPECT_EQ(statuses(read_json(dir / "r.json")), (std::vector<std::string>{"ok", "ok"}));
  EXPECT_NO_THROW(read_json(dir / "out" / ".footfix-manifest.json"));

  // --incremental needs an output directory for its manifest.
  auto beside = run_footfix("clean " + quoted(in / "a.bvh") + " --incremental");
  EXPECT_EQ(beside.exit_code, 2) << beside.output;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace footfix
