// --bvh-unit: BVH written in metres, centimetres or inches (Maya and MotionBuilder read BVH as
// centimetres). Every length is scaled (joint offsets, End Sites, position channels), nothing
// else is, the default keeps what each command wrote before, and the file read back holds the
// same motion in metres.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "cli/cli_test_helpers.h"
#include "footfix/core/fk.h"
#include "footfix/pipeline/load_clip.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::run_footfix_bounded;

// A BVH's numbers by kind: the OFFSET values (End Sites included) in file order, and per motion
// value whether its channel is a position.
struct BvhNumbers {
  std::vector<double> offsets;
  std::vector<bool> is_position;  ///< per value of a motion row
  std::vector<std::vector<double>> rows;
};

BvhNumbers parse_numbers(const fs::path& path) {
  BvhNumbers n;
  std::istringstream in(read_file(path));
  std::string word;
  while (in >> word && word != "MOTION") {
    if (word == "OFFSET") {
      for (int i = 0; i < 3; ++i) n.offsets.push_back((in >> word, std::stod(word)));
    } else if (word == "CHANNELS") {
      int count = 0;
      in >> count;
      for (int i = 0; i < count; ++i) n.is_position.push_back((in >> word, contains(word, "position")));
    }
  }
  int frames = 0;
  in >> word >> frames >> word >> word >> word;  // Frames: N Frame Time: T
  n.rows.resize(static_cast<size_t>(frames));
  for (auto& row : n.rows)
    for (size_t i = 0; i < n.is_position.size(); ++i) row.push_back((in >> word, std::stod(word)));
  return n;
}

void expect_near_relative(double scaled, double expected, const std::string& what) {
  EXPECT_NEAR(scaled, expected, 1e-9 * std::max(1.0, std::abs(expected))) << what;
}

// `scaled` holds `base`'s numbers with every length times `factor` and every angle as it was.
void expect_lengths_scaled(const fs::path& base, const fs::path& scaled, double factor) {
  const BvhNumbers a = parse_numbers(base), b = parse_numbers(scaled);
  ASSERT_EQ(a.offsets.size(), b.offsets.size());
  ASSERT_FALSE(a.offsets.empty());
  for (size_t i = 0; i < a.offsets.size(); ++i) expect_near_relative(b.offsets[i], a.offsets[i] * factor, "offset " + std::to_string(i));
  ASSERT_EQ(a.is_position, b.is_position);
  ASSERT_EQ(a.rows.size(), b.rows.size());
  ASSERT_GT(std::count(a.is_position.begin(), a.is_position.end(), true), 0);
  for (size_t f = 0; f < a.rows.size(); ++f)
    for (size_t i = 0; i < a.is_position.size(); ++i)
      expect_near_relative(b.rows[f][i], a.rows[f][i] * (a.is_position[i] ? factor : 1.0),
                           "frame " + std::to_string(f) + " value " + std::to_string(i));
}

// Both files, read back (units detected), hold the same motion in metres.
void expect_same_motion(const fs::path& a_path, const fs::path& b_path) {
  const LoadedClip a = load_clip(a_path), b = load_clip(b_path);
  ASSERT_EQ(a.clip.frame_count, b.clip.frame_count);
  ASSERT_EQ(a.clip.joint_count(), b.clip.joint_count());
  for (int f = 0; f < a.clip.frame_count; f += 7)
    for (int j = 0; j < a.clip.joint_count(); ++j) {
      const Vec3 d = joint_world_position(a.clip, f, j) - joint_world_position(b.clip, f, j);
      ASSERT_LT(length(d), 1e-6) << "frame " << f << " joint " << j;
    }
}

TEST(BvhUnitCli, WalkWritesMetresByDefaultAndScalesEveryLengthForCentimetres) {
  test::TempDir dir;
  const std::vector<std::string> walk{"walk", "--duration", "2", "--fps", "30"};
  auto run = [&](const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> args = walk;
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"-o", (dir / name).string()});
    auto r = run_footfix_bounded(args, std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, 0) << r.err;
  };
  run("default.bvh", {});
  run("m.bvh", {"--bvh-unit", "m"});
  run("cm.bvh", {"--bvh-unit", "cm"});
  EXPECT_EQ(read_file(dir / "default.bvh"), read_file(dir / "m.bvh"));
  expect_lengths_scaled(dir / "m.bvh", dir / "cm.bvh", 100.0);
  expect_same_motion(dir / "m.bvh", dir / "cm.bvh");
}

TEST(BvhUnitCli, CleanConvertAndLockWriteTheUnitAskedAndKeepTheSourcesByDefault) {
  test::TempDir dir;
  const std::string walk = test::copy_walk(dir / "walk.bvh");
  // The bundled clip is in CMU units (0.056444 m): in inches every length is x 2.2222...
  const double cmu_to_inch = 0.056444 / 0.0254;
  for (const std::string command : {"clean", "lock"}) {
    const fs::path kept = dir / (command + "_kept.bvh"), inch = dir / (command + "_inch.bvh");
    auto r = run_footfix_bounded({command, walk, "-o", kept.string()}, std::chrono::seconds(60));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_footfix_bounded({command, walk, "-o", inch.string(), "--bvh-unit", "inch"}, std::chrono::seconds(60));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_lengths_scaled(kept, inch, cmu_to_inch);
    expect_same_motion(kept, inch);
  }
  auto r = run_footfix_bounded({"convert", walk, (dir / "convert_kept.bvh").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_footfix_bounded({"convert", walk, (dir / "convert_cm.bvh").string(), "--bvh-unit", "cm"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_lengths_scaled(dir / "convert_kept.bvh", dir / "convert_cm.bvh", 5.6444);
  expect_same_motion(walk, dir / "convert_cm.bvh");
}

TEST(BvhUnitCli, AnUnknownUnitIsAUsageError) {
  test::TempDir dir;
  const std::string walk = test::copy_walk(dir / "walk.bvh");
  auto r = run_footfix_bounded({"convert", walk, (dir / "out.bvh").string(), "--bvh-unit", "furlong"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "--bvh-unit")) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out.bvh"));
}

}  // namespace
}  // namespace footfix
