// Batch faults through the real `footfix` binary, for each batch command (annotate, clean): a bad
// clip among good ones, unusable output directories, idempotent re-runs and outputs that stay
// whole when the process is killed.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "cli/run_footfix.h"
#include "footfix/files/atomic_file.h"
#include "footfix/bvh/bvh.h"
#include "footfix/pipeline/load_clip.h"
#include "support/paths.h"
#include "support/unnamed_files.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

const auto k_batch_bound = std::chrono::seconds(120);

// A batch command and the outputs it writes per clip (suffixes replacing ".bvh").
struct BatchCommand {
  const char* name;
  const char* verb;  ///< in the summary line "N clips: M <verb>, K failed"
  std::vector<std::string> outputs;
};

const BatchCommand k_commands[] = {
    {"annotate", "annotated", {".contacts.json"}},
    {"clean", "cleaned", {".bvh", ".contacts.json"}},
};

std::string command_name(const testing::TestParamInfo<BatchCommand>& info) { return info.param.name; }

// The outputs `command` writes for the clips `stems` (relative paths without ".bvh"), sorted.
std::vector<std::string> expected_outputs(const BatchCommand& command, const std::vector<std::string>& stems) {
  std::vector<std::string> out;
  for (const auto& stem : stems)
    for (const auto& suffix : command.outputs) out.push_back(stem + suffix);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> names(const std::map<std::string, std::string>& files) {
  std::vector<std::string> out;
  for (const auto& [name, text] : files) out.push_back(name);
  return out;
}

// Checks that a written output is whole: contacts parse as JSON with two feet, clips as BVH.
void expect_whole(const std::string& name, const std::string& text) {
  SCOPED_TRACE(name);
  if (name.size() > 5 && name.substr(name.size() - 5) == ".json") {
    auto doc = nlohmann::json::parse(text, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << "partial output";
    EXPECT_EQ(doc["feet"].size(), 2u);
  } else {
    EXPECT_NO_THROW(parse_bvh(text, name)) << "partial output";
  }
}

class BatchFault : public testing::TestWithParam<BatchCommand> {
 protected:
  std::vector<std::string> args(std::initializer_list<std::string> rest) const {
    std::vector<std::string> a = {GetParam().name};
    a.insert(a.end(), rest);
    return a;
  }
};

fs::path bad(const std::string& name) { return fs::path(FOOTFIX_TESTS_DIR) / "data" / "bad" / name; }

// in/good_a.bvh, in/sub/bad.bvh (a bad number), in/sub/good_b.bvh.
void make_inputs(const TempDir& dir) {
  fs::create_directories(dir / "in" / "sub");
  fs::copy_file(data_clip("cmu_07_01_walk.bvh"), dir / "in" / "good_a.bvh");
  fs::copy_file(bad("bad_number.bvh"), dir / "in" / "sub" / "bad.bvh");
  fs::copy_file(data_clip("cmu_01_01_hops_turnaround.bvh"), dir / "in" / "sub" / "good_b.bvh");
}

std::map<std::string, std::string> contents(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) out[fs::relative(e.path(), root).string()] = read_file(e.path());
  return out;
}

TEST_P(BatchFault, BadClipAmongGoodOnesIsNamedAndTheRestWritten) {
  TempDir dir;
  make_inputs(dir);
  BoundedRun r = run_footfix_bounded(args({(dir / "in").string(), "-o", (dir / "out").string()}), k_batch_bound);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 3) << r.err;  // the bad clip's read error
  EXPECT_NE(r.err.find(std::string("3 clips: 2 ") + GetParam().verb + ", 1 failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("failed: " + (dir / "in" / "sub" / "bad.bvh").string() + ":"), std::string::npos) << r.err;
  auto written = contents(dir / "out");
  EXPECT_EQ(names(written), expected_outputs(GetParam(), {"good_a", "sub/good_b"})) << r.err;
  for (const auto& [name, text] : written) expect_whole(name, text);
}

TEST_P(BatchFault, RerunGivesTheSameBytes) {
  TempDir dir;
  make_inputs(dir);
  const auto batch = args({(dir / "in").string(), "-o", (dir / "out").string(), "--jobs", "2"});
  BoundedRun first = run_footfix_bounded(batch, k_batch_bound);
  auto before = contents(dir / "out");
  BoundedRun second = run_footfix_bounded(batch, k_batch_bound);
  EXPECT_EQ(first.exit_code, second.exit_code);
  EXPECT_EQ(contents(dir / "out"), before);
  EXPECT_EQ(names(before), expected_outputs(GetParam(), {"good_a", "sub/good_b"}));
}

TEST_P(BatchFault, RerunWithOutputInsideTheInputsIgnoresEarlierOutputs) {
  TempDir dir;
  make_inputs(dir);
  fs::remove(dir / "in" / "sub" / "bad.bvh");
  const auto batch = args({(dir / "in").string(), "-o", (dir / "in" / "out").string()});
  BoundedRun first = run_footfix_bounded(batch, k_batch_bound);
  EXPECT_EQ(first.exit_code, 0) << first.err;
  auto before = contents(dir / "in");
  BoundedRun second = run_footfix_bounded(batch, k_batch_bound);
  EXPECT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(contents(dir / "in"), before);
  EXPECT_EQ(names(contents(dir / "in" / "out")), expected_outputs(GetParam(), {"good_a", "sub/good_b"}));
}

TEST_P(BatchFault, MissingOutputDirectoryIsCreated) {
  TempDir dir;
  make_inputs(dir);
  BoundedRun r = run_footfix_bounded(args({(dir / "in" / "good_a.bvh").string(), "-o", (dir / "x" / "y").string()}), k_batch_bound);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(names(contents(dir / "x")), expected_outputs(GetParam(), {"y/good_a"}));
}

TEST_P(BatchFault, OutputDirectoryThatIsAFileIsAClearError) {
  TempDir dir;
  make_inputs(dir);
  write_file_atomically(dir / "blocker", [](std::ostream& o) { o << "a file"; });
  BoundedRun r = run_footfix_bounded(args({(dir / "in").string(), "-o", (dir / "blocker").string()}), k_batch_bound);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find((dir / "blocker").string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cannot open for writing: Not a directory"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(std::string("3 clips: 0 ") + GetParam().verb + ", 3 failed"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(dir / "blocker"), "a file");
}

TEST_P(BatchFault, ReadOnlyOutputDirectoryIsAClearError) {
  const bool root = ::geteuid() == 0;
  if (root && !can_run_unprivileged()) GTEST_SKIP() << "running as root and user nobody cannot run footfix on the test data here: permissions do not stop root";
  TempDir dir;
  make_inputs(dir);
  fs::create_directory(dir / "ro");
  fs::permissions(dir / "ro", fs::perms::owner_read | fs::perms::owner_exec | fs::perms::others_read |
                                  fs::perms::others_exec);
  const auto batch = args({(dir / "in").string(), "-o", (dir / "ro").string()});
  BoundedRun r = root ? run_footfix_unprivileged(batch, k_batch_bound) : run_footfix_bounded(batch, k_batch_bound);
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find((dir / "ro").string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cannot open for writing: Permission denied"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(std::string("3 clips: 0 ") + GetParam().verb + ", 3 failed"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(dir / "ro"));
}

bool is_temporary(const std::string& file) {
  return file.rfind(".footfix-", 0) == 0 && file.size() > 4 && file.compare(file.size() - 4, 4, ".tmp") == 0;
}

// Kills a batch at three exact points (FOOTFIX_TEST_STOP_AT): while the first output of clip2 is
// written but not renamed, right after it is renamed into place, and while clip4's is written
// with earlier outputs done. Every output left must be whole, and any temporary file left must be
// hidden and not a clip a later run would read.
TEST_P(BatchFault, KilledRunLeavesOnlyWholeOutputs) {
  TempDir dir;
  fs::create_directories(dir / "in");
  for (int i = 0; i < 6; ++i)
    fs::copy_file(data_clip("cmu_01_01_hops_turnaround.bvh"), dir / "in" / ("clip" + std::to_string(i) + ".bvh"));
  const std::string clip2 = expected_outputs(GetParam(), {"clip2"}).front();
  const std::string clip4 = expected_outputs(GetParam(), {"clip4"}).front();
  const std::vector<std::string> moments{"written:" + clip2, "committed:" + clip2, "written:" + clip4};
  for (const std::string& moment : moments) {
    SCOPED_TRACE(moment);
    fs::remove_all(dir / "out");
    int pid = start_footfix(args({(dir / "in").string(), "-o", (dir / "out").string(), "--jobs", "2"}),
                            {"FOOTFIX_TEST_STOP_AT=" + moment});
    const bool stopped = wait_until_stopped(pid);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    ASSERT_TRUE(stopped) << "the run never reached that point";
    const auto left = contents(dir / "out");
    int temporaries = 0;
    for (const auto& [name, text] : left) {
      SCOPED_TRACE(name);
      const std::string file = fs::path(name).filename().string();
      if (file[0] == '.') {
        ++temporaries;
        EXPECT_TRUE(is_temporary(file));
        EXPECT_FALSE(is_clip_path(name));
        continue;
      }
      expect_whole(name, text);
    }
    if (moment.rfind("written:", 0) == 0) {
      // Unnamed temporary files (O_TMPFILE) vanish with the process; named ones stay, hidden,
      // until a later run removes them.
      if (has_unnamed_files(dir / "out")) EXPECT_EQ(temporaries, 0) << "a killed run left a temporary file";
      else EXPECT_GE(temporaries, 1) << "killed while writing, yet no temporary file";
      EXPECT_EQ(left.count(moment.substr(8)), 0u) << "the output being written is already in place";
    } else {
      EXPECT_EQ(left.count(clip2), 1u) << "the output renamed into place is missing";
    }
  }
  // Re-running after the kills completes the batch.
  BoundedRun r = run_footfix_bounded(args({(dir / "in").string(), "-o", (dir / "out").string()}), k_batch_bound);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> outputs;
  for (const auto& [name, text] : contents(dir / "out"))
    if (name[0] != '.') outputs.push_back(name);
  EXPECT_EQ(outputs, expected_outputs(GetParam(), {"clip0", "clip1", "clip2", "clip3", "clip4", "clip5"}));
}

INSTANTIATE_TEST_SUITE_P(Commands, BatchFault, testing::ValuesIn(k_commands), command_name);

}  // namespace
}  // namespace footfix::test
