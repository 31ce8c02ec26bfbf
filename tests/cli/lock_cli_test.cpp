// `footfix lock` and `footfix compare` end to end: the real executable on real clips and files.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "cli/run_footfix.h"
#include "footfix/files/atomic_file.h"
#include "footfix/bvh/bvh.h"
#include "support/paths.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(LockCli, WritesTheLockedClipAndItsLockFile) {
  TempDir out;
  BoundedRun r = run_footfix_bounded({"lock", data_clip("cmu_07_01_walk.bvh").string(), "-o", out.path().string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(out.entries(), (std::vector<std::string>{"cmu_07_01_walk.bvh", "cmu_07_01_walk.lock.json"}));
  Clip locked = parse_bvh(read_file(out / "cmu_07_01_walk.bvh"), "locked");
  EXPECT_EQ(locked.frame_count, 317);
  json doc = json::parse(read_file(out / "cmu_07_01_walk.lock.json"));
  EXPECT_EQ(doc["format"], "footfix-lock");
  EXPECT_EQ(doc["version"], 1);
  EXPECT_EQ(doc["settings"]["contacts"], "causal");
  EXPECT_EQ(doc["clip"]["frames"], 317);
  ASSERT_EQ(doc["feet"].size(), 2u);
  for (const json& foot : doc["feet"]) {
    ASSERT_EQ(foot["locked"].size(), 317u);
    ASSERT_EQ(foot["blend_weight"].size(), 317u);
    ASSERT_EQ(foot["contact_point_m"].size(), 317u);
    int locked = 0;
    bool seen_lock = false;
    for (size_t f = 0; f < 317; ++f) {
      const int l = foot["locked"][f].get<int>();
      locked += l;
      seen_lock = seen_lock || l == 1;
      const double w = foot["blend_weight"][f].get<double>();
      EXPECT_TRUE(w >= 0 && w <= 1) << f;
      // A contact point exists exactly from the first lock on.
      EXPECT_EQ(foot["contact_point_m"][f].is_null(), !seen_lock) << foot["side"] << " frame " << f;
      if (f > 0 && l == 1 && foot["locked"][f - 1].get<int>() == 0) {
        EXPECT_EQ(w, 0.0) << "a lock starts a blend";
      }
    }
    // A walk: each foot planted for a good share of its 2.6 s, not all of it.
    EXPECT_GT(locked, 60) << foot["side"];
    EXPECT_LT(locked, 300) << foot["side"];
  }
}

TEST(LockCli, DefaultOutputIsBesideTheInputAndNeverOverwritesIt) {
  TempDir dir;
  fs::copy_file(data_clip("cmu_07_01_walk.bvh"), dir / "walk.bvh");
  const std::string before = read_file(dir / "walk.bvh");
  BoundedRun r = run_footfix_bounded({"lock", (dir / "walk.bvh").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"walk.bvh", "walk.locked.bvh", "walk.locked.lock.json"}));
  BoundedRun refused = run_footfix_bounded({"lock", (dir / "walk.bvh").string(), "-o", (dir / "walk.bvh").string()});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_EQ(read_file(dir / "walk.bvh"), before);
  BoundedRun directory = run_footfix_bounded({"lock", dir.path().string()});
  EXPECT_EQ(directory.exit_code, 2) << directory.err;  // a directory input needs -o
}

TEST(LockCli, InPlaceClipWarnsWithoutItsGroundVelocityAndLocksWithIt) {
  // The in-place walk's treadmill runs at about 1.6 m/s along -Z (clean's estimate).
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  const std::string clip = (shared_clips_dir() / "mixamo_walking_inplace_bin7700.fbx").string();
  TempDir out;
  BoundedRun still = run_footfix_bounded({"lock", clip, "-o", (out / "still.bvh").string()});
  ASSERT_EQ(still.exit_code, 0) << still.err;
  EXPECT_NE(still.err.find("0 locks"), std::string::npos) << still.err;
  EXPECT_NE(still.err.find("--ground-velocity"), std::string::npos) << still.err;
  BoundedRun moving =
      run_footfix_bounded({"lock", clip, "-o", (out / "moving.bvh").string(), "--ground-velocity", "0,-1.6"});
  ASSERT_EQ(moving.exit_code, 0) << moving.err;
  EXPECT_EQ(moving.err.find("0 locks"), std::string::npos) << moving.err;
  EXPECT_EQ(moving.err.find("no foot was locked"), std::string::npos) << moving.err;
}

