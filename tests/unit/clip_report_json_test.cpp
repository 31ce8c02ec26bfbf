// The typed clip report and its one serializer (batch/clip_report_json.h): entries as clean
// writes them come back byte for byte, a failed entry holds only its failure, and mistyped
// fields read as documented in clip_report.h.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

#include "batch/clip_report_json.h"

namespace footfix {
namespace {
using nlohmann::json;

json slide(int pairs, double p95_cm_s) {
  return {{"contact_frame_pairs", pairs}, {"mean_mm_per_frame", 0.5}, {"p95_mm_per_frame", 1.25},
          {"mean_cm_per_s", 1.5}, {"p95_cm_per_s", p95_cm_s}};
}

/// A cleaned clip's entry written out by hand, every field a clean can write.
json cleaned_entry() {
  json foot = {{"side", "left"},
               {"contacts", {{0, 40}, {60, 99}}},
               {"speed_mps", {0.0, 0.1, 0.9}},
               {"height_m", {0.0, 0.012, 0.2}},
               {"xz_before", {0.0, 0.0, 0.5, 0.1}},
               {"xz_after", {0.0, 0.0, 0.5, 0.0}},
               {"planted_xz", {0.0, 0.0, 1.0, 0.0}}};
  json right = foot;
  right["side"] = "right";
  json motion = {{"fps", 30.0}, {"step", 4}, {"samples", 25}, {"mm", 1.0}, {"parents", {-1, 0, 1}},
                 {"feet", {1, 2}}, {"source", "AAEC"}, {"moved", {2}}, {"cleaned", "AQID"}};
  return {{"input", "clips/walk.bvh"},
          {"status", "ok"},
          {"exit_code", 0},
          {"check", "passed"},
          {"output", "out/walk.bvh"},
          {"contacts", "out/walk.contacts.json"},
          {"buffers", {"out/walk.bin"}},
          {"contact_count", 14u},
          {"time_s", 0.125},
          {"frames", 100},
          {"solver_iterations", 3},
          {"loop", true},
          {"treadmill", true},
          {"metrics",
           {{"slide_source", slide(80, 25.9)}, {"slide_cleaned", slide(80, 0.06)}, {"max_new_penetration_mm", 0.0},
            {"mean_deviation_cm", 1.1}, {"max_deviation_cm", 4.2}, {"source_max_leg_accel_mps2", 90.5},
            {"cleaned_max_leg_accel_mps2", 91.0}, {"leg_accel_ratio", nullptr}, {"pop_ratio", 1.01}, {"pop_frame", 17},
            {"max_pelvis_drop_cm", 0.3}, {"non_leg_joints_unchanged", false}, {"changed_non_leg_joints", {"Spine"}}}},
          {"warnings", {"a planted foot could not reach its target"}},
          {"notes", {"frame 0 is a rest pose"}},
          {"ground_velocity_mps", {0.0, 0.0, -1.25}},
          {"ground_offset_m", -0.051},
          {"plot", {{"fps", 30.0}, {"frames", 100}, {"step", 4}, {"speed_threshold_mps", 0.25},
                    {"height_threshold_m", 0.1}, {"feet", {foot, right}}, {"motion", motion}}}};
}

TEST(ClipReportJson, CleanedEntryReadAndWrittenKeepsItsBytes) {
  const json entry = cleaned_entry();
  const ClipReport clip = clip_report_from_json(entry);
  EXPECT_EQ(clip.status, ClipStatus::ok);
  EXPECT_EQ(clip.check, CheckResult::passed);
  EXPECT_EQ(clip.contact_count, 14u);
  EXPECT_EQ(clip.buffers, std::vector<std::string>{"out/walk.bin"});
  ASSERT_TRUE(clip.metrics.has_value());
  EXPECT_DOUBLE_EQ(residual_slide(clip), 0.06);
  EXPECT_DOUBLE_EQ(source_slide(clip), 25.9);
  EXPECT_TRUE(std::isnan(clip.metrics->leg_accel_ratio)) << "null reads as NaN";
  ASSERT_TRUE(clip.plot.has_value() && clip.plot->motion.has_value());
  EXPECT_EQ(clip.plot->feet.size(), 2u);
  EXPECT_EQ(clip.plot->motion->moved, (std::vector<long long>{2}));
  EXPECT_EQ(clip_report_to_json(clip).dump(2), entry.dump(2));
}

TEST(ClipReportJson, OptionalFieldsAreLeftOutWhenAbsent) {
  json entry = cleaned_entry();
  for (const char* key : {"time_s", "buffers", "notes", "ground_velocity_mps", "ground_offset_m", "plot"}) entry.erase(key);
  entry["status"] = "skipped";
  entry["check"] = nullptr;
  const ClipReport clip = clip_report_from_json(entry);
  EXPECT_EQ(clip.status, ClipStatus::skipped);
  EXPECT_EQ(clip.check, CheckResult::none);
  EXPECT_FALSE(clip.time_s.has_value());
  EXPECT_EQ(clip_report_to_json(clip).dump(2), entry.dump(2));
}

TEST(ClipReportJson, FailedEntryHoldsOnlyItsFailure) {
  ClipReport clip;
  clip.input = "clips/bad.bvh";
  clip.status = ClipStatus::failed;
  clip.exit_code = 3;
  clip.error = "clips/bad.bvh: line 3: not a number";
  clip.output = "out/bad.bvh";  // set by mistake: not written for a failed clip
  clip.time_s = 1.0;
  const json expected = {{"input", "clips/bad.bvh"}, {"status", "failed"}, {"exit_code", 3},
                         {"error", "clips/bad.bvh: line 3: not a number"}, {"check", nullptr}};
  EXPECT_EQ(clip_report_to_json(clip), expected);
}

TEST(ClipReportJson, MistypedFieldsReadAsDocumented) {
  const json odd = {{"input", 5},
                    {"status", "done"},
                    {"frames", 2.5},
                    {"contact_count", -3},
                    {"warnings", {"kept", 7}},
                    {"metrics", {{"slide_cleaned", "fast"}, {"slide_source", {{"p95_cm_per_s", 4.0}}}}},
                    {"ground_velocity_mps", {1.0, 2.0}},
                    {"plot", {{"frames", 1e300}, {"step", "x"}, {"fps", -1},
                              {"feet", {{{"speed_mps", {1.0, "no", 2.0}}, {"contacts", {{1}, {"a", 2}, {3, 4}}}}}},
                              {"motion", {{"parents", {-1, 0.5}}}}}}};
  const ClipReport clip = clip_report_from_json(odd);
  EXPECT_EQ(clip.input, "");
  EXPECT_EQ(clip.status, ClipStatus::failed) << "an unknown status is a failure";
  EXPECT_FALSE(clip.frames.has_value());
  EXPECT_EQ(clip.contact_count, 0u);
  EXPECT_EQ(clip.warnings, (std::vector<std::string>{"kept"}));
  ASSERT_TRUE(clip.metrics.has_value());
  EXPECT_TRUE(std::isnan(residual_slide(clip, NAN)));
  EXPECT_EQ(residual_slide(clip, -1.0), -1.0);
  EXPECT_EQ(source_slide(clip), 4.0);
  EXPECT_FALSE(clip.ground_velocity_mps.has_value()) << "a velocity needs three components";
  ASSERT_TRUE(clip.plot.has_value());
  EXPECT_EQ(clip.plot->frames, 0) << "not an integer";
  EXPECT_EQ(clip.plot->step, 0);
  EXPECT_EQ(clip.plot->fps, -1.0);
  ASSERT_EQ(clip.plot->feet.size(), 1u);
  EXPECT_EQ(clip.plot->feet[0].speed_mps, (std::vector<double>{1.0, 0.0, 2.0}));
  ASSERT_EQ(clip.plot->feet[0].contacts.size(), 1u) << "only spans of two integer frames";
  EXPECT_EQ(clip.plot->feet[0].contacts[0][1], 4);
  EXPECT_FALSE(clip.plot->motion.has_value()) << "a motion with a mistyped field is left out whole";
  // Not an object at all: an empty failed entry, and a document without clips.
  EXPECT_EQ(clip_report_from_json(json::array()).status, ClipStatus::failed);
  EXPECT_TRUE(report_document_from_json(json("text")).clips.empty());
}

TEST(ClipReportJson, SummaryFieldsThePagesRead) {
  const json document = {{"tool", "footfix"},
                         {"version", "0.1.0"},
                         {"summary", {{"complete", false}, {"interrupted", "SIGTERM"}, {"clips_planned", 3},
                                      {"check", {{"enabled", true}, {"max_slide_cm_s", 2.5}}}}},
                         {"clips", {cleaned_entry(), {{"input", "b.bvh"}, {"status", "failed"}}}}};
  const ReportDocument doc = report_document_from_json(document);
  EXPECT_EQ(doc.tool, "footfix");
  EXPECT_EQ(doc.version, "0.1.0");
  EXPECT_TRUE(doc.summary.check);
  EXPECT_EQ(doc.summary.max_slide_cm_s, 2.5);
  EXPECT_FALSE(doc.summary.complete);
  EXPECT_EQ(doc.summary.interrupted, "SIGTERM");
  EXPECT_EQ(doc.summary.clips_planned, 3);
  ASSERT_EQ(doc.clips.size(), 2u);
  EXPECT_EQ(doc.clips[1].input, "b.bvh");
  const ReportSummary defaults = report_document_from_json(json::object()).summary;
  EXPECT_FALSE(defaults.check);
  EXPECT_TRUE(defaults.complete) << "a report without a summary reads as complete";
  EXPECT_EQ(defaults.clips_planned, -1);
}

TEST(ClipReportJson, SummariesAreWrittenInTheReportsFormat) {
  // The summary text of a finished and of a stopped run, as reports have always had them.
  ReportSummary finished;
  finished.check = true;
  finished.max_slide_cm_s = 0.5;
  finished.counts = RunCounts{22, 13, 9, 6, 12, 1};
  EXPECT_EQ(report_summary_to_json(finished).dump(),
            R"({"check":{"enabled":true,"failed":1,"max_slide_cm_s":0.5,"passed":12},"clips":22,"complete":true,)"
            R"("exit_code":6,"failed":9,"ok":13})");
  ReportSummary stopped;
  stopped.complete = false;
  stopped.interrupted = "SIGINT";
  stopped.clips_done = 4;
  stopped.clips_planned = 10;
  EXPECT_EQ(report_summary_to_json(stopped).dump(),
            R"({"clips_done":4,"clips_planned":10,"complete":false,"interrupted":"SIGINT"})");
  // And read back as written.
  const ReportSummary again = report_summary_from_json(report_summary_to_json(finished));
  ASSERT_TRUE(again.counts.has_value());
  EXPECT_EQ(again.counts->ok, 13);
  EXPECT_EQ(again.counts->exit_code, 6);
  EXPECT_EQ(again.counts->check_failed, 1);
  EXPECT_EQ(report_summary_from_json(report_summary_to_json(stopped)).clips_done, 4);
}

}  // namespace
}  // namespace footfix
