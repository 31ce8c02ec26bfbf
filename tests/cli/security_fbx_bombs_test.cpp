// Findings 3 and 6 (FBX memory and stack bombs), generated here, a few hundred KB each: every
// one is refused with exit 3 before it costs memory (peak RSS budgets below), the batch goes on
// and the report is written. A crash inside the importer (assimp) fails one clip only.
#include <gtest/gtest.h>

#include <iostream>

#include "cli/run_footfix.h"
#include "support/hostile_files.h"
#include "support/paths.h"
#include "support/security_checks.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

struct Bomb {
  const char* name;
  std::string bytes;
  const char* message;
};

/// Runs `clean` over the bomb and a good clip; returns the run. The bomb fails with `message`.
LimitedRun clean_with_good_clip(const TempDir& dir, const Bomb& bomb, long rss_budget_mib,
                                const std::vector<std::string>& extra = {}, LimitedRunOptions options = {}) {
  const fs::path in = dir / "in";
  fs::create_directories(in);
  write_bytes(in / bomb.name, bomb.bytes);
  if (!fs::exists(in / "z_walk.bvh")) fs::copy_file(data_clip("cmu_07_01_walk.bvh"), in / "z_walk.bvh");
  std::vector<std::string> args{"clean", (in / bomb.name).string(), (in / "z_walk.bvh").string(),
                                "-o", (dir / "out").string(), "--report", (dir / "report.json").string()};
  args.insert(args.end(), extra.begin(), extra.end());
  options.bound = std::chrono::seconds(60);
  LimitedRun r = run_footfix_limited(args, options);
  expect_bounded(r, rss_budget_mib);
  std::cout << "[ " << bomb.name << " (" << bomb.bytes.size() / 1024 << " KB): peak RSS " << r.peak_rss_kb / 1024
            << " MiB (budget " << rss_budget_mib << "), " << r.seconds << " s ]\n";
  EXPECT_EQ(r.exit_code, 3) << bomb.name << ": " << r.err;
  EXPECT_NE(r.err.find(bomb.message), std::string::npos) << bomb.name << ": " << r.err;
  EXPECT_TRUE(fs::exists(dir / "out" / "z_walk.bvh")) << bomb.name << ": the batch stopped";
  EXPECT_NE(read_bytes(dir / "report.json").find(bomb.message), std::string::npos) << bomb.name << ": report";
  return r;
}

TEST(SecurityFbxBombs, HugeTakeIsRefusedByTheDurationLimit) {
  TempDir dir;
  // 49 million frames at 30 fps, declared in a 0.4 KB file.
  clean_with_good_clip(dir, {"long_take.fbx", ascii_fbx_long_take(49e6 / 30), "over the duration limit of 3600 s (--max-duration)"}, 250);
}

TEST(SecurityFbxBombs, HugeCurveIsRefusedByTheDurationLimit) {
  TempDir dir;
  // One curve of two keys 49 million frames (at 30 fps) apart.
  std::string curve = "\tAnimationCurve: 5, \"AnimCurve::\", \"\" {\n\t\tKeyTime: *2 {\n\t\t\ta: 0,";
  curve += std::to_string(static_cast<std::int64_t>(49e6 / 30) * k_ktime_per_second);
  curve += "\n\t\t}\n\t\tKeyValueFloat: *2 {\n\t\t\ta: 0,1\n\t\t}\n\t}\n";
  clean_with_good_clip(dir, {"long_curve.fbx", wrap_objects(curve, ""), "over the duration limit of 3600 s (--max-duration)"}, 250);
}

TEST(SecurityFbxBombs, FramesAreTiedToTheKeysPresent) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  // The Mixamo walk (32 frames of keys) with its take declared to run 3000 s: 90,001 frames
  // (1.9 GB) before the fix.
  std::string text = read_bytes(shared_clips_dir() / "mixamo_walking_rootmotion_ascii7700.fbx");
  const std::string stop = "\"LocalStop\", \"KTime\", \"Time\", \"\",47725696600";
  const std::size_t at = text.find(stop);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, stop.size(), "\"LocalStop\", \"KTime\", \"Time\", \"\"," + std::to_string(3000 * k_ktime_per_second));
  TempDir dir;
  write_bytes(dir / "edited.fbx", text);
  LimitedRun r = run_footfix_limited({"inspect", (dir / "edited.fbx").string()});
  expect_bounded(r, 300);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("frames 32 at 30 fps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("longer than its keys; ending it at the last key"), std::string::npos) << r.out;
}

