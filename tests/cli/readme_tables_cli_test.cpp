// The README's command and exit-code tables are true: every command in the table is a command of
// the binary and the other way round, the exit codes match `footfix --help`, and each code but 70
// (tests/unit/batch_runner_test.cpp) is produced by the real binary as the table says.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "cli/cli_test_helpers.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using test::run_footfix_bounded;

std::string readme() { return read_file(fs::path(FOOTFIX_DATA_DIR).parent_path() / "README.md"); }

bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// The run of characters satisfying `keep` at `at` in `s` (empty when there is none).
template <class Keep>
std::string run_at(const std::string& s, size_t at, Keep keep) {
  size_t end = at;
  while (end < s.size() && keep(s[end])) ++end;
  return s.substr(at, end - at);
}

/// For each line of `text` that starts with `prefix`: the run of characters satisfying `keep`
/// right after it, where that run is followed by `after` (e.g. " |").
template <class Keep>
std::set<std::string> line_words(const std::string& text, const std::string& prefix, Keep keep, const std::string& after) {
  std::set<std::string> found;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    const std::string word = run_at(line, prefix.size(), keep);
    if (!word.empty() && line.compare(prefix.size() + word.size(), after.size(), after) == 0) found.insert(word);
  }
  return found;
}

TEST(ReadmeTables, CommandsTableMatchesHelp) {
  std::set<std::string> documented = line_words(readme(), "| `footfix ", is_lower, "");
  documented.erase("help");  // `help` is handled before the commands; checked below
  auto help = run_footfix_bounded({"--help"});
  ASSERT_EQ(help.exit_code, 0);
  // "  clean    Cleans ...": a lower-case word after two spaces, then spaces and a capital.
  std::set<std::string> commands;
  std::istringstream help_lines(help.out);
  for (std::string line; std::getline(help_lines, line);) {
    if (line.rfind("  ", 0) != 0) continue;
    const std::string word = run_at(line, 2, is_lower);
    const size_t next = line.find_first_not_of(' ', 2 + word.size());
    if (!word.empty() && next > 2 + word.size() && next != std::string::npos && line[next] >= 'A' && line[next] <= 'Z')
      commands.insert(word);
  }
  EXPECT_GE(commands.size(), 9u) << help.out;  // the parse found the command list
  EXPECT_EQ(documented, commands) << help.out;
  for (const auto& command : commands) {
    auto r = run_footfix_bounded({"help", command});
    EXPECT_EQ(r.exit_code, 0) << command;
    EXPECT_NE(r.out.find("Usage: footfix " + command), std::string::npos) << r.out;
  }
}

TEST(ReadmeTables, ExitCodesTableMatchesHelpAndTheBinary) {
  std::set<std::string> documented = line_words(readme(), "| ", is_digit, " |");
  EXPECT_EQ(documented, (std::set<std::string>{"0", "2", "3", "4", "5", "6", "70"}));
  auto help = run_footfix_bounded({"--help"});
  const size_t exit_codes = help.out.find("Exit codes: ");
  ASSERT_NE(exit_codes, std::string::npos) << help.out;
  ASSERT_EQ(help.out.find("Exit codes: ", exit_codes + 1), std::string::npos) << help.out;
  const std::string listed = help.out.substr(exit_codes, help.out.find('\n', exit_codes) - exit_codes);
  // Each "N word" in the line: a number followed by a space and a lower-case letter.
  std::set<std::string> help_codes;
  for (size_t at = 0; at < listed.size(); ++at) {
    if (!is_digit(listed[at]) || (at > 0 && is_digit(listed[at - 1]))) continue;
    const std::string code = run_at(listed, at, is_digit);
    const size_t next = at + code.size();
    if (next + 1 < listed.size() && listed[next] == ' ' && is_lower(listed[next + 1])) help_codes.insert(code);
  }
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
