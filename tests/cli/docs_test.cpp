// docs/cli.md and docs/footfix.1 are generated from the same definitions as --help
// (`footfix docs`, `footfix docs --man`): they must match what the built program prints.
#include <gtest/gtest.h>

#include "footfix/files/atomic_file.h"
#include "support/run_cli.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;

void expect_generated(const std::string& args, const std::string& file) {
  auto r = test::run_footfix(args);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  fs::path path = fs::path(FOOTFIX_DOCS_DIR) / file;
  ASSERT_TRUE(fs::exists(path)) << path;
  EXPECT_TRUE(read_file(path) == r.output)
      << "docs/" << file << " is out of date: regenerate it with `build/footfix " << args << " > docs/" << file << "`";
}

TEST(CliDocs, MarkdownReferenceMatchesHelp) {
  expect_generated("docs", "cli.md");
  // It is the help text: every command's --help appears in it verbatim.
  auto clean_help = test::run_footfix("clean --help");
  ASSERT_EQ(clean_help.exit_code, 0);
  EXPECT_NE(read_file(fs::path(FOOTFIX_DOCS_DIR) / "cli.md").find(clean_help.output), std::string::npos);
}

TEST(CliDocs, ManPageMatchesHelp) { expect_generated("docs --man", "footfix.1"); }

}  // namespace
}  // namespace footfix
