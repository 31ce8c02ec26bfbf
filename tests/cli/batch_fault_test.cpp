// Batch faults through the real `footfix` binary, for every batch command that has landed
// (annotate; clean to follow): a bad clip among good ones, unusable output directories,
// idempotent re-runs and outputs that stay whole when the process is killed.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "cli/run_footfix.h"
#include "footfix/io/atomic_file.h"
#include "footfix/io/clip_io.h"
#include "support/paths.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

const auto k_bound = std::chrono::seconds(120);

fs::path bad(const std::string& name) { return fs::path(FOOTFIX_TESTS_DIR) / "data" / "bad" / name; }

// in/good_a.bvh, in/sub/bad.bvh (truncated motion), in/sub/good_b.bvh.
void make_inputs(const TempDir& dir) {
  fs::create_directories(dir / "in" / "sub");
  fs::copy_file(data_clip("cmu_07_01_walk.bvh"), dir / "in" / "good_a.bvh");
  fs::copy_file(bad("truncated_motion.bvh"), dir / "in" / "sub" / "bad.bvh");
  fs::copy_file(data_clip("cmu_01_01_hops_turnaround.bvh"), dir / "in" / "sub" / "good_b.bvh");
}

std::map<std::string, std::string> contents(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) out[fs::relative(e.path(), root).string()] = read_file(e.path());
  return out;
}

TEST(AnnotateBatchFault, BadClipAmongGoodOnesIsNamedAndTheRestWritten) {
  TempDir dir;
  make_inputs(dir);
  RunResult r = run_footfix({"annotate", "-q", (dir / "in").string(), "-o", (dir / "out").string()}, k_bound);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 3) << r.err;  // the bad clip's read error
  EXPECT_NE(r.err.find("3 clips: 2 annotated, 1 failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("failed: " + (dir / "in" / "sub" / "bad.bvh").string() + ":"), std::string::npos) << r.err;
  auto written = contents(dir / "out");
  ASSERT_EQ(written.size(), 2u) << r.err;
  for (const char* name : {"good_a.contacts.json", "sub/good_b.contacts.json"}) {
    ASSERT_TRUE(written.count(name)) << name;
    auto doc = nlohmann::json::parse(written[name]);
    EXPECT_EQ(doc["format"], "footfix-contacts");
    EXPECT_GT(doc["clip"]["frames"].get<int>(), 100);
  }
}

TEST(AnnotateBatchFault, RerunGivesTheSameBytes) {
  TempDir dir;
  make_inputs(dir);
  const std::vector<std::string> args = {"annotate", "-q", (dir / "in").string(), "-o", (dir / "out").string(),
                                         "--jobs", "2"};
  RunResult first = run_footfix(args, k_bound);
  auto before = contents(dir / "out");
  RunResult second = run_footfix(args, k_bound);
  EXPECT_EQ(first.exit_code, second.exit_code);
  EXPECT_EQ(contents(dir / "out"), before);
  EXPECT_EQ(before.size(), 2u);
  // Writing next to the inputs: the outputs of the first run are not inputs of the second.
  RunResult beside1 = run_footfix({"annotate", "-q", (dir / "in" / "good_a.bvh").string()}, k_bound);
  auto beside = contents(dir / "in");
  RunResult beside2 = run_footfix({"annotate", "-q", (dir / "in" / "good_a.bvh").string()}, k_bound);
  EXPECT_EQ(beside2.exit_code, 0) << beside2.err;
  EXPECT_EQ(contents(dir / "in"), beside);
}

TEST(AnnotateBatchFault, MissingOutputDirectoryIsCreated) {
  TempDir dir;
  make_inputs(dir);
  RunResult r =
      run_footfix({"annotate", "-q", (dir / "in" / "good_a.bvh").string(), "-o", (dir / "x" / "y").string()}, k_bound);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(dir / "x" / "y" / "good_a.contacts.json"));
}

TEST(AnnotateBatchFault, OutputDirectoryThatIsAFileIsAClearError) {
  TempDir dir;
  make_inputs(dir);
  write_file_atomically(dir / "blocker", [](std::ostream& o) { o << "a file"; });
  RunResult r = run_footfix({"annotate", "-q", (dir / "in").string(), "-o", (dir / "blocker").string()}, k_bound);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find((dir / "blocker").string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cannot open for writing: Not a directory"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("3 clips: 0 annotated, 3 failed"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(dir / "blocker"), "a file");
}

TEST(AnnotateBatchFault, ReadOnlyOutputDirectoryIsAClearError) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: permissions do not stop writes";
  TempDir dir;
  make_inputs(dir);
  fs::create_directory(dir / "ro");
  fs::permissions(dir / "ro", fs::perms::owner_read | fs::perms::owner_exec);
  RunResult r = run_footfix({"annotate", "-q", (dir / "in").string(), "-o", (dir / "ro").string()}, k_bound);
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find((dir / "ro").string()), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(dir / "ro"));
}

// Kills a batch at several points; every output left must be complete, and any temporary file
// left must be hidden and not a clip a later run would read.
TEST(AnnotateBatchFault, KilledRunLeavesOnlyWholeOutputs) {
  TempDir dir;
  fs::create_directories(dir / "in");
  for (int i = 0; i < 6; ++i)
    fs::copy_file(data_clip("cmu_01_01_hops_turnaround.bvh"), dir / "in" / ("clip" + std::to_string(i) + ".bvh"));
  int killed_with_outputs = 0;
  for (int delay_ms : {50, 150, 300, 600}) {
    fs::remove_all(dir / "out");
    int pid = spawn_footfix({"annotate", "-q", (dir / "in").string(), "-o", (dir / "out").string(), "--jobs", "2"});
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!fs::exists(dir / "out")) continue;
    for (const auto& [name, text] : contents(dir / "out")) {
      SCOPED_TRACE(name);
      const std::string file = fs::path(name).filename().string();
      if (file[0] == '.') {
        EXPECT_NE(file.find(".tmp-"), std::string::npos);
        EXPECT_FALSE(is_clip_path(name));
        continue;
      }
      ++killed_with_outputs;
      auto doc = nlohmann::json::parse(text, nullptr, false);
      ASSERT_FALSE(doc.is_discarded()) << "partial output";
      EXPECT_EQ(doc["feet"].size(), 2u);
    }
  }
  // Re-running after the kills completes the batch.
  RunResult r = run_footfix({"annotate", "-q", (dir / "in").string(), "-o", (dir / "out").string()}, k_bound);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  int outputs = 0;
  for (const auto& [name, text] : contents(dir / "out")) outputs += name.find(".contacts.json") != std::string::npos && name[0] != '.';
  EXPECT_EQ(outputs, 6);
  RecordProperty("outputs_seen_after_kills", killed_with_outputs);
}

}  // namespace
}  // namespace footfix::test
