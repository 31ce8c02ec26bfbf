// Unit detection on synthetic child-sized and adult clips written in centimetres: a leg that
// only centimetres make human is read as cm; a leg that centimetres and inches both make human
// is reported (naming --unit-scale) unless the file's naming gives its tool away; a given unit
// silences the warning. Files are real BVH files on disk, read through load_clip.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "footfix/pipeline/load_clip.h"
#include "footfix/rig/leg_rig.h"
#include "rig/unit_detection.h"  // internal to rig, not installed
#include "support/paths.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;

/// A two-legged BVH in centimetres: root `root` > {Spine, L/R UpLeg > Leg > Foot > ToeBase}.
/// Thigh and shin are `segment_cm` long each (leg length 2 x segment_cm); 20 frames of a walk.
std::string child_bvh(double segment_cm, const std::string& root = "Root") {
  auto leg = [&](const std::string& side, double x) {
    return " JOINT " + side + "UpLeg\n {\n  OFFSET " + std::to_string(x) + " -3 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n" +
           "  JOINT " + side + "Leg\n  {\n   OFFSET 0 " + std::to_string(-segment_cm) + " 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n" +
           "   JOINT " + side + "Foot\n   {\n    OFFSET 0 " + std::to_string(-segment_cm) + " 0\n" +
           "    CHANNELS 3 Zrotation Xrotation Yrotation\n    JOINT " + side + "ToeBase\n    {\n     OFFSET 0 -4 8\n" +
           "     CHANNELS 3 Zrotation Xrotation Yrotation\n     End Site\n     {\n      OFFSET 0 0 4\n     }\n    }\n   }\n  }\n }\n";
  };
  std::string bvh = "HIERARCHY\nROOT " + root + "\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n" +
                    " JOINT Spine\n {\n  OFFSET 0 10 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 20 0\n  }\n }\n" +
                    leg("Left", 6) + leg("Right", -6) + "}\nMOTION\nFrames: 20\nFrame Time: 0.0333333\n";
  for (int f = 0; f < 20; ++f) {
    const double swing = (f % 10 < 5 ? f % 10 : 10 - f % 10) * 4.0 - 10.0;  // degrees
    bvh += "0 " + std::to_string(2 * segment_cm + 7) + " " + std::to_string(f * 2.0) + " 0 0 0";
    bvh += " 0 0 0";                                                        // Spine
    bvh += " 0 " + std::to_string(swing) + " 0 0 10 0 0 -5 0 0 0 0";        // left leg
    bvh += " 0 " + std::to_string(-swing) + " 0 0 10 0 0 -5 0 0 0 0";       // right leg
    bvh += "\n";
  }
  return bvh;
}

struct Written {
  fs::path path;
  explicit Written(const std::string& name, const std::string& text)
      : path(fs::temp_directory_path() / ("footfix_units_" + std::to_string(::getpid()) + "_" + name)) {
    std::ofstream(path) << text;
  }
  ~Written() { fs::remove(path); }
};

bool has_warning(const LoadedClip& loaded, const std::string& text) {
  for (const auto& w : loaded.warnings)
    if (w.find(text) != std::string::npos) return true;
  return false;
}

std::string all_warnings(const LoadedClip& loaded) {
  std::string out;
  for (const auto& w : loaded.warnings) out += w + "\n";
  return out;
}

TEST(UnitDetection, ChildLegOnlyCentimetresMakeHumanIsCentimetres) {
  // 50 cm leg: 0.50 m in cm, 1.27 m in inches (taller than any plausible leg).
  Written file("child50.bvh", child_bvh(25));
  LoadedClip loaded = load_clip(file.path);
  EXPECT_DOUBLE_EQ(loaded.clip.source_frame.meters_per_unit, 0.01);
  EXPECT_FALSE(has_warning(loaded, "unit")) << all_warnings(loaded);
}

