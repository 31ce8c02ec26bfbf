#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "core/json_text.h"
#include "footfix/core/error.h"

#include "html_report.h"
#include "batch/clip_report_json.h"
#include "junit.h"
#include "footfix/batch/report_merge.h"
#include "support/text_search.h"

namespace footfix::cli {
namespace {
using nlohmann::json;

/// The page and the JUnit file of a report document, read as `footfix report` reads one.
std::string page(const json& report) { return html_report(report_document_from_json(report)); }
std::string junit(const json& report, double max_slide_cm_s) {
  return junit_xml(report_document_from_json(report), max_slide_cm_s);
}

json clip_entry(const std::string& input, double residual_p95, bool with_plot) {
  json entry = {{"input", input},
                {"output", "out/" + input},
                {"status", "ok"},
                {"time_s", 1.5},
                {"frames", 100},
                {"warnings", json::array()},
                {"metrics",
                 {{"slide_source", {{"p95_cm_per_s", residual_p95 * 4}}}, {"slide_cleaned", {{"p95_cm_per_s", residual_p95}}}}}};
  if (with_plot) {
    json foot = {{"side", "left"},
                 {"contacts", {{0, 40}, {60, 99}}},
                 {"speed_mps", {0.0, 0.1, 0.9, 0.05}},
                 {"height_m", {0.0, 0.01, 0.2, 0.0}},
                 {"xz_before", {0.0, 0.0, 0.5, 0.1, 1.0, 0.0}},
                 {"xz_after", {0.0, 0.0, 0.5, 0.0, 1.0, 0.0}},
                 {"planted_xz", {0.0, 0.0, 1.0, 0.0}}};
    json right = foot;
    right["side"] = "right";
    entry["plot"] = {{"fps", 30.0}, {"frames", 100}, {"step", 25}, {"speed_threshold_mps", 0.25},
                     {"height_threshold_m", 0.1}, {"feet", {foot, right}}};
  }
  return entry;
}

TEST(JunitReport, OneCasePerClipFailingOverThresholdOrOnError) {
  json failed = {{"input", "bad.bvh"}, {"status", "failed"}, {"error", "bad.bvh: line 3: not a number"}};
  json skipped = clip_entry("same.bvh", 0.5, false);
  skipped["status"] = "skipped";
  json report = {{"clips", {clip_entry("good.bvh", 1.0, false), clip_entry("slides.bvh", 7.5, false), failed, skipped}}};
  std::string xml = junit(report, 5.0);
  EXPECT_EQ(test::count_of(xml, "<testcase "), 4u) << xml;
  EXPECT_EQ(test::count_of(xml, "<failure "), 1u) << xml;
  EXPECT_EQ(test::count_of(xml, "<error "), 1u) << xml;
  EXPECT_EQ(test::count_of(xml, "<skipped "), 1u) << xml;
  EXPECT_NE(xml.find("tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"slides.bvh\""), std::string::npos);
  EXPECT_NE(xml.find("line 3: not a number"), std::string::npos);
  // A higher threshold passes the sliding clip.
  EXPECT_EQ(test::count_of(junit(report, 10.0), "<failure "), 0u);
}

TEST(HtmlReport, OverviewSortsFailuresFirstThenByResidualSlide) {
  json failed = {{"input", "broken.bvh"}, {"status", "failed"}, {"error", "cannot read"}};
  json report = {{"tool", "footfix"},
                 {"version", "0.1.0"},
                 {"clips", {clip_entry("low.bvh", 0.5, true), clip_entry("high.bvh", 9.0, true), failed,
                            clip_entry("mid.bvh", 3.0, true)}}};
  std::string html = page(report);
  std::string table = html.substr(html.find("<table class=\"overview\""));
  table = table.substr(0, table.find("</table>"));
  auto at = [&](const char* name) { return table.find(std::string(">") + name + "<"); };
  ASSERT_NE(at("broken.bvh"), std::string::npos);
  EXPECT_LT(at("broken.bvh"), at("high.bvh"));
  EXPECT_LT(at("high.bvh"), at("mid.bvh"));
  EXPECT_LT(at("mid.bvh"), at("low.bvh"));
  // Rows link to the clip sections, which follow the overview.s order.
  EXPECT_NE(table.find("href=\"#clip-2\">broken.bvh"), std::string::npos);
  EXPECT_NE(html.find("<section class=\"clip\" id=\"clip-1\"><h2>high.bvh"), std::string::npos);
  EXPECT_EQ(test::count_of(html, "<svg"), 3u * k_svgs_per_clip);
  EXPECT_EQ(test::count_of(html, "class=\"threshold\""), 3u * 2);
  EXPECT_EQ(html.find("http"), std::string::npos) << "the page must not load anything";
}

TEST(HtmlReport, EscapesNamesAndMessages) {
  json report = {{"clips", {clip_entry("<script>alert(1)</script>.bvh", 1.0, false)}}};
  report["clips"][0]["warnings"] = {"a & b <i>"};
  std::string html = page(report);
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  // The name is a path ("</" holds a folder): the folder is named once, the row shows the rest.
  EXPECT_NE(html.find("inputs in &lt;script&gt;alert(1)&lt;/"), std::string::npos);
  EXPECT_NE(html.find("\">script&gt;.bvh</a>"), std::string::npos);
  EXPECT_NE(html.find("a &amp; b &lt;i&gt;"), std::string::npos);
}

TEST(HtmlReport, ShowsMistypedFieldsOfHandEditedReportsAsBlanks) {
  json odd = {{"clips",
               {{{"input", 5},
                 {"frames", 2.5},
                 {"status", json::array()},
                 {"warnings", {"kept", 7}},
                 {"metrics", {{"slide_cleaned", "fast"}, {"max_new_penetration_mm", 12.25}}},
                 {"plot", {{"frames", 1e300}, {"step", "x"}, {"fps", -1}, {"feet", {{{"speed_mps", "no"}, {"contacts", {{1}, {"a", 2}}}}}}}}}}}};
  const std::string html = page(odd);
  EXPECT_NE(html.find("</html>"), std::string::npos);
  // The clip is listed once, as failed (its status is not "ok"), with its mistyped fields left
  // blank or as dashes rather than printed or drawn, and its well-typed ones shown.
  EXPECT_EQ(test::count_of(html, "id=\"clip-"), 1u);
  EXPECT_NE(html.find("1 clip: 0 cleaned, 0 skipped (unchanged), 1 failed."), std::string::npos) << html;
  EXPECT_EQ(html.find("fast"), std::string::npos) << "a mistyped metric was printed";
  EXPECT_EQ(html.find("2.5"), std::string::npos) << "a frame count that is not an integer was printed";
  EXPECT_NE(html.find("<td>12.2</td><td>kept</td></tr>"), std::string::npos) << "the penetration and the string warning";
  EXPECT_NE(html.find("<li>kept</li></ul>"), std::string::npos);
  EXPECT_EQ(test::count_of(html, "<svg"), static_cast<std::size_t>(k_svgs_per_clip)) << "the plot is drawn, empty";
  EXPECT_EQ(test::count_of(html, "<polyline"), 0u) << "curves drawn from values that are not numbers";
  EXPECT_EQ(test::count_of(html, "<circle"), 0u) << "planted points drawn from a mistyped plot";
  EXPECT_EQ(test::count_of(html, "fill=\"#1f77b4\"/>"), 0u) << "contacts drawn from spans that are not two frames";
  EXPECT_EQ(html.find("class=\"player\""), std::string::npos) << "a player without motion";
  const std::string xml = junit(odd, 5.0);
  EXPECT_NE(xml.find("tests=\"1\" failures=\"0\" errors=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"\" time=\"0.000\">\n      <error message=\"not cleaned\"/>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<system-out>warning: kept\n</system-out>"), std::string::npos) << xml;
  // A report that is not an object: a page with no clip.
  const std::string empty = page(json::array());
  EXPECT_NE(empty.find("0 clips: 0 cleaned, 0 skipped (unchanged), 0 failed."), std::string::npos) << empty;
  EXPECT_EQ(test::count_of(empty, "id=\"clip-"), 0u);
}

TEST(HtmlReport, SameDocumentSameBytes) {
  json report = {{"clips", {clip_entry("a.bvh", 1.0, true), clip_entry("b.bvh", 2.0, true)}}};
  EXPECT_EQ(page(report), page(json::parse(report.dump())));
}

TEST(ReportMerge, ShardsBecomeOneReportWithFoldedSummary) {
  json shard1 = {{"tool", "footfix"},
                 {"version", "0.1.0"},
                 {"summary",
                  {{"clips", 2}, {"ok", 1}, {"failed", 1}, {"exit_code", 3}, {"complete", true},
                   {"check", {{"enabled", true}, {"max_slide_cm_s", 5.0}, {"passed", 1}, {"failed", 0}}}}},
                 {"clips", {clip_entry("lib/c.bvh", 1.0, false), {{"input", "lib/a.bvh"}, {"status", "failed"}}}}};
  json shard2 = {{"tool", "footfix"},
                 {"version", "0.1.0"},
                 {"summary",
                  {{"clips", 1}, {"ok", 1}, {"failed", 0}, {"exit_code", 6}, {"complete", false},
                   {"check", {{"enabled", true}, {"max_slide_cm_s", 5.0}, {"passed", 0}, {"failed", 1}}}}},
                 {"clips", {clip_entry("lib/b/x.bvh", 9.0, false)}}};
  auto named = [](const char* path, const json& document) { return NamedReport{path, report_document_from_json(document)}; };
  std::vector<std::string> warnings;
  const ReportDocument merged = merge_reports({named("s1.json", shard1), named("s2.json", shard2)}, warnings);
  EXPECT_TRUE(warnings.empty());
  json expected_summary = {{"clips", 3}, {"ok", 2}, {"failed", 1}, {"exit_code", 6}, {"complete", false},
                           {"check", {{"enabled", true}, {"max_slide_cm_s", 5.0}, {"passed", 1}, {"failed", 1}}}};
  EXPECT_EQ(report_summary_to_json(merged.summary), expected_summary);
  ASSERT_EQ(merged.clips.size(), 3u);
  EXPECT_EQ(merged.clips[0].input, "lib/a.bvh");
  EXPECT_EQ(merged.clips[1].input, "lib/b/x.bvh");
  EXPECT_EQ(merged.clips[2].input, "lib/c.bvh");
  EXPECT_EQ(merged.clips[1].exit_code, 0) << "entries are read by the one serializer";
  EXPECT_THROW(merge_reports({named("s1.json", shard1), named("again.json", shard1)}, warnings), Error);
  shard2["summary"]["check"]["max_slide_cm_s"] = 3.0;
  shard2["version"] = "0.2.0";
  merge_reports({named("s1.json", shard1), named("s2.json", shard2)}, warnings);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0], "s2.json: summary.max_slide_cm_s 3.0 differs from 5.0 (kept)");
  EXPECT_EQ(warnings[1], "s2.json was written by footfix 0.2.0, s1.json by 0.1.0");
}

