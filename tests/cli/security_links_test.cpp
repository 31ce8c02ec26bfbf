// Security round 2: links a contributor commits next to footfix's files.
// - high 2: a `<report>.journal` link must not have its target truncated (nor the link removed);
//   a directory link inside -o must not carry a clip's outputs outside -o;
// - medium 4: replacing an output that is a link copies nothing from its target (no setuid bit,
//   no owner);
// - high 5: --incremental hashes a clip through the same checks as reading it (a link to
//   /dev/zero is refused, not read forever).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/run_footfix.h"
#include "support/paths.h"
#include "support/security_checks.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

TEST(SecurityLinks, ReportJournalLinkIsNotFollowed) {
  TempDir dir;
  write_bytes(dir / "victim.txt", "keep me\n");
  fs::create_symlink(dir / "victim.txt", dir / "r.json.journal");
  LimitedRun r = run_footfix_limited({"clean", data_clip("cmu_07_01_walk.bvh").string(), "-o",
                                      (dir / "out").string() + "/", "--report", (dir / "r.json").string()});
  expect_bounded(r, 300);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_bytes(dir / "victim.txt"), "keep me\n");
  EXPECT_TRUE(fs::is_symlink(dir / "r.json.journal")) << "footfix removed a link it did not create";
  EXPECT_NE(r.err.find("journal"), std::string::npos) << "the skipped journal is not reported: " << r.err;
  EXPECT_TRUE(fs::exists(dir / "r.json"));
}

TEST(SecurityLinks, DirectoryLinkInsideOutputIsRefused) {
  TempDir dir;
  fs::create_directories(dir / "tree" / "sub");
  fs::create_directories(dir / "tree" / "ok");
  fs::create_directories(dir / "outside");
  fs::copy_file(data_clip("cmu_07_01_walk.bvh"), dir / "tree" / "sub" / "walk.bvh");
  fs::copy_file(data_clip("cmu_07_01_walk.bvh"), dir / "tree" / "ok" / "walk.bvh");
  // -o inside the input tree (allowed), holding a committed link `sub -> ../../outside`.
  fs::create_directories(dir / "tree" / "out");
  fs::create_directory_symlink(dir / "outside", dir / "tree" / "out" / "sub");
  LimitedRun r = run_footfix_limited({"clean", (dir / "tree").string(), "-o", (dir / "tree" / "out").string()});
  expect_bounded(r, 400);
  EXPECT_EQ(r.exit_code, 5) << r.err;  // the clip behind the link fails as a write error
  EXPECT_TRUE(fs::is_empty(dir / "outside")) << "an output was written outside -o through a link";
  EXPECT_TRUE(fs::exists(dir / "tree" / "out" / "ok" / "walk.bvh")) << "the other clip was not cleaned";
  EXPECT_NE(r.err.find("symbolic link"), std::string::npos) << r.err;
}

TEST(SecurityLinks, ReplacedLinkCopiesNoModeOrOwner) {
  TempDir dir;
  fs::copy_file(data_clip("cmu_07_01_walk.bvh"), dir / "walk.bvh");
  write_bytes(dir / "target", "setuid program\n");
  ASSERT_EQ(::chmod((dir / "target").c_str(), 04755), 0);
  fs::create_symlink(dir / "target", dir / "walk.clean.bvh");
  LimitedRun r = run_footfix_limited({"clean", (dir / "walk.bvh").string(), "-q"});
  expect_bounded(r, 300);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  struct stat st {};
  ASSERT_EQ(::lstat((dir / "walk.clean.bvh").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode)) << "the output is still the link";
  EXPECT_EQ(st.st_mode & 07000, 0u) << "setuid/setgid copied from the link's target";
  EXPECT_EQ(st.st_uid, ::geteuid());
  EXPECT_EQ(read_bytes(dir / "target"), "setuid program\n");
}

TEST(SecurityLinks, IncrementalRefusesALinkToDevZero) {
  TempDir dir;
  fs::create_directories(dir / "in");
  fs::copy_file(data_clip("cmu_07_01_walk.bvh"), dir / "in" / "walk.bvh");
  fs::create_symlink("/dev/zero", dir / "in" / "zero.bvh");
  LimitedRunOptions options;
  options.bound = std::chrono::seconds(20);
  LimitedRun r = run_footfix_limited({"clean", (dir / "in" / "walk.bvh").string(), (dir / "in" / "zero.bvh").string(),
                                      "-o", (dir / "out").string() + "/", "--incremental"},
                                     options);
  expect_bounded(r, 300);
  EXPECT_EQ(r.exit_code, 3) << r.err;  // the link fails as a read error, the walk is cleaned
  EXPECT_TRUE(fs::exists(dir / "out" / "walk.bvh"));
}

}  // namespace
}  // namespace footfix::test
