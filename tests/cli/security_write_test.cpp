// Finding 5 (temp files) and the write-side items: temp names are short (a 246-byte output name
// works), a replaced file keeps its mode, a killed run's temp files are removed by a later run,
// and a full disk fails each clip that cannot be written (exit 5, the OS reason, nothing partial
// left) while the batch goes on.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <thread>

#include "cli/run_footfix.h"
#include "support/paths.h"
#include "support/security_checks.h"
#include "support/unnamed_files.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

bool has_temporary(const TempDir& dir) {
  for (const auto& e : dir.entries())
    if (e.find(".footfix-") != std::string::npos || e.find(".tmp") != std::string::npos) return true;
  return false;
}

/// The walk clip cut to its first `frames` frames (a smaller valid clip).
std::string walk_prefix(int frames) {
  std::string text = read_bytes(data_clip("cmu_07_01_walk.bvh"));
  std::size_t at = text.find("Frames:");
  std::size_t rows = text.find('\n', text.find("Frame Time:")) + 1;
  std::size_t end = rows;
  for (int f = 0; f < frames; ++f) end = text.find('\n', end) + 1;
  std::string head = text.substr(0, at) + "Frames: " + std::to_string(frames) + "\n";
  return head + text.substr(text.find("Frame Time:"), end - text.find("Frame Time:"));
}

TEST(SecurityWrite, LongOutputNameWorks) {
  TempDir dir;
  std::string name(242, 'n');  // 246 bytes with ".bvh": temp names must not grow with it
  name += ".bvh";
  LimitedRun r = run_footfix_limited({"convert", data_clip("cmu_07_01_walk.bvh").string(), (dir / name).string()});
  expect_bounded(r, 200);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir / name));
  EXPECT_FALSE(has_temporary(dir));
}

TEST(SecurityWrite, InPlaceKeepsTheFileMode) {
  TempDir dir;
  fs::copy_file(data_clip("cmu_07_01_walk.bvh"), dir / "walk.bvh");
  ASSERT_EQ(::chmod((dir / "walk.bvh").c_str(), 0640), 0);
  struct stat before {};
  ASSERT_EQ(::stat((dir / "walk.bvh").c_str(), &before), 0);
  LimitedRun r = run_footfix_limited({"clean", (dir / "walk.bvh").string(), "--in-place", "-q"});
  expect_bounded(r, 300);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  struct stat after {};
  ASSERT_EQ(::stat((dir / "walk.bvh").c_str(), &after), 0);
  EXPECT_NE(after.st_ino, before.st_ino) << "not replaced (the test would prove nothing)";
  EXPECT_EQ(after.st_mode & 07777, 0640u);
}

TEST(SecurityWrite, ALaterRunRemovesTheTempFilesOfAKilledRun) {
  TempDir dir;
  fs::create_directories(dir / "out");
  // The pid of a process that is gone: a child that has exited and been reaped.
  pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  ASSERT_GT(gone, 0);
  ::waitpid(gone, nullptr, 0);
  const fs::path stale = dir / "out" / (".footfix-" + std::to_string(gone) + "-0123456789ab.tmp");
  const fs::path live = dir / "out" / (".footfix-" + std::to_string(::getpid()) + "-0123456789ab.tmp");
  const fs::path other = dir / "out" / ".walk.bvh.tmp-1-0";  // not footfix's: kept
  write_bytes(stale, "partial");
  write_bytes(live, "in progress");
  write_bytes(other, "someone else's");
  LimitedRun r = run_footfix_limited({"annotate", data_clip("cmu_07_01_walk.bvh").string(), "-o", (dir / "out").string()});
  expect_bounded(r, 200);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(stale)) << "the stale temp file of a killed run is left";
  EXPECT_TRUE(fs::exists(live)) << "a live process's temp file was removed";
  EXPECT_TRUE(fs::exists(other));
}

