// Security round 2: limits a contributed file must not get around.
// - high 6: a BVH at a low stated frame rate is held to --max-duration, and contact detection's
//   upsampling stays within a bounded working set when the limit is raised;
// - medium 3 and low: JSON nested 200,000 deep (a manifest, a report, a contacts file, settings)
//   is refused with a located error, never a crash; a manifest link is not followed; a manifest
//   inside the input tree (where contributors write) is not trusted.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sstream>

#include "cli/run_footfix.h"
#include "footfix/batch/incremental.h"
#include "support/paths.h"
#include "support/security_checks.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

/// The bundled walk's skeleton with `frames` rows of zeros, `frame_time_s` apart.
std::string slow_clip(int frames, double frame_time_s) {
  const std::string walk = read_bytes(data_clip("cmu_07_01_walk.bvh"));
  std::string out = walk.substr(0, walk.find("Frames:"));
  std::ostringstream header;
  header << "Frames: " << frames << "\nFrame Time: " << frame_time_s << "\n";
  out += header.str();
  std::string row;
  for (int c = 0; c < 96; ++c) row += c ? " 0" : "0";
  row += "\n";
  out.reserve(out.size() + row.size() * static_cast<std::size_t>(frames));
  for (int f = 0; f < frames; ++f) out += row;
  return out;
}

std::string nested_json(int depth) { return std::string(static_cast<std::size_t>(depth), '[') + std::string(static_cast<std::size_t>(depth), ']'); }

TEST(SecurityLimits, LowFrameRateBvhIsHeldToTheDurationLimit) {
  TempDir dir;
  write_bytes(dir / "slow.bvh", slow_clip(60000, 1.0));  // 16.7 hours at 1 Hz
  LimitedRun r = run_footfix_limited({"annotate", (dir / "slow.bvh").string(), "-o", (dir / "out").string() + "/"});
  expect_bounded(r, 250);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("--max-duration"), std::string::npos) << r.err;
}

TEST(SecurityLimits, UpsamplingALongLowRateClipStaysBounded) {
  TempDir dir;
  write_bytes(dir / "slow.bvh", slow_clip(60000, 1.0));
  // With the duration limit lifted, detection would upsample 60,000 frames 64 times (3.8 million
  // frames of working arrays, over 1 GB); it is held to about a million frames.
  LimitedRunOptions options;
  options.bound = std::chrono::seconds(120);
  LimitedRun r = run_footfix_limited(
      {"annotate", (dir / "slow.bvh").string(), "-o", (dir / "out").string() + "/", "--max-duration", "1000000"}, options);
  expect_bounded(r, 600);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir / "out" / "slow.contacts.json"));
}

TEST(SecurityLimits, DeeplyNestedJsonIsRefusedEverywhere) {
  TempDir dir;
  const std::string deep = nested_json(200000);
  write_bytes(dir / "deep.json", deep);
  const std::string clip = data_clip("cmu_07_01_walk.bvh").string();
  struct Case {
    const char* what;
    std::vector<std::string> args;
    int exit_code;
  };
  const std::vector<Case> cases = {
      {"metrics --contacts", {"metrics", clip, clip, "--contacts", (dir / "deep.json").string()}, 3},
      {"report", {"report", (dir / "deep.json").string(), "--html", (dir / "r.html").string()}, 3},
      {"report merge", {"report", "merge", (dir / "deep.json").string(), "-o", (dir / "m.json").string()}, 3},
      {"clean --settings", {"clean", clip, "-o", (dir / "o1").string() + "/", "--settings", (dir / "deep.json").string()}, 2},
      {"clean --rig", {"clean", clip, "-o", (dir / "o2").string() + "/", "--rig", (dir / "deep.json").string()}, 2},
      {"walk --terrain", {"walk", "--terrain", (dir / "deep.json").string(), "-o", (dir / "w.bvh").string()}, 2},
  };
  for (const Case& c : cases) {
    LimitedRun r = run_footfix_limited(c.args);
    expect_bounded(r, 250);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.what << ": " << r.err;
    EXPECT_NE(r.err.find("nested deeper than"), std::string::npos) << c.what << ": " << r.err;
    EXPECT_NE(r.err.find("deep.json"), std::string::npos) << c.what << ": the error names no file: " << r.err;
  }
}

