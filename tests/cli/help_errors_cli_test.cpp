// Errors and help through the real binary: the command list names every command, a mistyped or
// unknown option gets one line, a bad --max-slide a clear range error, `help report merge` the
// subcommand's help, each command its own examples, and walk offers no clip-reading option it
// would ignore.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/cli_test_helpers.h"

namespace footfix {
namespace {

using test::contains;
using test::run_footfix_bounded;

size_t line_count(const std::string& text) {
  size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

constexpr const char* k_commands = "inspect, convert, annotate, clean, metrics, walk, lock, compare, report";

TEST(HelpErrorsCli, CommandListNamesEveryCommand) {
  auto bare = run_footfix_bounded({});
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_EQ(bare.err, std::string("error: a command is required: ") + k_commands + " (footfix help COMMAND)\n");
  auto typo = run_footfix_bounded({"claen", "x.bvh"});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_EQ(typo.err, std::string("error: unknown command 'claen'; did you mean 'clean'? (commands: ") + k_commands + ")\n");
}

TEST(HelpErrorsCli, AnOptionErrorIsOneLine) {
  auto r = run_footfix_bounded({"clean", "--ouput", "x", "y.bvh"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: unknown option '--ouput'; did you mean --output? (footfix help clean lists the options)\n");
  r = run_footfix_bounded({"clean", "y.bvh", "--max-slide", "-1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: --max-slide: must be a positive number of cm/s, got '-1' (footfix help clean lists the options)\n");
  r = run_footfix_bounded({"report", "r.json", "--junit", "j.xml", "--max-slide", "0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "--max-slide: must be a positive number of cm/s, got '0'")) << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
}

TEST(HelpErrorsCli, EachCommandHasItsOwnExamples) {
  for (const char* command : {"inspect", "convert", "annotate", "clean", "metrics", "walk", "lock", "compare", "report"}) {
    auto r = run_footfix_bounded({"help", command});
    EXPECT_EQ(r.exit_code, 0) << command << ": " << r.err;
    const std::string examples = r.out.substr(r.out.find("Examples:"));
    EXPECT_TRUE(contains(examples, std::string("  footfix ") + command + " ")) << command << ":\n" << examples;
    size_t at = 0;
    for (; (at = examples.find("  footfix ", at)) != std::string::npos; at += 10)
      EXPECT_EQ(examples.compare(at + 10, std::string(command).size(), command), 0) << command << ":\n" << examples;
  }
  auto merge = run_footfix_bounded({"help", "report", "merge"});
  EXPECT_EQ(merge.exit_code, 0) << merge.err;
  EXPECT_TRUE(contains(merge.out, "Usage: footfix report merge")) << merge.out;
  EXPECT_TRUE(contains(merge.out, "  footfix report merge shard-")) << merge.out;
}

TEST(HelpErrorsCli, WalkOffersNoOptionItWouldIgnore) {
  auto help = run_footfix_bounded({"walk", "--help"});
  for (const char* option : {"--unit-scale", "--up ", "--rig", "--take"})
    EXPECT_FALSE(contains(help.out, option)) << option;
  EXPECT_TRUE(contains(help.out, "--max-memory")) << help.out;
  test::TempDir dir;
  auto r = run_footfix_bounded({"walk", "--unit-scale", "cm", "-o", (dir / "w.bvh").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: unknown option '--unit-scale' (footfix help walk lists the options)\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "w.bvh"));
}

}  // namespace
}  // namespace footfix
