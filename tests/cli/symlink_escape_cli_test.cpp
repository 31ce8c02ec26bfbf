// A symlinked clip must not move an output out of -o, nor get its target overwritten: mirrored
// paths are lexical, folder walks do not follow file symlinks leaving the input folder, and the
// overwrite guard sees through symlinks even when the output folder does not exist yet.
#include <gtest/gtest.h>

#include "cli/cli_test_helpers.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::run_footfix_bounded;

/// clips/ok.bvh, clips/evil.bvh -> ../lib/hero.bvh, lib/hero.bvh.
void make_escape_tree(const test::TempDir& dir) {
  test::copy_walk(dir / "lib" / "hero.bvh");
  test::copy_walk(dir / "clips" / "ok.bvh");
  fs::create_symlink("../lib/hero.bvh", dir / "clips" / "evil.bvh");
}

TEST(SymlinkEscapeCli, FolderWalkSkipsASymlinkLeavingTheInputFolder) {
  test::TempDir dir;
  make_escape_tree(dir);
  const std::string hero = read_file(dir / "lib" / "hero.bvh");
  for (const char* command : {"clean", "annotate"}) {
    fs::path out = dir / (std::string("out_") + command);
    auto r = run_footfix_bounded({command, (dir / "clips").string(), "-o", out.string()});
    EXPECT_EQ(r.exit_code, 0) << command << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "evil.bvh: skipped: a symlink")) << r.err;
    EXPECT_TRUE(fs::exists(out / "ok.contacts.json")) << command;
    EXPECT_FALSE(fs::exists(out / "evil.contacts.json")) << command;
  }
  EXPECT_EQ(read_file(dir / "lib" / "hero.bvh"), hero);
  EXPECT_EQ(fs::directory_iterator(dir / "lib")->path().filename(), "hero.bvh");
  EXPECT_FALSE(fs::exists(dir / "lib" / "hero.contacts.json"));
}

TEST(SymlinkEscapeCli, FollowSymlinksWritesUnderOutputOnly) {
  test::TempDir dir;
  make_escape_tree(dir);
  const std::string hero = read_file(dir / "lib" / "hero.bvh");
  auto r = run_footfix_bounded({"clean", (dir / "clips").string(), "-o", (dir / "out").string(), "--follow-symlinks"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(dir / "out" / "evil.bvh"))) << r.err;
  EXPECT_TRUE(fs::exists(dir / "out" / "evil.contacts.json"));
  EXPECT_FALSE(contains(r.err, "../") || contains(r.err, "/..")) << r.err;  // no path climbs out
  EXPECT_EQ(read_file(dir / "lib" / "hero.bvh"), hero);
  EXPECT_FALSE(fs::exists(dir / "lib" / "hero.contacts.json"));
}

TEST(SymlinkEscapeCli, OverwriteGuardSeesThroughSymlinksAndMissingFolders) {
  test::TempDir dir;
  std::string hero = test::copy_walk(dir / "lib" / "hero.bvh");
  const std::string before = read_file(hero);
  fs::create_directory_symlink("lib", dir / "outlink");
  // The output folder is a symlink to the input's folder.
  auto r = run_footfix_bounded({"clean", hero, "-o", (dir / "outlink").string() + "/"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "refusing to overwrite the input")) << r.err;
  // The output path goes through a folder that does not exist yet and back.
  r = run_footfix_bounded({"clean", hero, "-o", (dir / "new" / ".." / "lib" / "hero.bvh").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "refusing to overwrite the input")) << r.err;
  EXPECT_FALSE(fs::exists(dir / "new"));
  // The output file is a symlink to the input.
  fs::create_directories(dir / "out");
  fs::create_symlink(fs::absolute(hero), dir / "out" / "hero.bvh");
  r = run_footfix_bounded({"clean", hero, "-o", (dir / "out").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(read_file(hero), before);
  EXPECT_FALSE(fs::exists(dir / "lib" / "hero.contacts.json"));
}

}  // namespace
}  // namespace footfix