TEST(SecurityLimits, DeeplyNestedManifestIsIgnoredWithoutEcho) {
  TempDir dir;
  fs::create_directories(dir / "out");
  write_bytes(dir / "out" / ".footfix-manifest.json", "{\"format\":\"footfix-manifest\",\"x\":" + nested_json(200000) + "}");
  LimitedRun r = run_footfix_limited({"clean", data_clip("cmu_07_01_walk.bvh").string(), "-o",
                                      (dir / "out").string() + "/", "--incremental"});
  expect_bounded(r, 250);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("ignoring the manifest"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("[[[["), std::string::npos) << "the warning quotes the file";
  EXPECT_TRUE(fs::exists(dir / "out" / "cmu_07_01_walk.bvh"));
}

TEST(SecurityLimits, ManifestLinkIsNotFollowed) {
  TempDir dir;
  fs::create_directories(dir / "out");
  write_bytes(dir / "secret.json", "{\"format\":\"footfix-manifest\",\"token\":\"" + k_secret_value + "\"");
  fs::create_symlink(dir / "secret.json", dir / "out" / ".footfix-manifest.json");
  LimitedRun r = run_footfix_limited({"clean", data_clip("cmu_07_01_walk.bvh").string(), "-o",
                                      (dir / "out").string() + "/", "--incremental"});
  expect_bounded(r, 250);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  expect_no_secret(r.err, "stderr");
  EXPECT_NE(r.err.find("symbolic link"), std::string::npos) << r.err;
  EXPECT_NE(read_bytes(dir / "secret.json").find(k_secret_value), std::string::npos) << "the link's target was changed";
}

// Medium 5: `walk --skeleton` holds every joint in every frame it generates; a skeleton of
// 100,000 joints walked for 8 s took 2.7 GB. It is held to --max-memory like a clip read.
TEST(SecurityLimits, WalkingAHugeSkeletonIsHeldToTheMemoryLimit) {
  TempDir dir;
  std::string text = read_bytes(data_clip("cmu_07_01_walk.bvh"));
  std::string extra;
  for (int i = 0; i < 100000; ++i)
    extra += "JOINT x" + std::to_string(i) + "\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n}\n";
  // Children of the last joint with channels: their values come last in a row.
  const std::size_t motion = text.find("MOTION");
  const std::size_t last_channels = text.rfind("CHANNELS", motion);
  text.insert(text.find('\n', last_channels) + 1, extra);
  // One frame (the file itself within every read limit), its row extended with their values.
  const std::size_t frames = text.find("Frames:");
  const std::size_t time = text.find("Frame Time:");
  const std::size_t first_row = text.find('\n', time) + 1;
  std::string row = text.substr(first_row, text.find('\n', first_row) - first_row);
  while (!row.empty() && (row.back() == ' ' || row.back() == '\r')) row.pop_back();
  for (int i = 0; i < 3 * 100000; ++i) row += " 0";
  text = text.substr(0, frames) + "Frames: 1\n" + text.substr(time, first_row - time) + row + "\n";
  write_bytes(dir / "huge.bvh", text);
  LimitedRun r = run_footfix_limited({"walk", "--skeleton", (dir / "huge.bvh").string(), "-o", (dir / "w.bvh").string()});
  expect_bounded(r, 400);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("--max-memory"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "w.bvh"));
}

TEST(SecurityLimits, ManifestInsideTheInputTreeIsNotTrusted) {
  TempDir dir;
  fs::create_directories(dir / "tree");
  fs::copy_file(data_clip("cmu_07_01_walk.bvh"), dir / "tree" / "walk.bvh");
  const std::vector<std::string> args{"clean", (dir / "tree").string(), "-o", (dir / "tree" / "out").string(),
                                      "--incremental", "--check"};
  LimitedRun r = run_footfix_limited(args);
  expect_bounded(r, 300);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("could be forged"), std::string::npos) << r.err;
  // A contributor breaks the clip and forges its manifest entry to match the broken bytes.
  write_bytes(dir / "tree" / "walk.bvh", "HIERARCHY\nbroken\n");
  const fs::path manifest = dir / "tree" / "out" / ".footfix-manifest.json";
  nlohmann::json doc = nlohmann::json::parse(read_bytes(manifest));
  ASSERT_TRUE(doc["entries"].contains("walk.bvh")) << doc.dump();
  doc["entries"]["walk.bvh"]["input_hash"] = file_content_hash(dir / "tree" / "walk.bvh");
  write_bytes(manifest, doc.dump());
  r = run_footfix_limited(args);
  expect_bounded(r, 300);
  EXPECT_EQ(r.exit_code, 3) << "the forged entry passed the broken clip: " << r.err;
}

}  // namespace
}  // namespace footfix::test
