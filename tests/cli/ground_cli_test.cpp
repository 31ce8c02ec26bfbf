// --ground (issue 30, section 2): generated clips float or sink. The bundled walk moved up by
// 70 cm and down by 87 cm is put back on the ground at 0 by `clean --ground auto`, which
// reports the move; --ground HEIGHT moves by the height given; keep (the default) moves nothing.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "cli/bvh_variant_helpers.h"
#include "support/clip_variants.h"

namespace footfix {
namespace {

using test::clean_text;
using test::cleaned_contacts;

constexpr double k_cmu_meters_per_unit = 0.056444;  // the bundled walk's unit

/// The bundled walk's BVH text with its whole body moved up by `dy_m` meters.
std::string walk_moved_up(double dy_m) {
  Clip clip = test::walk_source_clip();
  for (int f = 0; f < clip.frame_count; ++f) clip.translation(f, 0).y += dy_m / k_cmu_meters_per_unit;
  return test::bvh_text(clip);
}

/// The mean height (m) of the planted positions in a contacts JSON.
double planted_height(const nlohmann::json& contacts) {
  double sum = 0;
  int n = 0;
  for (const auto& foot : contacts.at("feet"))
    for (const auto& in : foot.at("intervals")) {
      sum += in.at("position_m").at(1).get<double>();
      ++n;
    }
  return n > 0 ? sum / n : 0;
}

TEST(GroundCli, AutoPutsFloatingAndSinkingClipsOnTheGround) {
  test::TempDir dir;
  auto base = clean_text(dir, "walk.bvh", walk_moved_up(0), {"--ground", "auto"});
  ASSERT_EQ(base.exit_code, 0) << base.err;
  const nlohmann::json on_ground = cleaned_contacts(dir, "walk.bvh");
  const double base_offset = on_ground.at("ground_offset_m").get<double>();
  EXPECT_LT(std::abs(base_offset), 0.05);  // captured on a floor near 0
  for (double dy : {0.7, -0.87}) {
    SCOPED_TRACE(dy);
    auto r = clean_text(dir, "moved.bvh", walk_moved_up(dy), {"--ground", "auto"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("so the planted feet stand on the ground at 0"), std::string::npos) << r.err;
    const nlohmann::json moved = cleaned_contacts(dir, "moved.bvh");
    EXPECT_NEAR(moved.at("ground_offset_m").get<double>(), base_offset - dy, 0.01);
    EXPECT_NEAR(planted_height(moved), planted_height(on_ground), 0.01);
  }
}

TEST(GroundCli, HeightMovesByTheGivenGroundAndKeepMovesNothing) {
  test::TempDir dir;
  auto kept = clean_text(dir, "moved.bvh", walk_moved_up(0.7));
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  const nlohmann::json floating = cleaned_contacts(dir, "moved.bvh");
  EXPECT_FALSE(floating.contains("ground_offset_m"));
  auto r = clean_text(dir, "moved.bvh", walk_moved_up(0.7), {"--ground", "0.7"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json grounded = cleaned_contacts(dir, "moved.bvh");
  EXPECT_DOUBLE_EQ(grounded.at("ground_offset_m").get<double>(), -0.7);
  EXPECT_NEAR(planted_height(grounded), planted_height(floating) - 0.7, 0.005);
  auto bad = clean_text(dir, "moved.bvh", walk_moved_up(0.7), {"--ground", "high"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--ground must be keep, auto or a height"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace footfix
