// Security round 2, low: `inspect` read a clip without legs twice (once to load it, once more to
// describe its joints), so a costly file cost twice; an FBX clip that reads fine was read a
// second time for its list of takes. Each file is now opened once; the opens are counted with
// inotify, outside the binary.
#include <gtest/gtest.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <functional>

#include "cli/run_footfix.h"
#include "support/hostile_files.h"
#include "support/paths.h"
#include "support/security_checks.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

/// How often `file` was opened while `run` ran. Closes are watched too: inotify merges an event
/// into an identical one still unread, so opens are told apart by the closes between them.
int opens_during(const fs::path& file, const std::function<void()>& run) {
  const int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  EXPECT_GE(fd, 0);
  EXPECT_GE(::inotify_add_watch(fd, file.c_str(), IN_OPEN | IN_CLOSE), 0);
  run();
  int opens = 0;
  alignas(inotify_event) char buffer[4096];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
    for (char* p = buffer; p < buffer + n; p += sizeof(inotify_event) + reinterpret_cast<inotify_event*>(p)->len)
      if (reinterpret_cast<inotify_event*>(p)->mask & IN_OPEN) ++opens;
  ::close(fd);
  return opens;
}

/// Runs `inspect clip --json` (bounded: 250 MiB); expects the clip opened once, the exit code
/// `exit_code` and `expected` in the output.
void expect_inspected_from_one_read(const fs::path& clip, int exit_code, const std::string& expected) {
  LimitedRun r;
  const int opens = opens_during(clip, [&] { r = run_footfix_limited({"inspect", clip.string(), "--json"}); });
  expect_bounded(r, 250);
  EXPECT_EQ(r.exit_code, exit_code) << r.err;
  EXPECT_NE(r.out.find(expected), std::string::npos) << r.out.substr(0, 400);
  EXPECT_EQ(opens, 1) << "the clip was read " << opens << " times";
}

TEST(SecurityReadOnce, InspectReadsAClipWithoutLegsOnce) {
  TempDir dir;
  // 2,000 joints under one, no legs: read, then refused with exit 4 and its joint tree shown.
  const fs::path clip = dir / "no_legs.fbx";
  write_bytes(clip, ascii_fbx_many_joints_and_curves(2000));
  expect_inspected_from_one_read(clip, 4, "\"joint_count\": 2000");
}

TEST(SecurityReadOnce, InspectReadsAnFbxClipAndItsTakesOnce) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  TempDir dir;
  // A clip that reads fine: described, its takes listed from the same read.
  const fs::path clip = dir / "walk.fbx";
  fs::copy_file(shared_clips_dir() / "mixamo_walking_inplace_bin7700.fbx", clip);
  expect_inspected_from_one_read(clip, 0, "\"takes\": [\n      \"mixamo.com\"\n    ]");
}

}  // namespace
}  // namespace footfix::test
