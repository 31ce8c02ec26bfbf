// Determinism across processes: the real binary cleans the same batch of bundled clips with
// --jobs 1, 3 and 4, each in its own process (its own heap layout, thread interleaving and
// scheduling); every output file (clips and contacts JSON) must be byte for byte the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/run_footfix.h"
#include "footfix/files/atomic_file.h"
#include "support/paths.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;

TEST(JobsDeterminism, OutputsAreByteIdenticalForEveryJobsValue) {
  test::TempDir dir;
  fs::create_directories(dir / "in" / "sub");
  const char* clips[] = {"cmu_07_01_walk.bvh", "cmu3dsmax_131_01_start_walk_stop.bvh",
                         "cmu3dsmax_131_03_start_hop_stop_meters.bvh", "cmu_01_01_hops_turnaround.bvh"};
  for (int i = 0; i < 4; ++i)
    fs::copy_file(test::data_clip(clips[i]), dir / "in" / (i % 2 ? "sub" : "") / clips[i]);

  std::vector<std::string> expected;  // relative paths written by the first run
  std::vector<std::string> first;     // their bytes
  for (const char* jobs : {"1", "3", "4"}) {
    const fs::path out = dir / (std::string("out") + jobs);
    test::BoundedRun r = test::run_footfix_bounded(
        {"clean", (dir / "in").string(), "-o", out.string(), "--jobs", jobs, "-q"}, std::chrono::seconds(120));
    ASSERT_EQ(r.exit_code, 0) << "--jobs " << jobs << "\n" << r.out << r.err;
    std::vector<std::string> names;
    for (const auto& e : fs::recursive_directory_iterator(out))
      if (e.is_regular_file()) names.push_back(fs::relative(e.path(), out).string());
    std::sort(names.begin(), names.end());
    if (expected.empty()) {
      expected = names;
      ASSERT_EQ(expected.size(), 8u);  // a clip and a contacts file per input
      for (const auto& n : names) first.push_back(read_file(out / n));
      continue;
    }
    ASSERT_EQ(names, expected) << "--jobs " << jobs;
    for (size_t i = 0; i < names.size(); ++i)
      EXPECT_TRUE(read_file(out / names[i]) == first[i]) << names[i] << " differs with --jobs " << jobs;
  }
}

}  // namespace
}  // namespace footfix
