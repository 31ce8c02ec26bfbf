// The README's command and exit-code tables are true: every command in the table is a command of
// the binary and the other way round, the exit codes match `footfix --help`, and each code but 70
// (tests/unit/batch_runner_test.cpp) is produced by the real binary as the table says.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

#include "cli/cli_test_helpers.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using test::run_footfix_bounded;

std::string readme() { return read_file(fs::path(FOOTFIX_DATA_DIR).parent_path() / "README.md"); }

/// Captures of `pattern` matched at the start of each line of `text`.
std::set<std::string> line_captures(const std::string& text, const std::string& pattern) {
  std::set<std::string> found;
  std::istringstream lines(text);
  const std::regex re(pattern);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, re)) found.insert(m[1]);
  }
  return found;
}

TEST(ReadmeTables, CommandsTableMatchesHelp) {
  std::set<std::string> documented = line_captures(readme(), "^\\| `footfix ([a-z]+)");
  documented.erase("help");  // `help` is handled before the commands; checked below
  auto help = run_footfix_bounded({"--help"});
  ASSERT_EQ(help.exit_code, 0);
  std::set<std::string> commands = line_captures(help.out, "^  ([a-z]+) +[A-Z]");
  EXPECT_EQ(documented, commands) << help.out;
  for (const auto& command : commands) {
    auto r = run_footfix_bounded({"help", command});
    EXPECT_EQ(r.exit_code, 0) << command;
    EXPECT_NE(r.out.find("Usage: footfix " + command), std::string::npos) << r.out;
  }
}

TEST(ReadmeTables, ExitCodesTableMatchesHelpAndTheBinary) {
  std::set<std::string> documented = line_captures(readme(), "^\\| ([0-9]+) \\|");
  EXPECT_EQ(documented, (std::set<std::string>{"0", "2", "3", "4", "5", "6", "70"}));
  auto help = run_footfix_bounded({"--help"});
  std::set<std::string> in_help = line_captures(help.out, "Exit codes: (.*)");
  ASSERT_EQ(in_help.size(), 1u) << help.out;
  std::set<std::string> help_codes;
  std::string listed = *in_help.begin();
  for (std::smatch m; std::regex_search(listed, m, std::regex("([0-9]+) [a-z]")); listed = m.suffix()) help_codes.insert(m[1]);
  EXPECT_EQ(help_codes, documented) << help.out;

  test::TempDir dir;
  std::string walk = test::copy_walk(dir / "walk.bvh");
  std::string blocker = test::write_text(dir / "file", "a file where a folder is needed");
  const fs::path bad = fs::path(FOOTFIX_TESTS_DIR) / "data" / "bad";
  struct Case {
    int code;
    std::vector<std::string> args;
  };
  const Case cases[] = {
      {0, {"inspect", walk}},
      {2, {"clean", walk, "--no-such-option"}},
      {3, {"inspect", (dir / "missing.bvh").string()}},
      {3, {"inspect", (bad / "zero_frames.bvh").string()}},
      {4, {"clean", (bad / "single_leg.bvh").string(), "-o", (dir / "o4").string()}},
      {5, {"clean", walk, "-o", blocker + "/out/"}},
      {6, {"clean", walk, "-o", (dir / "o6").string(), "--check", "--max-slide", "0.001"}},
  };
  for (const Case& c : cases) {
    auto r = run_footfix_bounded(c.args, std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, c.code) << c.args[0] << " " << c.args[1] << ": " << r.err;
    if (c.code != 0) {
      EXPECT_TRUE(r.err.rfind("error: ", 0) == 0 || r.err.find("\nerror: ") != std::string::npos) << r.err;
    }
  }
}

TEST(ReadmeTables, TheReadmeExampleOutputIsIgnoredByGit) {
  const std::string ignore = read_file(fs::path(FOOTFIX_DATA_DIR).parent_path() / ".gitignore");
  EXPECT_NE(("\n" + ignore).find("\n/out/\n"), std::string::npos) << ignore;
  EXPECT_NE(readme().find("footfix clean data/clips/cmu_07_01_walk.bvh -o out/"), std::string::npos);
}

}  // namespace
}  // namespace footfix
