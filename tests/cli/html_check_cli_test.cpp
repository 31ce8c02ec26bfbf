// The HTML page of `clean --check --html` through the real binary: each clip's check verdict and
// the threshold are shown, failures come first (a failed run, then a clip over the threshold),
// the sections follow the overview's order, paths are relative to the batch's folder (named
// once), and times are in frames and seconds. The page is also loaded in headless chromium when
// it can run here.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_test_helpers.h"
#include "support/headless_chromium.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::contains;
using test::run_footfix_bounded;

/// Where each name appears after `from` in `text`, in the order given; npos when absent.
std::vector<std::size_t> positions(const std::string& text, std::size_t from, const std::vector<std::string>& names) {
  std::vector<std::size_t> at;
  for (const auto& name : names) at.push_back(text.find(name, from));
  return at;
}

TEST(HtmlCheckCli, PageShowsTheCheckVerdictAndThresholdWithFailuresFirst) {
  test::TempDir dir;
  test::copy_walk(dir / "in" / "walk.bvh");
  fs::copy_file(test::data_clip("cmu3dsmax_131_01_start_walk_stop.bvh"), dir / "in" / "start_stop.bvh");
  test::write_text(dir / "in" / "sub" / "bad.bvh", "HIERARCHY\nROOT Hips\n{\n");
  // A first run tells each clip's residual slide; the threshold goes between the two.
  auto first = run_footfix_bounded({"clean", (dir / "in").string(), "-o", (dir / "first").string(), "--report",
                                    (dir / "first.json").string()});
  ASSERT_EQ(first.exit_code, 3) << first.err;
  std::map<std::string, double> residual;
  const json first_report = json::parse(read_file(dir / "first.json"));
  for (const json& clip : first_report["clips"])
    if (clip["status"] == "ok")
      residual[fs::path(clip["input"].get<std::string>()).filename().string()] =
          clip["metrics"]["slide_cleaned"]["p95_cm_per_s"].get<double>();
  ASSERT_EQ(residual.size(), 2u);
  ASSERT_GT(std::abs(residual["walk.bvh"] - residual["start_stop.bvh"]), 0.001) << "no threshold between them";
  // Midway, as the page writes it (4 significant digits).
  char threshold_text[32];
  std::snprintf(threshold_text, sizeof threshold_text, "%.4g", (residual["walk.bvh"] + residual["start_stop.bvh"]) / 2);
  const double threshold = std::stod(threshold_text);
  const std::string over = residual["walk.bvh"] > threshold ? "walk.bvh" : "start_stop.bvh";
  const std::string under = over == "walk.bvh" ? "start_stop.bvh" : "walk.bvh";

  const fs::path page = dir / "page.html";
  auto r = run_footfix_bounded({"clean", (dir / "in").string(), "-o", (dir / "out").string(), "--max-slide",
                                threshold_text, "--html", page.string()});
  ASSERT_EQ(r.exit_code, 6) << r.err;
  const std::string html = read_file(page);
  EXPECT_TRUE(contains(html, std::string("check: contact slide p95 at most ") + threshold_text + " cm/s: failed, 1 over the threshold, 1 within it"))
      << html.substr(0, 3000);
  EXPECT_TRUE(contains(html, std::string("<th>check: p95 &le; ") + threshold_text + " cm/s</th>")) << html.substr(0, 3000);

  // The overview: the failed run, the clip over the threshold, the one under it; names relative
  // to in/, which is named once.
  const std::size_t table = html.find("<table class=\"overview\"");
  ASSERT_NE(table, std::string::npos);
  const std::string rows = html.substr(table, html.find("</table>", table) - table);
  auto at = positions(rows, 0, {">sub/bad.bvh</a></td><td>failed<", ">" + over + "</a></td><td>check failed<",
                                ">" + under + "</a></td><td>ok<"});
  for (std::size_t p : at) ASSERT_NE(p, std::string::npos) << rows;
  EXPECT_LT(at[0], at[1]);
  EXPECT_LT(at[1], at[2]);
  EXPECT_TRUE(contains(rows, "<td>failed (")) << rows;
  EXPECT_TRUE(contains(rows, "<td>passed (")) << rows;
  EXPECT_EQ(test::count_of(html, (dir / "in").string()), 1u) << "the input folder, named once";
  EXPECT_TRUE(contains(html, "inputs in " + (dir / "in").string() + "/, outputs in " + (dir / "out").string() + "/"));
  EXPECT_EQ(test::count_of(html, (dir / "out").string()), 1u) << "the output folder, named once";

  // Sections in the overview's order, each with its verdict, and the check line of checked clips.
  auto sections = positions(html, html.find("</table>", table),
                            {"<h2>sub/bad.bvh <span class=\"failed\">failed</span>",
                             "<h2>" + over + " <span class=\"check-failed\">check failed</span>",
                             "<h2>" + under + " <span class=\"ok\">ok</span>"});
  for (std::size_t p : sections) ASSERT_NE(p, std::string::npos) << html;
  EXPECT_LT(sections[0], sections[1]);
  EXPECT_LT(sections[1], sections[2]);
  EXPECT_TRUE(contains(html, std::string("check failed: contact slide p95 ")));
  EXPECT_TRUE(contains(html, std::string(" cm/s, threshold ") + threshold_text + " cm/s</p>"));
  // Times in frames and seconds: the walk has 317 frames at 120 Hz.
  EXPECT_TRUE(contains(html, "frame 316 (2.63 s)")) << html.substr(0, 3000);
  EXPECT_TRUE(contains(rows, "<td>317 (2.63 s)</td>")) << rows;

  const std::string chromium = test::find_chromium();
  if (std::string why = test::chromium_unusable(chromium, dir / "profile"); !why.empty()) GTEST_SKIP() << why;
  ASSERT_EQ(test::run_chromium(chromium, dir / "profile", "--dump-dom", "file://" + page.string(), dir / "dom.html"), 0);
  const std::string dom = read_file(dir / "dom.html");
  const std::size_t dom_table = dom.find("<table class=\"overview\"");
  ASSERT_NE(dom_table, std::string::npos) << dom.substr(0, 2000);
  auto shown = positions(dom, dom_table, {"<td>failed</td>", "<td>check failed</td>", "<td>ok</td>"});
  for (std::size_t p : shown) ASSERT_NE(p, std::string::npos) << dom.substr(dom_table, 3000);
  EXPECT_LT(shown[0], shown[1]);
  EXPECT_LT(shown[1], shown[2]);
}

}  // namespace
}  // namespace footfix
