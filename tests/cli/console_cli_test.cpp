// Console rules through the real binary: control characters in names are escaped everywhere,
// every error line starts with "error:", the progress line never glues onto a log line on a
// terminal (run under script(1) for a pseudo-terminal), NO_COLOR and --color, -q everywhere, typo
// help, `help COMMAND`, --version.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>

#include "cli/cli_test_helpers.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::run_footfix_bounded;

/// Runs `sh script` on a pseudo-terminal (script -qfec), bounded by timeout; returns what the
/// terminal showed.
std::string run_on_pty(const test::TempDir& dir, const std::string& shell_line) {
  std::string script = test::write_text(dir / "run.sh", shell_line + "\n");
  std::string command = "timeout 60 script -qfec 'sh " + script + "' /dev/null 2>&1";
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[4096];
    while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
    pclose(pipe);
  }
  return out;
}

bool has_raw_control(const std::string& text) {
  for (unsigned char c : text)
    if ((c < 0x20 && c != '\n') || c == 0x7F) return true;
  return false;
}

TEST(ConsoleCli, NewlineInAFileNameCannotForgeALine) {
  test::TempDir dir;
  test::copy_walk(dir / "in" / "x\nerror: check passed, 0 clips over threshold\n::add-mask::x.bvh");
  test::write_text(dir / "in" / "bad\x1b]0;pwned\x07\x1b[31m.bvh", "HIERARCHY\nROOT Hips\n{\n");
  auto r = run_footfix_bounded({"clean", (dir / "in").string(), "-o", (dir / "out").string(), "--check"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  std::istringstream lines(r.err + r.out);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_NE(line.rfind("error: check passed", 0), 0u) << line;
    EXPECT_NE(line.rfind("::", 0), 0u) << line;
    EXPECT_TRUE(line.rfind("error: ", 0) == 0 || line.rfind("warning: ", 0) == 0 || line.rfind("info: ", 0) == 0)
        << line;
  }
  EXPECT_FALSE(has_raw_control(r.err)) << r.err;
  EXPECT_TRUE(contains(r.err, "x\\nerror: check passed")) << r.err;
  EXPECT_TRUE(contains(r.err, "bad\\e]0;pwned\\x07\\e[31m.bvh")) << r.err;
}

TEST(ConsoleCli, InspectEscapesJointNames) {
  test::TempDir dir;
  std::string text = read_file(test::data_clip("cmu_07_01_walk.bvh"));
  text.replace(text.find("Head"), 4, "He\x1b]0;title\x07\x1b[2Jad\xc2\x9b");
  std::string clip = test::write_text(dir / "walk.bvh", text);
  auto r = run_footfix_bounded({"inspect", clip});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(has_raw_control(r.out)) << r.out;
  EXPECT_FALSE(contains(r.out, "\xc2\x9b")) << r.out;  // C1 CSI
  EXPECT_TRUE(contains(r.out, "He\\e]0;title\\x07\\e[2Jad\\u009b")) << r.out;
}

TEST(ConsoleCli, ProgressLineNeverGluesOntoALogLineOnATerminal) {
  if (!fs::exists("/usr/bin/script")) GTEST_SKIP() << "script(1) (util-linux) not installed: no pseudo-terminal";
  test::TempDir dir;
  for (const char* name : {"a", "b", "c"}) test::copy_walk(dir / "in" / (std::string(name) + ".bvh"));
  std::string shown = run_on_pty(dir, "NO_COLOR=1 '" + std::string(FOOTFIX_EXE) + "' clean '" +
                                          (dir / "in").string() + "' -o '" + (dir / "out").string() + "' -j 2");
  ASSERT_TRUE(contains(shown, "[1/3]")) << shown;  // a progress line was drawn
  for (const char* label : {"info: ", "warning: "}) {
    for (size_t at = shown.find(label); at != std::string::npos; at = shown.find(label, at + 1)) {
      bool line_start = at == 0 || shown[at - 1] == '\n' || (at >= 4 && shown.compare(at - 4, 4, "\r\x1b[K") == 0);
      EXPECT_TRUE(line_start) << "glued: ..." << shown.substr(at >= 20 ? at - 20 : 0, 40);
    }
  }
  EXPECT_FALSE(contains(shown, "\x1b[3")) << "colour despite NO_COLOR";
  std::string coloured = run_on_pty(dir, "'" + std::string(FOOTFIX_EXE) + "' --color always inspect '" +
                                             (dir / "missing.bvh").string() + "'");
  EXPECT_TRUE(contains(coloured, "\x1b[1;31merror:")) << coloured;
}

TEST(ConsoleCli, QuietPrintsOnlyErrorsOnEveryCommand) {
  test::TempDir dir;
  std::string walk = test::copy_walk(dir / "walk.bvh");
  for (std::vector<std::string> args : {std::vector<std::string>{"annotate", walk, "-q", "-o", (dir / "a").string()},
                                        std::vector<std::string>{"clean", walk, "-q", "-o", (dir / "c").string()},
                                        std::vector<std::string>{"-q", "convert", walk, (dir / "v.bvh").string()}}) {
    auto r = run_footfix_bounded(args);
    EXPECT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
    EXPECT_EQ(r.err, "") << args[0];
  }
  for (std::vector<std::string> args : {std::vector<std::string>{"inspect", walk, "-v"},
                                        std::vector<std::string>{"annotate", walk, "-v", "-o", (dir / "x").string()}}) {
    auto r = run_footfix_bounded(args);
    EXPECT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
  }
  auto verbose = run_footfix_bounded({"clean", walk, "-v", "-o", (dir / "v").string()});
  EXPECT_TRUE(contains(verbose.err, "info: cleaned")) << verbose.err;  // -v adds, never removes
  EXPECT_TRUE(contains(verbose.err, "debug: ")) << verbose.err;
}

TEST(ConsoleCli, TyposGetHelpAndEveryErrorLineStartsWithError) {
  auto r = run_footfix_bounded({"claen", "x.bvh"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "error: unknown command 'claen'; did you mean 'clean'?")) << r.err;
  r = run_footfix_bounded({"clean", "--ouput", "x", "y.bvh"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "did you mean --output?")) << r.err;
  std::istringstream lines(r.err);
  for (std::string line; std::getline(lines, line);) EXPECT_EQ(line.rfind("error: ", 0), 0u) << line;
  r = run_footfix_bounded({"help", "clean"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "Usage: footfix clean")) << r.out;
  EXPECT_TRUE(contains(r.out, "Examples:")) << r.out;
  EXPECT_TRUE(contains(r.out, "default: 0.0833]")) << r.out;
  EXPECT_TRUE(contains(r.out, "--jobs INT:INT in [1 - 256]=1")) << r.out;
  for (const char* flag : {"--version", "-V"}) {
    r = run_footfix_bounded({flag});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.out, std::string("footfix ") + FOOTFIX_VERSION + "\n");
  }
}

