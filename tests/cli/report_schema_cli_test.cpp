// The published schemas of the batch report (schemas/report.schema.json) and of the runtime lock
// file (schemas/lock.schema.json), checked against what the real binary writes: a clean batch
// with a failing clip and --check, its --incremental re-run (clips skipped), an interrupted
// batch, a merged report, and `footfix lock`'s file. Each schema also rejects a document with one field broken, so that it checks something.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "cli/cli_test_helpers.h"
#include "support/limited_run.h"
#include "unit/contacts_json_schema.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json schema(const char* name) { return json::parse(read_file(fs::path(FOOTFIX_SCHEMA_DIR) / name)); }

std::string joined(const std::vector<std::string>& errors) {
  std::string out;
  for (const auto& e : errors) out += e + "\n";
  return out;
}

TEST(ReportSchemaCli, CleanInterruptedAndMergedReportsValidate) {
  test::TempDir dir;
  test::copy_walk(dir / "in" / "walk.bvh");
  fs::copy_file(test::data_clip("cmu3dsmax_131_01_start_walk_stop.bvh"), dir / "in" / "start_stop.bvh");
  test::write_text(dir / "in" / "bad.bvh", "HIERARCHY\nROOT Hips\n{\n");
  const json report_schema = schema("report.schema.json");

  auto r = test::run_footfix_bounded({"clean", (dir / "in").string(), "-o", (dir / "out").string(), "--check", "--ground", "auto",
                                      "--report", (dir / "r.json").string()},
                                     std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 3) << r.err;
  const json report = json::parse(read_file(dir / "r.json"));
  ASSERT_EQ(report["clips"].size(), 3u);
  EXPECT_EQ(joined(test::SchemaValidator::validate(report_schema, report)), "");

  auto merged = test::run_footfix_bounded({"report", "merge", (dir / "r.json").string(), "-o", (dir / "merged.json").string()});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(joined(test::SchemaValidator::validate(report_schema, json::parse(read_file(dir / "merged.json")))), "");

  // A re-run with --incremental: the unchanged clips are reported as skipped, with their recorded entries.
  const std::vector<std::string> incremental{"clean", (dir / "in").string(), "-o", (dir / "inc").string(), "--incremental",
                                             "--report", (dir / "inc.json").string()};
  ASSERT_EQ(test::run_footfix_bounded(incremental, std::chrono::seconds(120)).exit_code, 3);
  ASSERT_EQ(test::run_footfix_bounded(incremental, std::chrono::seconds(120)).exit_code, 3);
  const json rerun = json::parse(read_file(dir / "inc.json"));
  ASSERT_EQ(rerun["clips"].size(), 3u);
  EXPECT_EQ(std::count_if(rerun["clips"].begin(), rerun["clips"].end(), [](const json& c) { return c["status"] == "skipped"; }), 2)
      << rerun.dump().substr(0, 1000);
  EXPECT_EQ(joined(test::SchemaValidator::validate(report_schema, rerun)), "");

  test::LimitedRunOptions stop_after_one;
  stop_after_one.bound = std::chrono::seconds(120);
  stop_after_one.env = {"FOOTFIX_TEST_INTERRUPT_AFTER=1"};
  test::run_footfix_limited({"clean", (dir / "in").string(), "-o", (dir / "out2").string(), "-j", "1", "--report",
                             (dir / "stopped.json").string()},
                            stop_after_one);
  const json stopped = json::parse(read_file(dir / "stopped.json"));
  ASSERT_EQ(stopped["summary"]["complete"], false) << stopped.dump();
  EXPECT_EQ(joined(test::SchemaValidator::validate(report_schema, stopped)), "");

  // One field broken at a time, each is caught.
  for (auto [path, value] : {std::pair{"/clips/0/status", json("done")},
                             {"/clips/0/metrics/slide_cleaned/p95_cm_per_s", json("fast")},
                             {"/clips/0/plot/motion/samples", json(-1)},
                             {"/summary/complete", json(1)},
                             {"/clips/0/unknown_field", json(0)}}) {
    json broken = report;
    broken[json::json_pointer(path)] = value;
    EXPECT_FALSE(test::SchemaValidator::validate(report_schema, broken).empty()) << path << " not checked";
  }
}

TEST(ReportSchemaCli, LockFileValidates) {
  test::TempDir dir;
  const std::string input = test::copy_walk(dir / "walk.bvh");
  auto r = test::run_footfix_bounded({"lock", input, "-o", (dir / "out" / "walk.bvh").string()}, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json lock_schema = schema("lock.schema.json");
  const json lock = json::parse(read_file(dir / "out" / "walk.lock.json"));
  EXPECT_EQ(joined(test::SchemaValidator::validate(lock_schema, lock)), "");

  for (auto [path, value] : {std::pair{"/feet/0/locked/0", json(2)},
                             {"/feet/1/contact_point_m/0", json("here")},
                             {"/settings/contacts", json("psychic")},
                             {"/clip/frames", json(-3)}}) {
    json broken = lock;
    broken[json::json_pointer(path)] = value;
    EXPECT_FALSE(test::SchemaValidator::validate(lock_schema, broken).empty()) << path << " not checked";
  }
}

}  // namespace
}  // namespace footfix
