// The HTML report in a real browser: Debian's chromium, headless, loads the page of a two-clip
// batch, takes a screenshot (checked: the expected size, not blank, both feet's colours drawn)
// and dumps the DOM it built (checked: the SVG elements). Skipped, with the reason, when
// chromium is not installed or cannot start here.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "footfix/files/atomic_file.h"
#include "html_report.h"
#include "support/headless_chromium.h"
#include "support/paths.h"
#include "support/png_image.h"
#include "support/run_cli.h"
#include "support/text_search.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using test::quoted;

constexpr int k_width = 1000, k_height = 1600;

bool near(std::uint32_t pixel, std::uint32_t colour) {
  for (int shift : {0, 8, 16})
    if (std::abs(static_cast<int>((pixel >> shift) & 0xff) - static_cast<int>((colour >> shift) & 0xff)) > 4) return false;
  return true;
}

TEST(HtmlReportBrowser, TwoClipBatchRendersInHeadlessChromium) {
  const std::string chromium = test::find_chromium();
  fs::path dir = test::fresh_temp_dir("html_browser");
  fs::path profile = dir / "profile";
  if (std::string why = test::chromium_unusable(chromium, profile); !why.empty()) GTEST_SKIP() << why;

  fs::create_directories(dir / "in");
  fs::copy_file(test::data_clip("cmu_07_01_walk.bvh"), dir / "in" / "walk.bvh");
  fs::copy_file(test::data_clip("cmu3dsmax_131_01_start_walk_stop.bvh"), dir / "in" / "start_stop.bvh");
  auto r = test::run_footfix("clean " + quoted(dir / "in") + " -o " + quoted(dir / "out") + " --html " +
                             quoted(dir / "report.html"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::string url = "file://" + (dir / "report.html").string();

  ASSERT_EQ(test::run_chromium(chromium, profile, "--dump-dom", url, dir / "dom.html", k_width, k_height), 0) << read_file(profile / "stderr.log");
  std::string dom = read_file(dir / "dom.html");
  EXPECT_EQ(test::count_of(dom, "<svg"), 2u * cli::k_svgs_per_clip) << dom.substr(0, 2000);
  EXPECT_EQ(test::count_of(dom, "<polyline"), 2u * 8) << "per clip: 2 speed, 2 height, 4 top-down paths";
  EXPECT_EQ(test::count_of(dom, "<section class=\"clip\""), 2u);

  fs::path png = dir / "report.png";
  ASSERT_EQ(test::run_chromium(chromium, profile, "--screenshot=" + quoted(png), url, dir / "screenshot.log", k_width, k_height), 0)
      << read_file(profile / "stderr.log");
  test::PngImage image = test::read_png(png);
  EXPECT_EQ(image.width, k_width);
  EXPECT_EQ(image.height, k_height);
  std::set<std::uint32_t> colours(image.rgb.begin(), image.rgb.end());
  std::size_t non_white = 0, left = 0, right = 0;
  for (std::uint32_t p : image.rgb) {
    non_white += p != 0xffffff;
    left += near(p, 0x1f77b4);
    right += near(p, 0xd62728);
  }
  EXPECT_GT(colours.size(), 20u) << "blank or flat screenshot";
  EXPECT_GT(non_white, image.rgb.size() / 50) << "less than 2% of the page drawn";
  EXPECT_GT(left, 200u) << "left foot's contacts not drawn";
  EXPECT_GT(right, 200u) << "right foot's contacts not drawn";
  if (const char* keep = std::getenv("FOOTFIX_KEEP_SCREENSHOT")) fs::copy_file(png, keep, fs::copy_options::overwrite_existing);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace footfix