TEST(ConsoleCli, UnitScaleTakesUnitNamesAndRejectsZero) {
  test::TempDir dir;
  std::string walk = test::copy_walk(dir / "walk.bvh");
  auto r = run_footfix_bounded({"inspect", walk, "--unit-scale", "cm"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "0.01 m per unit (cm)")) << r.out;
  r = run_footfix_bounded({"inspect", walk, "--unit-scale", "0"});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(contains(r.err, "error: --unit-scale must be a unit")) << r.err;
}

TEST(ConsoleCli, InPlaceIsADeprecatedHiddenAliasOfOverwrite) {
  test::TempDir dir;
  std::string walk = test::copy_walk(dir / "walk.bvh");
  auto help = run_footfix_bounded({"clean", "--help"});
  EXPECT_TRUE(contains(help.out, "--overwrite")) << help.out;
  EXPECT_FALSE(contains(help.out, "--in-place")) << help.out;
  auto r = run_footfix_bounded({"clean", walk, "--in-place"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "warning: --in-place is deprecated: use --overwrite")) << r.err;
  EXPECT_FALSE(fs::exists(dir / "walk.clean.bvh"));
  EXPECT_TRUE(fs::exists(dir / "walk.contacts.json"));
}

}  // namespace
}  // namespace footfix
