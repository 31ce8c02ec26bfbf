// Every clean setting has a bounded range: a value just outside it, through the real binary
// (`clean --settings FILE` and the contact options), is a usage error (exit 2) whose message
// names the key and the range, and nothing is written. Values at the ends of the ranges are
// accepted. The ranges are written here independently of the code's tables.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/run_footfix.h"
#include "support/paths.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;

struct Bound {
  const char* section;  ///< "contacts", "solve" or "ik"
  const char* key;
  const char* below;    ///< a value just under the range (JSON text)
  const char* above;    ///< a value just over the range
  const char* range;    ///< how the message states the range
};

const Bound k_bounds[] = {
    {"contacts", "speed_threshold_mps", "0.009", "5.01", "in [0.01, 5]"},
    {"contacts", "body_speed_fraction", "-0.01", "2.01", "in [0, 2]"},
    {"contacts", "body_speed_window_s", "0.009", "5.01", "in [0.01, 5]"},
    {"contacts", "ground_velocity_window_s", "-0.01", "10.01", "in [0, 10]"},
    {"contacts", "height_threshold_m", "0.0049", "1.01", "in [0.005, 1]"},
    {"contacts", "ground_window_s", "-0.01", "10.01", "in [0, 10]"},
    {"contacts", "majority_window_s", "0", "2.01", "> 0 and <= 2"},
    {"contacts", "smoothing_sigma_s", "0", "1e9", "> 0 and <= 1"},
    {"contacts", "contact_threshold", "0", "1.01", "> 0 and <= 1"},
    {"contacts", "release_threshold", "0", "0.76", "> 0 and <= contact_threshold"},
    {"contacts", "upsample_max_fps", "0.99", "240.5", "in [1, 240]"},
    {"contacts", "upsample_target_fps", "0.99", "240.5", "in [1, 240]"},
    {"solve", "reference_iterations", "0", "100001", "integer in [1, 100000]"},
    {"solve", "soft_factor", "0.0049", "0.46", "in [0.005, 0.45]"},
    {"solve", "hard_factor", "0.049", "1", "in [0.05, 0.99]"},
    {"solve", "swing_blend_s", "-0.01", "1.01", "in [0, 1]"},
    {"solve", "short_swing_s", "-0.01", "1.01", "in [0, 1]"},
    {"ik", "softness_m", "0.00049", "0.051", "in [0.0005, 0.05]"},
    {"ik", "max_foot_pitch_deg", "-0.01", "60.01", "in [0, 60]"},
    {"pops", "max_ratio", "1.04", "100.01", "in [1.05, 100]"},
};

std::string settings_json(const Bound& b, const char* value) {
  return std::string("{\"") + b.section + "\": {\"" + b.key + "\": " + value + "}}";
}

test::BoundedRun clean_with_settings(const test::TempDir& dir, const std::string& json) {
  std::ofstream(dir / "s.json") << json;
  return test::run_footfix_bounded({"clean", test::data_clip("cmu_07_01_walk.bvh").string(), "-o",
                                    (dir / "out.bvh").string(), "--settings", (dir / "s.json").string()});
}

TEST(SettingsBounds, EveryKeyOutsideItsRangeIsAUsageErrorNamingKeyAndRange) {
  test::TempDir dir;
  for (const Bound& b : k_bounds) {
    for (const char* value : {b.below, b.above}) {
      const std::string json = settings_json(b, value);
      test::BoundedRun r = clean_with_settings(dir, json);
      const std::string all = r.out + r.err;
      EXPECT_EQ(r.exit_code, 2) << json << "\n" << all;
      EXPECT_NE(all.find(std::string(b.section) + ": " + b.key + " must be"), std::string::npos) << json << "\n" << all;
      EXPECT_NE(all.find(b.range), std::string::npos) << json << "\n" << all;
      EXPECT_FALSE(fs::exists(dir / "out.bvh")) << json;
    }
  }
}

TEST(SettingsBounds, NonFiniteAndHugeValuesAreRefused) {
  test::TempDir dir;
  for (const char* json : {R"({"contacts": {"smoothing_sigma_s": 1e300}})", R"({"contacts": {"ground_window_s": -1e300}})",
                           R"({"solve": {"reference_iterations": 2147483647}})",
                           R"({"solve": {"reference_iterations": 18446744073709551615}})",
                           R"({"solve": {"reference_iterations": 1.5}})", R"({"ik": {"softness_m": 1e300}})"}) {
    test::BoundedRun r = clean_with_settings(dir, json);
    EXPECT_EQ(r.exit_code, 2) << json << "\n" << r.out << r.err;
  }
}

TEST(SettingsBounds, CommandLineContactOptionsAreBounded) {
  test::TempDir dir;
  const std::string clip = test::data_clip("cmu_07_01_walk.bvh").string();
  for (const std::vector<std::string>& option :
       {std::vector<std::string>{"--smoothing-sigma-s", "1e9"}, {"--ground-window", "11"}, {"--speed-threshold", "0"},
        {"--majority-window-s", "nan"}}) {
    std::vector<std::string> args{"clean", clip, "-o", (dir / "out.bvh").string()};
    args.insert(args.end(), option.begin(), option.end());
    test::BoundedRun r = test::run_footfix_bounded(args);
    EXPECT_EQ(r.exit_code, 2) << option[0] << "\n" << r.out << r.err;
    EXPECT_FALSE(fs::exists(dir / "out.bvh")) << option[0];
  }
  test::BoundedRun help = test::run_footfix_bounded({"clean", "--help"});
  EXPECT_NE(help.out.find("in [0.01, 5]"), std::string::npos) << help.out;
}

TEST(SettingsBounds, EndsOfTheRangesAreAccepted) {
  test::TempDir dir;
  const std::string json = R"({"contacts": {"smoothing_sigma_s": 1, "majority_window_s": 2, "ground_window_s": 10,
    "ground_velocity_window_s": 10, "body_speed_window_s": 5, "upsample_target_fps": 240},
    "solve": {"soft_factor": 0.45, "hard_factor": 0.99}, "ik": {"softness_m": 0.05}})";
  test::BoundedRun r = clean_with_settings(dir, json);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(fs::exists(dir / "out.bvh"));
}

}  // namespace
}  // namespace footfix
