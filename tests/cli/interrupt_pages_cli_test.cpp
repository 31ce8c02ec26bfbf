// A batch stopped by SIGTERM also leaves its --html page and --junit file, through the real
// binary: both list the clip that finished and say the run is incomplete (the page in its note,
// JUnit as a "batch complete" test case in error, so CI shows the run as broken). The batch sends
// itself SIGTERM once its first clip is recorded (FOOTFIX_TEST_INTERRUPT_AFTER=1).
#include <gtest/gtest.h>

#include <signal.h>

#include "cli/cli_test_helpers.h"
#include "support/limited_run.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using test::contains;

TEST(InterruptPagesCli, SigtermWritesThePageAndJUnitOfTheFinishedClipsMarkedIncomplete) {
  test::TempDir dir;
  for (const char* name : {"a", "b", "c"}) test::copy_walk(dir / "in" / (std::string(name) + ".bvh"));
  const fs::path page = dir / "page.html", junit = dir / "junit.xml";
  test::LimitedRunOptions stop_after_one;
  stop_after_one.bound = std::chrono::seconds(120);
  stop_after_one.env = {"FOOTFIX_TEST_INTERRUPT_AFTER=1"};
  test::LimitedRun r = test::run_footfix_limited({"clean", (dir / "in").string(), "-o", (dir / "out").string(), "-j", "1",
                                                  "--check", "--html", page.string(), "--junit", junit.string()},
                                                 stop_after_one);
  ASSERT_FALSE(r.timed_out) << r.err;
  EXPECT_EQ(r.signal, SIGTERM) << r.err;
  EXPECT_TRUE(contains(r.err, "info: " + page.string() + ": written, marked incomplete")) << r.err;
  EXPECT_TRUE(contains(r.err, "info: " + junit.string() + ": written, marked incomplete")) << r.err;

  const std::string note = "incomplete: the run was interrupted by SIGTERM after 1 of 3 clips";
  const std::string html = read_file(page);
  EXPECT_TRUE(contains(html, "<p class=\"incomplete\">" + note)) << html.substr(0, 2000);
  EXPECT_EQ(test::count_of(html, "<section class=\"clip\""), 1u);
  EXPECT_TRUE(contains(html, ">a.bvh<")) << "the clip that finished first (-j 1)";
  EXPECT_TRUE(contains(html, "check: contact slide p95 at most 5 cm/s")) << "the check is still shown";

  const std::string xml = read_file(junit);
  EXPECT_TRUE(contains(xml, "tests=\"2\" failures=\"0\" errors=\"1\"")) << xml;
  EXPECT_TRUE(contains(xml, "name=\"batch complete\"")) << xml;
  EXPECT_TRUE(contains(xml, "<error message=\"" + note + "\"/>")) << xml;
  EXPECT_EQ(test::count_of(xml, "classname=\"footfix.clean\""), 1u) << xml;
}

}  // namespace
}  // namespace footfix