TEST(UnitDetection, AmbiguousChildLegWarnsAndNamesUnitScale) {
  // 44 cm leg: 0.44 m in cm and 1.12 m in inches are both plausible, and neither is a usual
  // adult's: the body sets the scale (leg 0.85 m), and the warning names both units.
  Written file("child44.bvh", child_bvh(22));
  LoadedClip loaded = load_clip(file.path);
  EXPECT_NEAR(loaded.clip.source_frame.meters_per_unit, 0.85 / 44, 1e-3) << all_warnings(loaded);
  EXPECT_TRUE(has_warning(loaded, "ambiguous unit")) << all_warnings(loaded);
  EXPECT_TRUE(has_warning(loaded, "--unit-scale")) << all_warnings(loaded);
  EXPECT_TRUE(has_warning(loaded, "cm (leg 0.44 m)")) << all_warnings(loaded);
  EXPECT_TRUE(has_warning(loaded, "inch (leg 1.12 m)")) << all_warnings(loaded);
  // The warning belongs to this clip's load; the CLI names the file (WarningsPolicyCli).
  EXPECT_FALSE(has_warning(loaded, file.path.string())) << all_warnings(loaded);

  ReadOptions given;
  given.meters_per_unit = 0.01;
  LoadedClip forced = load_clip(file.path, given);
  EXPECT_DOUBLE_EQ(forced.clip.source_frame.meters_per_unit, 0.01);
  EXPECT_FALSE(has_warning(forced, "unit")) << all_warnings(forced);
}

TEST(UnitDetection, NoUsualUnitScalesTheBodyToAnAdultsLeg) {
  // A 185-unit leg: 1.85 m in cm, 0.185 m in mm, nothing usual in any unit. The body sets the
  // scale: a leg of 0.85 m, with one warning naming --unit-scale.
  Written file("giant185.bvh", child_bvh(92.5));
  LoadedClip loaded = load_clip(file.path);
  EXPECT_NEAR(loaded.clip.source_frame.meters_per_unit, 0.85 / 185, 1e-4) << all_warnings(loaded);
  EXPECT_TRUE(has_warning(loaded, "no common unit gives a usual leg length")) << all_warnings(loaded);
  EXPECT_TRUE(has_warning(loaded, "--unit-scale")) << all_warnings(loaded);
}

TEST(UnitDetection, ToolNamingDecidesAnAmbiguousLeg) {
  // The same 44 cm leg under Bandai Namco's root joint name: that dataset writes cm.
  Written file("child44_bandai.bvh", child_bvh(22, "joint_Root"));
  LoadedClip loaded = load_clip(file.path);
  EXPECT_DOUBLE_EQ(loaded.clip.source_frame.meters_per_unit, 0.01);
  EXPECT_FALSE(has_warning(loaded, "ambiguous")) << all_warnings(loaded);
}

TEST(UnitDetection, AdultClipsAreUnambiguous) {
  Written file("adult.bvh", child_bvh(42));
  LoadedClip adult = load_clip(file.path);
  EXPECT_DOUBLE_EQ(adult.clip.source_frame.meters_per_unit, 0.01);
  EXPECT_FALSE(has_warning(adult, "unit")) << all_warnings(adult);
  LoadedClip cmu = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  EXPECT_DOUBLE_EQ(cmu.clip.source_frame.meters_per_unit, 0.056444);
  EXPECT_FALSE(has_warning(cmu, "unit")) << all_warnings(cmu);
}

TEST(UnitDetection, PlausibleUnitsOfALegLength) {
  // Independent arithmetic: 44 units x 0.01 = 0.44 m, x 0.0254 = 1.118 m; 15 CMU units = 0.85 m.
  EXPECT_EQ(plausible_units(44), (std::vector<double>{0.01, 0.0254}));
  EXPECT_EQ(plausible_units(15), (std::vector<double>{0.056444}));
  EXPECT_TRUE(plausible_units(0.001).empty());
}

}  // namespace
}  // namespace footfix