// The run stops itself once clip3's cleaned file is written but not yet put into place; then it
// is stopped as a CI job would stop it. `named`: through named temporary files, as where the file
// system has no O_TMPFILE. Returns the temporary files seen while clip3 was being written; none
// may be left after the signal.
std::vector<std::string> sigterm_while_writing(bool named) {
  TempDir dir;
  fs::create_directories(dir / "in");
  for (int i = 0; i < 6; ++i)
    fs::copy_file(data_clip("cmu_01_01_hops_turnaround.bvh"), dir / "in" / ("clip" + std::to_string(i) + ".bvh"));
  const fs::path out = dir / "out";
  std::vector<std::string> env{"FOOTFIX_TEST_STOP_AT=written:clip3.bvh"};
  if (named) env.push_back("FOOTFIX_TEST_NAMED_TEMPORARIES=1");
  int pid = start_footfix({"clean", (dir / "in").string(), "-o", out.string(), "--jobs", "2", "-q"}, env);
  const bool stopped = wait_until_stopped(pid);
  std::vector<std::string> temps_while_writing;
  for (const auto& e : fs::directory_iterator(out))
    if (e.path().filename().string().rfind(".footfix-", 0) == 0) temps_while_writing.push_back(e.path().filename().string());
  ::kill(pid, SIGTERM);
  ::kill(pid, SIGCONT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(stopped) << "the run did not reach the write of clip3";
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << "the run must still end by the signal";
  std::vector<std::string> temps;
  for (const auto& e : fs::directory_iterator(out))
    if (e.path().filename().string()[0] == '.') temps.push_back(e.path().filename().string());
  EXPECT_TRUE(temps.empty()) << "left: " << temps.front();
  return temps_while_writing;
}

TEST(SecurityWrite, SigtermLeavesNoTemporaryFile) {
  TempDir probe;
  const std::vector<std::string> seen = sigterm_while_writing(false);
  if (has_unnamed_files(probe.path())) EXPECT_TRUE(seen.empty()) << "a named temporary file: " << seen.front();
  else EXPECT_FALSE(seen.empty()) << "no temporary file while clip3 was being written";
}

TEST(SecurityWrite, SigtermRemovesNamedTemporaryFiles) {
  EXPECT_FALSE(sigterm_while_writing(true).empty()) << "no temporary file while clip3 was being written";
}

TEST(SecurityWrite, FullDiskFailsEachClipWithExit5AndTheBatchGoesOn) {
  TempDir dir;
  const fs::path in = dir / "in", out = dir / "out";
  fs::create_directories(in);
  fs::create_directories(out);
  fs::copy_file(data_clip("cmu_07_01_walk.bvh"), in / "a_walk.bvh");  // 283 KB cleaned
  fs::copy_file(data_clip("cmu_07_01_walk.bvh"), in / "b_walk.bvh");
  write_bytes(in / "c_short.bvh", walk_prefix(60));  // about 55 KB cleaned

  // A 400 KB tmpfs holds a_walk and c_short but not b_walk. Where mounting is not allowed, the
  // same failure is injected with a file size limit (writes past it fail with EFBIG).
  const bool mounted = ::geteuid() == 0 && ::mount("tmpfs", out.c_str(), "tmpfs", 0, "size=400k") == 0;
  LimitedRunOptions options;
  options.bound = std::chrono::seconds(60);
  if (!mounted) options.file_size_limit = 150 << 10;
  std::cout << (mounted ? "[ full disk: a 400 KB tmpfs mounted on the output directory ]\n"
                        : "[ full disk: injected by RLIMIT_FSIZE (mounting not allowed here) ]\n");
  const fs::path report = dir / "report.json";
  LimitedRun r = run_footfix_limited({"clean", in.string(), "-o", out.string(), "--report", report.string()}, options);
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(out)) left.push_back(e.path().filename().string());
  if (mounted) ::umount2(out.c_str(), MNT_DETACH);
  expect_bounded(r, 300);
  EXPECT_EQ(r.exit_code, 5) << r.err;
  const std::string reason = mounted ? "No space left on device" : "File too large";
  EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
  std::sort(left.begin(), left.end());
  const std::vector<std::string> expected =
      mounted ? std::vector<std::string>{"a_walk.bvh", "a_walk.contacts.json", "c_short.bvh", "c_short.contacts.json"}
              : std::vector<std::string>{"c_short.bvh", "c_short.contacts.json"};
  EXPECT_EQ(left, expected) << "partial or temp files left, or the batch stopped; stderr: " << r.err;
  const std::string report_text = read_bytes(report);
  EXPECT_NE(report_text.find("b_walk"), std::string::npos);
  EXPECT_NE(report_text.find(reason), std::string::npos);
}

}  // namespace
}  // namespace footfix::test
