// The plan is checked before anything runs: collisions, no clips, unknown output extensions,
// --format conflicts. Nothing is written when the plan is refused.
#include <gtest/gtest.h>

#include "cli/cli_test_helpers.h"
#include "support/limited_run.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::run_footfix_bounded;

TEST(OutputPlanCli, TwoInputsMappingToOneClipOutputAreRefusedNamingBoth) {
  test::TempDir dir;
  std::string a = test::copy_walk(dir / "a" / "walk.bvh");
  std::string b = test::copy_walk(dir / "b" / "walk.bvh");
  auto r = run_footfix_bounded({"clean", a, b, "-o", (dir / "out").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "error: output collision")) << r.err;
  EXPECT_TRUE(contains(r.err, a) && contains(r.err, b)) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(OutputPlanCli, EveryCollisionIsNamed) {
  test::TempDir dir;
  std::vector<std::string> args{"clean"};
  for (const char* sub : {"a", "b", "c"}) {
    args.push_back(test::copy_walk(dir / sub / "walk.bvh"));
    args.push_back(test::copy_walk(dir / sub / "run.bvh"));
  }
  args.insert(args.end(), {"-o", (dir / "out").string(), "--dry-run"});
  auto r = run_footfix_bounded(args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  for (const char* both : {"a/walk.bvh and ", "a/run.bvh and "}) EXPECT_TRUE(contains(r.err, both)) << r.err;
  EXPECT_TRUE(contains(r.err, "problems in the output plan; nothing was written")) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(OutputPlanCli, TwoInputsMappingToOneContactsFileAreRefused) {
  test::TempDir dir;
  std::string bvh = test::copy_walk(dir / "in" / "walk.bvh");
  std::string fbx = test::write_text(dir / "in" / "walk.fbx", "not read: the plan is refused first");
  auto r = run_footfix_bounded({"clean", bvh, fbx, "-o", (dir / "out").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "walk.contacts.json")) << r.err;
  EXPECT_TRUE(contains(r.err, bvh) && contains(r.err, fbx)) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

// Security round 2, medium 1: a contributed file that collides with another found in a folder
// fails those clips only; the rest of the batch is cleaned and the exit code says write (5).
TEST(OutputPlanCli, ACollisionInsideAFolderFailsOnlyItsClips) {
  test::TempDir dir;
  test::copy_walk(dir / "in" / "walk.bvh");
  test::write_text(dir / "in" / "walk.fbx", "8 bytes!");
  test::copy_walk(dir / "in" / "other.bvh");
  auto r = run_footfix_bounded({"clean", (dir / "in").string(), "-o", (dir / "out").string()});
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_TRUE(contains(r.err, "output collision")) << r.err;
  EXPECT_TRUE(contains(r.err, "3 clips: 1 cleaned, 2 failed")) << r.err;
  EXPECT_TRUE(fs::exists(dir / "out" / "other.bvh"));
  EXPECT_FALSE(fs::exists(dir / "out" / "walk.bvh"));
  EXPECT_FALSE(fs::exists(dir / "out" / "walk.contacts.json"));
}

// Security round 2, medium 1: a folder nested deeper than the open-file limit (1,024) does not end
// the walk; the clips around it are cleaned.
TEST(OutputPlanCli, AVeryDeepFolderDoesNotStopTheWalk) {
  test::TempDir dir;
  test::copy_walk(dir / "in" / "a_walk.bvh");
  fs::path deep = dir / "in";
  for (int i = 0; i < 1100; ++i) ASSERT_TRUE(fs::create_directory(deep /= "d")) << i;
  test::LimitedRunOptions options;
  options.open_file_limit = 1024;  // the usual default
  auto r = test::run_footfix_limited({"clean", (dir / "in").string(), "-o", (dir / "out").string()}, options);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir / "out" / "a_walk.bvh")) << r.err;
}

TEST(OutputPlanCli, AnOutputOntoAnotherInputIsRefused) {
  test::TempDir dir;
  std::string walk = test::copy_walk(dir / "walk.bvh");
  std::string clean = test::copy_walk(dir / "walk.clean.bvh");
  const std::string before = read_file(clean);
  auto r = run_footfix_bounded({"clean", walk, clean});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "would overwrite the input")) << r.err;
  EXPECT_EQ(read_file(clean), before);
}

TEST(OutputPlanCli, TheReportIsNeverWrittenOverAnInput) {
  test::TempDir dir;
  std::string walk = test::copy_walk(dir / "walk.bvh");
  const std::string before = read_file(walk);
  auto r = run_footfix_bounded({"clean", walk, "-o", (dir / "out").string(), "--report", walk});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "refusing to write the report over an input")) << r.err;
  EXPECT_EQ(read_file(walk), before);
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(OutputPlanCli, ZeroClipsIsAReadErrorEvenUnderCheck) {
  test::TempDir dir;
  fs::create_directories(dir / "empty");
  test::write_text(dir / "empty" / "notes.txt", "no clips here\n");
  for (std::vector<std::string> extra : {std::vector<std::string>{}, std::vector<std::string>{"--check"}}) {
    std::vector<std::string> args{"clean", (dir / "empty").string(), "-o", (dir / "out").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = run_footfix_bounded(args);
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_TRUE(contains(r.err, "error: ") && contains(r.err, "no clips found")) << r.err;
    EXPECT_FALSE(contains(r.err, "check passed")) << r.err;
  }
  auto annotate = run_footfix_bounded({"annotate", (dir / "empty").string(), "-o", (dir / "out").string()});
  EXPECT_EQ(annotate.exit_code, 3) << annotate.err;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(OutputPlanCli, UnknownOutputExtensionIsAUsageErrorAndCreatesNothing) {
  test::TempDir dir;
  std::string walk = test::copy_walk(dir / "in" / "walk.bvh");
  for (const char* name : {"walk.clean.obj", "x.txt"}) {
    auto r = run_footfix_bounded({"clean", walk, "-o", (dir / "o" / name).string()});
    EXPECT_EQ(r.exit_code, 2) << name << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "unknown output extension")) << r.err;
  }
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"in", "in/walk.bvh"}));
}

