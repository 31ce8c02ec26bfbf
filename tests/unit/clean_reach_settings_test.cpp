// The `solve.reach_limit` clean setting: true turns on the reach-limited solve, it is written back
// by clean_settings_to_json, and anything but a boolean is a usage error naming the key.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "footfix/core/error.h"
#include "solve/clean_settings_json.h"

namespace footfix {
namespace {

TEST(CleanReachSettings, ReachLimitTurnsOnTheReachLimitedSolveAndRoundTrips) {
  const CleanSettings plain = clean_settings_from_json(nlohmann::json::parse(R"({"solve": {"reach_limit": false}})"), "s");
  EXPECT_EQ(plain.solve.fast_reach_weight, 0.0);
  EXPECT_FALSE(clean_settings_to_json(plain)["solve"]["reach_limit"].get<bool>());

  const CleanSettings reach = clean_settings_from_json(nlohmann::json::parse(R"({"solve": {"reach_limit": true}})"), "s");
  OfflineSolveSettings expected;
  use_reach_limit(expected);
  EXPECT_GT(reach.solve.fast_reach_weight, 0.0);
  EXPECT_EQ(reach.solve.fast_reach_weight, expected.fast_reach_weight);
  EXPECT_EQ(reach.solve.fast_pelvis_height, expected.fast_pelvis_height);
  EXPECT_EQ(reach.solve.fast_blend_s, expected.fast_blend_s);
  EXPECT_EQ(reach.solve.fast_pelvis_blend_s, expected.fast_pelvis_blend_s);
  EXPECT_EQ(reach.solve.fast_lock_anchor, 0.0);
  const nlohmann::json written = clean_settings_to_json(reach);
  EXPECT_TRUE(written["solve"]["reach_limit"].get<bool>());
  EXPECT_EQ(clean_settings_from_json(written, "again").solve.fast_reach_weight, reach.solve.fast_reach_weight);
}

TEST(CleanReachSettings, ReachLimitMustBeABoolean) {
  try {
    clean_settings_from_json(nlohmann::json::parse(R"({"solve": {"reach_limit": 1}})"), "s.json");
    FAIL() << "accepted a number";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("reach_limit"), std::string::npos) << e.what();
  }
}

TEST(CleanSwingBlendSettings, ReadWrittenAndTurnedOffByTheReachLimitUnlessGiven) {
  auto parse = [](const char* text) { return clean_settings_from_json(nlohmann::json::parse(text), "s.json").solve; };
  EXPECT_EQ(parse(R"({})").swing_blend_s, OfflineSolveSettings{}.swing_blend_s);
  EXPECT_EQ(parse(R"({"solve": {"swing_blend_s": 0}})").swing_blend_s, 0.0);
  EXPECT_EQ(parse(R"({"solve": {"reach_limit": true}})").swing_blend_s, 0.0);
  EXPECT_EQ(parse(R"({"solve": {"reach_limit": true, "swing_blend_s": 0.1}})").swing_blend_s, 0.1);
  const OfflineSolveSettings given = parse(R"({"solve": {"swing_blend_s": 0.3}})");
  CleanSettings settings;
  settings.solve = given;
  const nlohmann::json written = clean_settings_to_json(settings);
  EXPECT_EQ(written["solve"]["swing_blend_s"].get<double>(), 0.3);
  EXPECT_EQ(clean_settings_from_json(written, "again").solve.swing_blend_s, 0.3);
}

/// A numeric key of the settings file (`section`.`key`, read by `get`): absent gives the
/// default, 0 is read, and `value` written comes back.
template <typename Get>
void expect_key_read_and_written(const std::string& section, const std::string& key, double value, Get get) {
  SCOPED_TRACE(section + "." + key);
  auto with = [&](double v) { return clean_settings_from_json(nlohmann::json{{section, {{key, v}}}}, "s.json"); };
  EXPECT_EQ(get(clean_settings_from_json(nlohmann::json::object(), "s.json")), get(CleanSettings{}));
  EXPECT_EQ(get(with(0)), 0.0);
  const nlohmann::json written = clean_settings_to_json(with(value));
  EXPECT_EQ(written[section][key].get<double>(), value);
  EXPECT_EQ(get(clean_settings_from_json(written, "again")), value);
}

TEST(CleanSettingsKeys, FootPitchShortSwingAndPopRatioAreReadAndWritten) {
  expect_key_read_and_written("ik", "max_foot_pitch_deg", 35, [](const CleanSettings& s) { return s.ik.max_foot_pitch_deg; });
  expect_key_read_and_written("pops", "max_ratio", 2.5, [](const CleanSettings& s) { return s.pops.max_ratio; });
  expect_key_read_and_written("solve", "short_swing_s", 0.2,
                              [](const CleanSettings& s) { return s.solve.fast_short_swing_s; });
  expect_key_read_and_written("solve", "pelvis_height", 2, [](const CleanSettings& s) { return s.solve.fast_pelvis_height; });
}

TEST(CleanSettingsKeys, PelvisHeightOutOfRangeNamesTheKey) {
  for (const char* text : {R"({"solve": {"pelvis_height": -1}})", R"({"solve": {"pelvis_height": 1000}})"}) {
    try {
      clean_settings_from_json(nlohmann::json::parse(text), "s.json");
      FAIL() << "accepted " << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::usage);
      EXPECT_NE(std::string(e.what()).find("pelvis_height"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace footfix
