// Finding 8 (console and CI-log injection) in the report pages: a clip whose file name holds a
// terminal sequence (ESC, BEL), a newline, DEL and a C1 control character, once as a clip that
// cleans and once as one that fails. The HTML page and the JUnit XML list both clips with the
// name escaped visibly (\e, \n, \x7f, \u009b), and neither file holds a raw control character
// (C0 other than newline and tab, DEL, C1): XML 1.0 forbids them, and a CI log that prints the
// page would run them.
#include <gtest/gtest.h>

#include <string>

#include "cli/cli_test_helpers.h"
#include "support/security_checks.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

/// Byte offset of the first raw control character in UTF-8 `text` (C0 other than \n and \t, DEL,
/// C1 U+0080..U+009F as UTF-8 or as a lone byte), or npos.
std::size_t first_raw_control(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool c0 = c < 0x20 && c != '\n' && c != '\t';
    const bool c1_utf8 = c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                         static_cast<unsigned char>(text[i + 1]) <= 0x9F;
    const bool c1_lone = c >= 0x80 && c <= 0x9F && (i == 0 || static_cast<unsigned char>(text[i - 1]) < 0x80);
    if (c0 || c == 0x7F || c1_utf8 || c1_lone) return i;
  }
  return std::string::npos;
}

void expect_no_raw_control(const std::string& text, const char* where) {
  const std::size_t at = first_raw_control(text);
  EXPECT_EQ(at, std::string::npos) << "raw control byte 0x" << std::hex
                                   << (at == std::string::npos ? 0 : static_cast<unsigned char>(text[at]) + 0)
                                   << " in " << where << " near: "
                                   << (at == std::string::npos ? "" : text.substr(at >= 40 ? at - 40 : 0, 80));
}

TEST(SecurityReportPages, ControlCharactersInClipNamesAreEscapedInHtmlAndJUnit) {
  TempDir dir;
  const std::string hostile = "\x1b]0;pwned\x07\nerror: forged\x7f\xc2\x9b";
  const std::string shown = "\\e]0;pwned\\x07\\nerror: forged\\x7f\\u009b";  // the visible escape
  copy_walk(dir / "in" / ("ok" + hostile + ".bvh"));
  write_text(dir / "in" / ("bad" + hostile + ".bvh"), "HIERARCHY\nROOT Hips\n{\n");
  const fs::path html = dir / "report.html";
  const fs::path junit = dir / "junit.xml";
  LimitedRunOptions options;
  options.bound = std::chrono::seconds(60);
  LimitedRun r = run_footfix_limited({"clean", (dir / "in").string(), "-o", (dir / "out").string(), "--html",
                                      html.string(), "--junit", junit.string()},
                                     options);
  expect_bounded(r, 300);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const std::string html_text = read_bytes(html);
  const std::string junit_text = read_bytes(junit);
  ASSERT_FALSE(html_text.empty()) << "no HTML report; stderr: " << r.err;
  ASSERT_FALSE(junit_text.empty()) << "no JUnit XML; stderr: " << r.err;
  expect_no_raw_control(html_text, "the HTML report");
  expect_no_raw_control(junit_text, "the JUnit XML");
  for (const char* stem : {"ok", "bad"}) {
    const std::string name = stem + shown + ".bvh";
    EXPECT_NE(html_text.find(name), std::string::npos) << name << " not listed (escaped) in the HTML report";
    EXPECT_NE(junit_text.find(name + "\" time=\""), std::string::npos)  // the end of a testcase's name
        << name << " not a JUnit test case (escaped):\n"
        << junit_text;
  }
}

// Medium 2: U+FFFE and U+FFFF are not XML characters; a name holding them lost the whole JUnit file.
TEST(SecurityReportPages, NoncharactersInClipNamesKeepTheJUnitValid) {
  TempDir dir;
  copy_walk(dir / "in" / "walk\xef\xbf\xbe\xef\xbf\xbf.bvh");
  const fs::path junit = dir / "junit.xml";
  LimitedRun r = run_footfix_limited(
      {"clean", (dir / "in").string(), "-o", (dir / "out").string(), "--junit", junit.string(), "-q"});
  expect_bounded(r, 300);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string text = read_bytes(junit);
  EXPECT_EQ(text.find("\xef\xbf\xbe"), std::string::npos) << "raw U+FFFE in the JUnit XML";
  EXPECT_EQ(text.find("\xef\xbf\xbf"), std::string::npos) << "raw U+FFFF in the JUnit XML";
  EXPECT_NE(text.find("walk\\ufffe\\uffff.bvh"), std::string::npos) << text;
}

}  // namespace
}  // namespace footfix::test
