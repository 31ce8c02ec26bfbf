// Swing-twist joint limits and the joint-limits JSON profile.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

#include "footfix/core/error.h"
#include "footfix/files/atomic_file.h"
#include "footfix/walk/joint_limits.h"
#include "unit/contacts_json_schema.h"

namespace footfix {
namespace {

constexpr double k_deg = k_deg_to_rad;

LimitFrame hanging_frame() { return LimitFrame::from({0, -1, 0}, {1, 0, 0}); }

JointLimit test_limit() {
  JointLimit l;
  l.twist = {-20 * k_deg, 30 * k_deg};
  l.swing_x = {-60 * k_deg, 40 * k_deg};
  l.swing_z = {-10 * k_deg, 50 * k_deg};
  return l;
}

TEST(WalkLimits, SwingTwistAnglesRoundTrip) {
  const LimitFrame f = LimitFrame::from({0.2, -1, 0.1}, {1, 0.1, 0});
  for (double tw : {-40.0, 0.0, 25.0})
    for (double sx : {-70.0, 0.0, 33.0})
      for (double sz : {-15.0, 0.0, 48.0}) {
        const SwingTwistAngles a{tw * k_deg, sx * k_deg, sz * k_deg};
        const SwingTwistAngles b = swing_twist_angles(from_swing_twist(a, f), f);
        EXPECT_NEAR(b.twist, a.twist, 1e-12);
        EXPECT_NEAR(b.swing_x, a.swing_x, 1e-12);
        EXPECT_NEAR(b.swing_z, a.swing_z, 1e-12);
      }
}

TEST(WalkLimits, TwistIsTheRotationAboutTheBoneAxis) {
  const LimitFrame f = hanging_frame();
  // 30 degrees about the bone axis (down) is pure twist; about +X pure swing_x; about +Z swing_z.
  SwingTwistAngles a = swing_twist_angles(axis_angle({0, -1, 0}, 30 * k_deg), f);
  EXPECT_NEAR(a.twist, 30 * k_deg, 1e-12);
  EXPECT_NEAR(a.swing_x, 0, 1e-12);
  a = swing_twist_angles(axis_angle({1, 0, 0}, 30 * k_deg), f);
  EXPECT_NEAR(a.swing_x, 30 * k_deg, 1e-12);
  EXPECT_NEAR(a.twist, 0, 1e-12);
  a = swing_twist_angles(axis_angle({0, 0, 1}, -12 * k_deg), f);
  EXPECT_NEAR(a.swing_z, -12 * k_deg, 1e-12);
}

TEST(WalkLimits, ClampLimitsEachAngleOnceAndKeepsTheOthers) {
  const LimitFrame f = hanging_frame();
  const JointLimit l = test_limit();
  const Quat q = from_swing_twist({80 * k_deg, 20 * k_deg, -30 * k_deg}, f);
  const Quat c = clamp_to_limit(q, l, f);
  const SwingTwistAngles a = swing_twist_angles(c, f);
  EXPECT_NEAR(a.twist, 30 * k_deg, 1e-12);     // clamped to max
  EXPECT_NEAR(a.swing_x, 20 * k_deg, 1e-12);   // inside: kept
  EXPECT_NEAR(a.swing_z, -10 * k_deg, 1e-12);  // clamped to min
  EXPECT_TRUE(within_limit(c, l, f));
  EXPECT_FALSE(within_limit(q, l, f));
  // Clamping a clamped rotation changes nothing (no second, competing twist correction).
  const Quat cc = clamp_to_limit(c, l, f);
  EXPECT_NEAR(std::abs(dot(c, cc)), 1.0, 1e-14);
}

TEST(WalkLimits, SwingRangeIsRectangularNotElliptical) {
  // Both swing angles near their maxima at once: inside a rectangle, outside the inscribed
  // ellipse (0.9^2 + 0.9^2 > 1). The rotation must be left alone.
  const LimitFrame f = hanging_frame();
  const JointLimit l = test_limit();
  const Quat q = from_swing_twist({0, 0.9 * 40 * k_deg, 0.9 * 50 * k_deg}, f);
  EXPECT_TRUE(within_limit(q, l, f));
  EXPECT_NEAR(std::abs(dot(clamp_to_limit(q, l, f), q)), 1.0, 1e-14);
}

TEST(WalkLimits, RightLegMirrorsSidewaysAndTwistRanges) {
  const JointLimit l = test_limit();
  const JointLimit m = l.mirrored();
  EXPECT_DOUBLE_EQ(m.swing_z.min, -50 * k_deg);
  EXPECT_DOUBLE_EQ(m.swing_z.max, 10 * k_deg);
  EXPECT_DOUBLE_EQ(m.twist.min, -30 * k_deg);
  EXPECT_DOUBLE_EQ(m.twist.max, 20 * k_deg);
  EXPECT_DOUBLE_EQ(m.swing_x.min, l.swing_x.min);  // flexion is not mirrored
}

TEST(WalkLimits, DefaultsAreHumanRanges) {
  const LegLimits d = default_leg_limits();
  EXPECT_DOUBLE_EQ(d[LegJoint::knee].swing_x.min, 0);  // a knee never bends backwards
  EXPECT_NEAR(d[LegJoint::knee].swing_x.max, 140 * k_deg, 1e-12);
  EXPECT_NEAR(d[LegJoint::hip].swing_x.min, -120 * k_deg, 1e-12);  // hip flexion
  EXPECT_LT(d[LegJoint::knee].swing_z.max, 5 * k_deg);
}

TEST(WalkLimitsJson, BundledProfileEqualsTheDefaults) {
  const LegLimits p = read_leg_limits(std::string(FOOTFIX_DATA_DIR) + "/walk/human_limits.json");
  const LegLimits d = default_leg_limits();
  for (int j = 0; j < k_leg_joint_count; ++j) {
    EXPECT_NEAR(p.joints[j].twist.min, d.joints[j].twist.min, 1e-12) << j;
    EXPECT_NEAR(p.joints[j].twist.max, d.joints[j].twist.max, 1e-12) << j;
    EXPECT_NEAR(p.joints[j].swing_x.min, d.joints[j].swing_x.min, 1e-12) << j;
    EXPECT_NEAR(p.joints[j].swing_x.max, d.joints[j].swing_x.max, 1e-12) << j;
    EXPECT_NEAR(p.joints[j].swing_z.min, d.joints[j].swing_z.min, 1e-12) << j;
    EXPECT_NEAR(p.joints[j].swing_z.max, d.joints[j].swing_z.max, 1e-12) << j;
  }
}

TEST(WalkLimitsJson, PartialProfileOverridesOnlyWhatItNames) {
  const LegLimits p = parse_leg_limits(R"({"knee": {"swing_x_deg": [0, 100]}})", "p.json");
  EXPECT_NEAR(p[LegJoint::knee].swing_x.max, 100 * k_deg, 1e-12);
  EXPECT_DOUBLE_EQ(p[LegJoint::knee].twist.max, default_leg_limits()[LegJoint::knee].twist.max);
  EXPECT_DOUBLE_EQ(p[LegJoint::hip].swing_x.min, default_leg_limits()[LegJoint::hip].swing_x.min);
}

std::string error_of(const std::string& text) {
  try {
    parse_leg_limits(text, "limits.json");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    return e.what();
  }
  return "";
}

TEST(WalkLimitsJson, BadProfilesGiveLocatedErrors) {
  EXPECT_EQ(error_of(R"({"knee": {"swing_x_deg": [10, 5]}})"), "limits.json: knee.swing_x_deg: min 10 is greater than max 5");
  EXPECT_NE(error_of(R"({"knee": {"swing_x_deg": [5]}})").find("limits.json: knee.swing_x_deg: expected [min, max]"), std::string::npos);
  EXPECT_NE(error_of(R"({"elbow": {}})").find("limits.json: elbow: unknown key"), std::string::npos);
  EXPECT_NE(error_of(R"({"hip": {"twist": [0, 1]}})").find("limits.json: hip.twist: unknown key"), std::string::npos);
  EXPECT_NE(error_of(R"({"hip": {"twist_deg": [5, 10]}})").find("limits.json: hip: every range must contain 0"), std::string::npos);
  EXPECT_NE(error_of(R"({"toe": {"twist_deg": [-200, 10]}})").find("limits.json: toe.twist_deg: angles must lie in"), std::string::npos);
  EXPECT_NE(error_of("{\"hip\": ").find("limits.json: byte"), std::string::npos);
}

TEST(WalkLimitsJson, SchemaNamesExactlyTheKeysTheParserAccepts) {
  const auto schema = nlohmann::json::parse(read_file(std::string(FOOTFIX_SCHEMA_DIR) + "/joint_limits.schema.json"));
  for (const auto& [key, value] : schema["properties"].items()) {
    const std::string text = key == "format" ? R"({"format": "footfix-joint-limits"})" : "{\"" + key + "\": {}}";
    EXPECT_NO_THROW(parse_leg_limits(text, "s.json")) << key;
  }
  for (const auto& [key, value] : schema["properties"]["knee"]["properties"].items())
    EXPECT_NO_THROW(parse_leg_limits("{\"hip\": {\"" + key + "\": [-1, 1]}}", "s.json")) << key;
  EXPECT_EQ(schema["properties"].size(), 5u);
  // The bundled profile is valid under the schema; a misspelt key and a one-angle range are not.
  const auto bundled = nlohmann::json::parse(read_file(std::string(FOOTFIX_DATA_DIR) + "/walk/human_limits.json"));
  EXPECT_TRUE(test::SchemaValidator::validate(schema, bundled).empty());
  EXPECT_EQ(test::SchemaValidator::validate(schema, nlohmann::json::parse(R"({"knee": {"swing_x": [0, 1]}})")).size(), 1u);
  EXPECT_EQ(test::SchemaValidator::validate(schema, nlohmann::json::parse(R"({"toe": {"twist_deg": [0]}})")).size(), 1u);
}

}  // namespace
}  // namespace footfix