TEST(ReportMerge, StoppedShardsAddTheirProgress) {
  ReportDocument stopped{"footfix", "0.1.0", {}, {}};
  stopped.summary.complete = false;
  stopped.summary.interrupted = "SIGTERM";
  stopped.summary.clips_done = 2;
  stopped.summary.clips_planned = 5;
  ReportDocument other = stopped;
  other.summary.interrupted = "SIGINT";
  std::vector<std::string> warnings;
  const ReportDocument merged = merge_reports({{"a.json", stopped}, {"b.json", other}}, warnings);
  EXPECT_FALSE(merged.summary.complete);
  EXPECT_FALSE(merged.summary.counts.has_value());
  EXPECT_EQ(merged.summary.clips_done, 4);
  EXPECT_EQ(merged.summary.clips_planned, 10);
  EXPECT_EQ(merged.summary.interrupted, "SIGTERM");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "b.json: summary.interrupted \"SIGINT\" differs from \"SIGTERM\" (kept)");
}

TEST(ReportMerge, WrittenAsCleanWritesIt) {
  // An entry as footfix writes it (every field), so that reading it loses nothing.
  const json entry = clip_report_to_json(clip_report_from_json(clip_entry("a.bvh", 1.5, true)));
  const json document = {{"clips", {entry}},
                         {"summary", report_summary_to_json(ReportSummary{})},
                         {"tool", "footfix"},
                         {"version", "0.1.0"}};
  const ReportDocument read = report_document_from_json(document);
  EXPECT_EQ(report_text(read), json_text(document, 2) + "\n");
}

}  // namespace
}  // namespace footfix::cli
