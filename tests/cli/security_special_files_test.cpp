// Finding 4 (unbounded reads): only regular files are read. A FIFO is refused without being
// opened (opening it for reading would block), devices and /proc files are refused, and a file
// over the size limit is refused before it is read (a sparse file: no disk, and no memory used).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/run_footfix.h"
#include "support/paths.h"
#include "support/security_checks.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

TEST(SecuritySpecialFiles, FifoDeviceAndProcFilesAreRefusedQuickly) {
  TempDir dir;
  ASSERT_EQ(::mkfifo((dir / "fifo.bvh").c_str(), 0600), 0);
  fs::create_symlink("/dev/zero", dir / "zero.bvh");
  fs::create_symlink("/dev/urandom", dir / "random.fbx");
  fs::create_symlink("/proc/self/environ", dir / "environ.bvh");
  fs::create_symlink("/proc/self/maps", dir / "maps.fbx");
  const std::pair<const char*, const char*> cases[] = {
      {"fifo.bvh", "not a regular file (a FIFO)"},
      {"zero.bvh", "not a regular file (a device)"},
      {"random.fbx", "not a regular file (a device)"},
      {"environ.bvh", "a /proc or /sys file, not a clip"},
      {"maps.fbx", "a /proc or /sys file, not a clip"},
  };
  for (const auto& [name, message] : cases) {
    LimitedRunOptions options;
    options.bound = std::chrono::seconds(20);
    options.env = {k_secret_env};
    LimitedRun r = run_footfix_limited({"clean", (dir / name).string(), "-o", (dir / "out").string()}, options);
    expect_bounded(r, 100);
    EXPECT_EQ(r.exit_code, 3) << name << ": " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << name << ": " << r.err;
    expect_no_secret(r.err, "stderr");
  }
}

TEST(SecuritySpecialFiles, InputsOverTheSizeLimitAreRefusedBeforeReading) {
  TempDir dir;
  // 300 MiB, sparse: over the default limit of 256 MiB.
  {
    std::ofstream f(dir / "huge.bvh");
    f << "HIERARCHY\n";
  }
  fs::resize_file(dir / "huge.bvh", 300ull << 20);
  fs::copy_file(data_clip("cmu_07_01_walk.bvh"), dir / "walk.bvh");

  LimitedRun r = run_footfix_limited({"annotate", (dir / "huge.bvh").string(), (dir / "walk.bvh").string(), "-o",
                                      (dir / "out").string()});
  expect_bounded(r, 100);  // the 300 MiB were never read
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("huge.bvh: 300 MiB is over the input size limit of 256 MiB (--max-input-size)"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(dir / "out" / "walk.contacts.json")) << "the batch stopped";

  // The limit is an option (MiB).
  fs::resize_file(dir / "huge.bvh", 3ull << 20);
  r = run_footfix_limited({"inspect", (dir / "huge.bvh").string(), "--max-input-size", "2"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("3 MiB is over the input size limit of 2 MiB"), std::string::npos) << r.err;
  r = run_footfix_limited({"inspect", (dir / "walk.bvh").string(), "--max-input-size", "1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace footfix::test