TEST(SecurityFbxBombs, TakesSharingACurveAreCountedBeforeImport) {
  TempDir dir;
  // 1000 takes x one shared curve of 100k keys (about 1 MB): 10^8 keys for the importer.
  clean_with_good_clip(dir, {"shared_curve.fbx", ascii_fbx_shared_curve_takes(1000, 100000), "(--max-memory)"}, 250);
}

TEST(SecurityFbxBombs, DecompressedBytesAreBudgetedPerFile) {
  TempDir dir;
  // Three arrays of 60 MiB of zeros (each under the per-array cap) in about 180 KB.
  clean_with_good_clip(dir, {"zlib.fbx", binary_fbx_zlib_bomb(3, 60), "a decompression bomb?"}, 250);
}

TEST(SecurityFbxBombs, DeepModelChainIsRefusedBeforeImport) {
  TempDir dir;
  // 10,000 nested Models overflow assimp's stack (exit 139 before the fix).
  clean_with_good_clip(dir, {"deep.fbx", ascii_fbx_model_chain(10000), "Model hierarchy deeper than 1024 levels"}, 250);
}

TEST(SecurityFbxBombs, DoubledParentLinksAreRefusedBeforeImport) {
  TempDir dir;
  // 20 Models each linked twice to its parent: assimp built 2^20 nodes (5.4 GB) before the fix.
  clean_with_good_clip(dir, {"doubled.fbx", ascii_fbx_doubled_chain(20), "linked to more than one parent Model"}, 250);
}

TEST(SecurityFbxBombs, ImportedNodesAreCountedAgainstTheMemoryLimit) {
  TempDir dir;
  // 700 Models with every pivot set (510 KB): assimp adds helper nodes for each, about 9,000
  // scene nodes, more than --max-memory 32 allows at 5 KiB a node (6,553). Refused in the import
  // child before footfix builds its skeleton; read (no legs, exit 4) before the check. (1000 such
  // Models take assimp past the child's memory limit of 32 MiB before it has counted them.)
  clean_with_good_clip(dir, {"pivoted.fbx", ascii_fbx_pivoted_models(700), "scene nodes (about 5 KiB each), over the memory limit of 32 MiB (--max-memory)"},
                       250, {"--max-memory", "32"});
}

TEST(SecurityFbxBombs, ManyJointsAndCurvesReadInLinearTime) {
  TempDir dir;
  // 24,000 joints and 24,000 curves (4 MB): over 300 s of CPU when every joint rescanned every
  // curve and link. Read, it has no legs: exit 4 within the bound.
  write_bytes(dir / "wide.fbx", ascii_fbx_many_joints_and_curves(24000));
  LimitedRunOptions options;
  options.bound = std::chrono::seconds(60);
  LimitedRun r = run_footfix_limited({"inspect", (dir / "wide.fbx").string()}, options);
  expect_bounded(r, 400);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 4) << r.err;
  std::cout << "[ wide.fbx: " << r.seconds << " s, peak RSS " << r.peak_rss_kb / 1024 << " MiB ]\n";
}

TEST(SecurityFbxBombs, ACrashInsideTheImporterFailsOneClip) {
  TempDir dir;
  // 1000 nested Models pass the depth limit; with a 1 MiB stack assimp's recursive conversion
  // overflows it. The import runs in a child process, so this clip fails with exit 3 and the
  // batch and its report carry on.
  LimitedRunOptions options;
  options.stack_limit = 1 << 20;
  clean_with_good_clip(dir, {"deep1000.fbx", ascii_fbx_model_chain(1000), "the FBX importer crashed on this file"}, 250, {},
                       options);
}

TEST(SecurityFbxBombs, MaxMemoryIsEnforcedBeforeAllocation) {
  TempDir dir;
  // The 2752-frame hops clip (31 joints) needs about 27 MiB by the estimate: over a 16 MiB budget.
  clean_with_good_clip(dir, {"hops.bvh", read_bytes(data_clip("cmu_01_01_hops_turnaround.bvh")), "MiB (--max-memory)"}, 250,
                       {"--max-memory", "16"});
}

}  // namespace
}  // namespace footfix::test