TEST(OutputPlanCli, FormatConflictingWithTheOutputExtensionIsRefused) {
  test::TempDir dir;
  std::string walk = test::copy_walk(dir / "walk.bvh");
  auto r = run_footfix_bounded({"clean", walk, "--format", "bvh", "-o", (dir / "x.fbx").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "conflicts with --format bvh")) << r.err;
  EXPECT_FALSE(fs::exists(dir / "x.fbx"));
}

TEST(OutputPlanCli, ConvertRefusesUnknownAndUnsupportedOutputsBeforeReading) {
  test::TempDir dir;
  std::string walk = test::copy_walk(dir / "walk.bvh");
  auto r = run_footfix_bounded({"convert", walk, (dir / "o" / "walk.obj").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "unknown output extension '.obj'")) << r.err;
  r = run_footfix_bounded({"convert", walk, (dir / "o" / "walk.fbx").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "BVH to FBX is not supported")) << r.err;
  EXPECT_FALSE(fs::exists(dir / "o"));
  auto help = run_footfix_bounded({"convert", "--help"});
  EXPECT_TRUE(contains(help.out, "BVH to BVH, FBX to BVH, or FBX to FBX")) << help.out;
}

TEST(OutputPlanCli, DryRunPrintsThePlanAndWritesNothing) {
  test::TempDir dir;
  test::copy_walk(dir / "in" / "sub" / "walk.bvh");
  auto r = run_footfix_bounded({"clean", (dir / "in").string(), "-o", (dir / "out").string(), "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, (dir / "out" / "sub" / "walk.bvh").string())) << r.out;
  EXPECT_TRUE(contains(r.out, (dir / "out" / "sub" / "walk.contacts.json").string())) << r.out;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

// Issue 34: FBX is written by editing the FBX a clip was read from. A BVH input with an FBX
// output is refused while planning (usage, exit 2), before any clip is cleaned, by every command
// that writes clips, as `convert` refuses it.
TEST(OutputPlanCli, FbxOutputOfABvhInputIsRefusedBeforeAnythingRuns) {
  test::TempDir dir;
  const std::string walk = test::copy_walk(dir / "in" / "walk.bvh");
  const std::vector<std::vector<std::string>> commands{
      {"clean", walk, "-o", (dir / "o" / "x.fbx").string()},
      {"lock", walk, "-o", (dir / "o" / "x.fbx").string()},
      {"clean", walk, "--format", "fbx", "-o", (dir / "o").string() + "/"},
      {"clean", (dir / "in").string(), "--format", "fbx", "-o", (dir / "o").string()},
      {"lock", walk, "-o", (dir / "o" / "x.FBX").string()}};
  for (const auto& args : commands) {
    auto r = run_footfix_bounded(args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args[3] << "\n" << r.err;
    EXPECT_TRUE(contains(r.err, "FBX output needs an FBX input, and " + walk + " is not one")) << r.err;
    EXPECT_TRUE(contains(r.err, "BVH to FBX is not supported")) << r.err;
    EXPECT_FALSE(contains(r.err, "cleaned") || contains(r.err, "failed")) << r.err;
    EXPECT_FALSE(fs::exists(dir / "o")) << args[0];
  }
}

// Issue 34: a clean without -o writes walk.clean.bvh beside walk.bvh; a later run over the
// folder does not take it (or a lock's walk.locked.bvh) for a new clip, and says so in one note.
// Named on the command line, such a file is a clip like any other.
TEST(OutputPlanCli, FolderWalksSkipFootfixOutputsUnlessNamed) {
  test::TempDir dir;
  test::copy_walk(dir / "in" / "walk.bvh");
  const std::string cleaned = test::copy_walk(dir / "in" / "walk.clean.bvh");
  test::copy_walk(dir / "in" / "sub" / "walk.locked.BVH");
  auto r = run_footfix_bounded({"clean", (dir / "in").string(), "-o", (dir / "out").string(), "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, (dir / "out" / "walk.bvh").string())) << r.out;
  EXPECT_FALSE(contains(r.out, "walk.clean.bvh") || contains(r.out, "walk.locked")) << r.out;
  EXPECT_TRUE(contains(r.out, "1 clip planned")) << r.out;
  const std::string note = "info: " + (dir / "in").string() +
                           ": skipped 2 clips named as footfix's outputs (*.clean.*, *.locked.*); name them on the "
                           "command line to include them\n";
  EXPECT_EQ(r.err, note);

  r = run_footfix_bounded({"clean", cleaned, "-o", (dir / "out").string() + "/", "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, (dir / "out" / "walk.clean.bvh").string())) << r.out;
  EXPECT_EQ(r.err, "");
}

}  // namespace
}  // namespace footfix