TEST(LockCli, TakesTheWalksTerrainFile) {
  // A walk up stairs from `footfix walk`, locked on its own terrain file: the lock's contacts
  // agree with the walk's ground truth on at least 90% of the foot-frames.
  TempDir dir;
  BoundedRun walk = run_footfix_bounded({"walk", "--terrain", "stairs", "-o", (dir / "stairs.bvh").string(), "-q"});
  ASSERT_EQ(walk.exit_code, 0) << walk.err;
  BoundedRun r = run_footfix_bounded({"lock", (dir / "stairs.bvh").string(), "-o", (dir / "locked.bvh").string(),
                                      "--terrain", (dir / "stairs.terrain.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json truth = json::parse(read_file(dir / "stairs.contacts.json"));
  const json lock = json::parse(read_file(dir / "locked.lock.json"));
  int agree = 0, total = 0;
  for (int s = 0; s < 2; ++s) {
    const json& a = truth["feet"][s]["contact"];
    const json& b = lock["feet"][s]["contact"];
    ASSERT_EQ(a.size(), b.size());
    for (size_t f = 0; f < a.size(); ++f, ++total) agree += a[f].get<int>() == b[f].get<int>() ? 1 : 0;
  }
  EXPECT_GE(static_cast<double>(agree) / total, 0.90);
  BoundedRun bad = run_footfix_bounded({"lock", (dir / "stairs.bvh").string(), "-o", (dir / "x.bvh").string(),
                                        "--terrain", (dir / "missing.json").string()});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("--terrain"), std::string::npos) << bad.err;
}

TEST(LockCli, RefusesABadGroundVelocity) {
  TempDir out;
  for (const char* bad : {"nan,0", "1", "a,b"}) {
    BoundedRun r = run_footfix_bounded(
        {"lock", data_clip("cmu_07_01_walk.bvh").string(), "-o", out.path().string(), "--ground-velocity", bad});
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("--ground-velocity"), std::string::npos) << bad << ": " << r.err;
  }
}

TEST(LockCli, OneFrameClipIsANoOpWithANote) {
  TempDir out;
  const fs::path input = fs::path(FOOTFIX_TESTS_DIR) / "data" / "bad" / "one_frame.bvh";
  BoundedRun r = run_footfix_bounded({"lock", input.string(), "-o", out.path().string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("one frame: nothing to lock"), std::string::npos) << r.err;
  EXPECT_EQ(parse_bvh(read_file(out / "one_frame.bvh"), "one").frame_count, 1);
}

TEST(LockCli, MissingInputIsAReadError) {
  TempDir out;
  BoundedRun lock = run_footfix_bounded({"lock", (out / "nope.bvh").string(), "-o", out.path().string()});
  EXPECT_EQ(lock.exit_code, 3) << lock.err;
  BoundedRun compare = run_footfix_bounded({"compare", (out / "nope.bvh").string()});
  EXPECT_EQ(compare.exit_code, 3) << compare.err;
  EXPECT_NE(compare.err.find("nope.bvh"), std::string::npos) << compare.err;
}

TEST(LockCli, BadLockSettingsAreUsageErrors) {
  TempDir out;
  const std::string clip = data_clip("cmu_07_01_walk.bvh").string();
  BoundedRun blend = run_footfix_bounded({"lock", clip, "-o", out.path().string(), "--blend-time", "0"});
  EXPECT_EQ(blend.exit_code, 2) << blend.err;
  EXPECT_NE(blend.err.find("blend_time_s must be a finite value > 0"), std::string::npos) << blend.err;
  BoundedRun order = run_footfix_bounded({"compare", clip, "--unlock-distance", "0.001"});
  EXPECT_EQ(order.exit_code, 2) << order.err;
  EXPECT_NE(order.err.find("must not be below lock_distance_m"), std::string::npos) << order.err;
  EXPECT_TRUE(out.entries().empty());
}

TEST(CompareCli, SlideProtocolTableOrdersTheThreeMethods) {
  BoundedRun r = run_footfix_bounded({"compare", data_clip("cmu_07_01_walk.bvh").string(), "--slide-protocol", "--json"},
                                     std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc = json::parse(r.out);
  ASSERT_EQ(doc.size(), 1u);
  ASSERT_EQ(doc[0]["variants"].size(), 3u);
  EXPECT_EQ(doc[0]["runtime_contacts"], "causal");
  for (const json& v : doc[0]["variants"]) {
    const json& none = v["methods"]["no fix"];
    const json& runtime = v["methods"]["runtime lock"];
    const json& offline = v["methods"]["offline clean"];
    // No fix is the input itself.
    EXPECT_EQ(none["max_deviation_cm"].get<double>(), 0.0);
    const double s0 = none["slide_cleaned"]["mean_cm_per_s"], s1 = runtime["slide_cleaned"]["mean_cm_per_s"],
                 s2 = offline["slide_cleaned"]["mean_cm_per_s"];
    EXPECT_LT(s1, 0.6 * s0) << "scale " << v["scale"];
    EXPECT_LT(s2, s1) << "scale " << v["scale"];
    EXPECT_TRUE(runtime["non_leg_joints_unchanged"].get<bool>());
    EXPECT_LT(runtime["leg_accel_ratio"].get<double>(), 2.0);
  }
  // The slide-protocol variants slide more than the clip itself before any fix.
  EXPECT_GT(doc[0]["variants"][1]["methods"]["no fix"]["slide_cleaned"]["mean_cm_per_s"].get<double>(),
            2 * doc[0]["variants"][0]["methods"]["no fix"]["slide_cleaned"]["mean_cm_per_s"].get<double>());
}

TEST(CompareCli, TextTableNamesEveryMethodAndTheDetectionDelay) {
  BoundedRun r = run_footfix_bounded({"compare", data_clip("cmu_07_01_walk.bvh").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* s : {"no fix", "runtime lock", "offline clean", "3 frames (25 ms) late at contact start"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << " in\n" << r.out;
}

}  // namespace
}  // namespace footfix::test
