// Terrain heights and normals, short names and JSON descriptions.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

#include "footfix/core/error.h"
#include "cli/run_footfix.h"
#include "footfix/files/atomic_file.h"
#include "footfix/walk/terrain.h"
#include "unit/contacts_json_schema.h"

namespace footfix {
namespace {

/// The normal from central differences of the height (independent of Terrain::normal).
Vec3 numeric_normal(const Terrain& t, double x, double z) {
  const double h = 1e-5;
  const double dx = (t.height(x + h, z) - t.height(x - h, z)) / (2 * h);
  const double dz = (t.height(x, z + h) - t.height(x, z - h)) / (2 * h);
  return normalize(Vec3{-dx, 1, -dz});
}

TEST(WalkTerrain, ShortNames) {
  EXPECT_EQ(parse_terrain_spec("flat").kind, TerrainKind::flat);
  const Terrain s = parse_terrain_spec("slope:10");
  EXPECT_EQ(s.kind, TerrainKind::slope);
  EXPECT_DOUBLE_EQ(s.slope_deg, 10);
  EXPECT_EQ(parse_terrain_spec("hills").kind, TerrainKind::hills);
  const Terrain st = parse_terrain_spec("stairs:0.18:0.3");
  EXPECT_DOUBLE_EQ(st.stair_rise_m, 0.18);
  EXPECT_DOUBLE_EQ(st.stair_run_m, 0.3);
  // Stairs down: the same stairs with their rise negated (each tread lower along +Z).
  const Terrain down = parse_terrain_spec("stairs-down");
  EXPECT_EQ(down.kind, TerrainKind::stairs);
  EXPECT_DOUBLE_EQ(down.stair_rise_m, -Terrain{}.stair_rise_m);
  EXPECT_LT(down.height(0, down.stair_start_z_m + 0.5), down.height(0, 0));
  EXPECT_DOUBLE_EQ(parse_terrain_spec("stairs-down:0.18:0.3").stair_rise_m, -0.18);
  for (const char* bad : {"slope:abc", "slope:45", "stairs:0.5:0.3", "hill", "flat:3", "stairs:0.1", "stairs:-0.1:0.3",
                          "stairs-down:-0.1:0.3", "stairs-down:0.3:0.3", "stairs-down:0.1"})
    EXPECT_THROW(parse_terrain_spec(bad), Error) << bad;
}

TEST(WalkTerrain, SlopeRisesAlongZ) {
  const Terrain t = parse_terrain_spec("slope:10");
  EXPECT_NEAR(t.height(0.3, 2.0), 2.0 * std::tan(10 * k_deg_to_rad), 1e-12);
  EXPECT_NEAR(t.height(-5, 0), 0, 1e-12);
  const Vec3 n = t.normal(1, 1);
  EXPECT_NEAR(std::acos(n.y) * k_rad_to_deg, 10, 1e-9);
  EXPECT_LT(n.z, 0);  // tilts back, against the climb
}

TEST(WalkTerrain, NormalsMatchTheHeightField) {
  for (const char* spec : {"slope:7", "hills"}) {
    const Terrain t = parse_terrain_spec(spec);
    for (double x : {-1.3, 0.0, 0.4, 2.2})
      for (double z : {-0.5, 0.7, 1.9, 3.3}) {
        const Vec3 a = t.normal(x, z), b = numeric_normal(t, x, z);
        EXPECT_LT(length(a - b), 1e-7) << spec << " " << x << " " << z;
      }
  }
}

TEST(WalkTerrain, StairsHaveTreadsOfRiseAndRun) {
  const Terrain t = parse_terrain_spec("stairs");
  EXPECT_DOUBLE_EQ(t.height(0, t.stair_start_z_m - 0.01), 0);
  EXPECT_NEAR(t.height(0, t.stair_start_z_m + 0.01), t.stair_rise_m, 1e-12);
  EXPECT_NEAR(t.height(0.5, t.stair_start_z_m + 2.5 * t.stair_run_m), 3 * t.stair_rise_m, 1e-12);
  EXPECT_NEAR(t.height(0, t.stair_start_z_m + 100), (t.stair_count + 1) * t.stair_rise_m, 1e-12);  // landing
  EXPECT_EQ(t.tread_index(t.stair_start_z_m - 0.1), -1);
  EXPECT_EQ(t.tread_index(t.stair_start_z_m + 1.5 * t.stair_run_m), 1);
  const Vec3 n = t.normal(0, t.stair_start_z_m + 0.1);
  EXPECT_EQ(n, (Vec3{0, 1, 0}));
}

TEST(WalkTerrain, JsonRoundTripAndLocatedErrors) {
  Terrain t = parse_terrain_spec("stairs:0.12:0.4");
  t.stair_count = 5;
  const Terrain back = parse_terrain_json(terrain_to_json_text(t), "t.json");
  EXPECT_EQ(back.kind, TerrainKind::stairs);
  EXPECT_DOUBLE_EQ(back.stair_rise_m, 0.12);
  EXPECT_DOUBLE_EQ(back.stair_run_m, 0.4);
  EXPECT_EQ(back.stair_count, 5);
  auto message = [](const std::string& text) -> std::string {
    try {
      parse_terrain_json(text, "t.json");
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(message(R"({"kind": "slope", "slope_deg": "steep"})"), "t.json: slope_deg: expected a number, got \"steep\"");
  EXPECT_EQ(message(R"({"kind": "hills", "rise_m": 0.1})"), "t.json: rise_m: unknown key for a hills terrain");
  EXPECT_EQ(message(R"({"kind": "volcano"})"), "t.json: kind: expected flat, slope, hills or stairs, got \"volcano\"");
  EXPECT_NE(message(R"({"kind": "stairs", "run_m": 0.1})").find("t.json: run_m must be in"), std::string::npos);
  EXPECT_NE(message(R"({"kind": "flat",)").find("t.json: byte"), std::string::npos);
}

TEST(WalkTerrain, WrittenTerrainsAreValidUnderTheSchema) {
  const auto schema = nlohmann::json::parse(read_file(std::string(FOOTFIX_SCHEMA_DIR) + "/terrain.schema.json"));
  for (const char* spec : {"flat", "slope:-12", "hills", "stairs:0.2:0.35", "stairs-down:0.2:0.35"}) {
    const auto doc = nlohmann::json::parse(terrain_to_json_text(parse_terrain_spec(spec)));
    const auto errors = test::SchemaValidator::validate(schema, doc);
    EXPECT_TRUE(errors.empty()) << spec << ": " << (errors.empty() ? "" : errors.front());
  }
  EXPECT_FALSE(test::SchemaValidator::validate(schema, nlohmann::json::parse(R"({"kind": "stairs", "run_m": 0.1})")).empty());
  EXPECT_FALSE(test::SchemaValidator::validate(schema, nlohmann::json::parse(R"({"slope_deg": 3})")).empty());
}

TEST(WalkTerrain, FromAJsonFile) {
  test::TempDir dir;
  const auto path = dir / "hills.json";
  std::ofstream(path) << R"({"format": "footfix-terrain", "kind": "hills", "amplitude_m": 0.05, "wavelength_m": 3})";
  const Terrain t = parse_terrain_spec(path.string());
  EXPECT_EQ(t.kind, TerrainKind::hills);
  EXPECT_NEAR(t.height(0, 0.75), 0.05, 1e-12);  // cos(0) sin(pi/2)
  EXPECT_THROW(parse_terrain_spec((dir / "missing.json").string()), Error);
}

}  // namespace
}  // namespace footfix
