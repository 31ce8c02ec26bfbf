// Leg rig and convention detection on bundled clips and on rigs built to look unfamiliar.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "footfix/core/error.h"
#include "core/source_basis.h"  // internal to core, not installed
#include "footfix/core/fk.h"
#include "footfix/files/atomic_file.h"
#include "footfix/bvh/bvh.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/rig/leg_rig.h"
#include "support/paths.h"

namespace footfix {
namespace {

Clip read_source(const std::filesystem::path& path) { return parse_bvh(read_file(path), path.string()); }

std::string leg_names(const Clip& clip, const LegChain& leg) {
  auto n = [&](int j) { return j >= 0 ? clip.skeleton.names[j] : std::string("-"); };
  return n(leg.hip) + ">" + n(leg.knee) + ">" + n(leg.heel) + ">" + n(leg.toe);
}

TEST(RigDetect, CmuWalkLegsAndUnits) {
  LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip& clip = loaded.clip;
  EXPECT_EQ(leg_names(clip, loaded.rig.leg(Side::left)), "LeftUpLeg>LeftLeg>LeftFoot>LeftToeBase");
  EXPECT_EQ(leg_names(clip, loaded.rig.leg(Side::right)), "RightUpLeg>RightLeg>RightFoot>RightToeBase");
  EXPECT_EQ(clip.skeleton.names[loaded.rig.pelvis], "Hips");
  EXPECT_EQ(clip.skeleton.names[loaded.rig.translation_joint], "Hips");
  EXPECT_DOUBLE_EQ(clip.source_frame.meters_per_unit, 0.056444);
  EXPECT_EQ(clip.source_frame.up, Axis::pos_y);
}

// The same clip with every joint renamed to meaningless names: legs from structure, sides from
// geometry (left = up x forward).
TEST(RigDetect, UnknownNamesUseStructureAndGeometry) {
  Clip clip = read_source(test::data_clip("cmu_07_01_walk.bvh"));
  Clip renamed = clip;
  for (int j = 0; j < renamed.joint_count(); ++j) renamed.skeleton.names[j] = "bone" + std::to_string(j);
  Rig named = detect_rig(clip);
  Rig anonymous = detect_rig(renamed);
  for (int s = 0; s < 2; ++s) {
    EXPECT_EQ(anonymous.legs[s].hip, named.legs[s].hip) << s;
    EXPECT_EQ(anonymous.legs[s].heel, named.legs[s].heel) << s;
    EXPECT_EQ(anonymous.legs[s].toe, named.legs[s].toe) << s;
  }
  EXPECT_EQ(clip.skeleton.names[anonymous.leg(Side::left).hip], "LeftUpLeg");
}

// find_legs picks detect_rig's joints, sides told by names or by the geometry, without the knee
// axes (they are the converted clip's) and without warnings.
TEST(RigDetect, FindLegsPicksDetectRigsJoints) {
  Clip clip = read_source(test::data_clip("cmu_07_01_walk.bvh"));
  Clip renamed = clip;
  for (int j = 0; j < renamed.joint_count(); ++j) renamed.skeleton.names[j] = "bone" + std::to_string(j);
  for (const Clip* c : {&clip, &renamed}) {
    const Rig full = detect_rig(*c);
    const Rig legs = find_legs(*c);
    EXPECT_EQ(legs.pelvis, full.pelvis);
    EXPECT_EQ(legs.translation_joint, full.translation_joint);
    for (int s = 0; s < 2; ++s) {
      EXPECT_EQ(leg_names(*c, legs.legs[s]), leg_names(*c, full.legs[s])) << s;
      EXPECT_EQ(legs.legs[s].toe_end, full.legs[s].toe_end) << s;
      EXPECT_EQ(legs.legs[s].knee_side_ls, LegChain{}.knee_side_ls) << s;
    }
    EXPECT_TRUE(legs.warnings.empty());
  }
  // Mirrored (x -> -x): the leg first in the file is now on the character's right, which only
  // the geometry can tell.
  Clip mirrored = renamed;
  for (Vec3& t : mirrored.translations) t.x = -t.x;
  for (Vec3& o : mirrored.skeleton.rest_offsets) o.x = -o.x;
  for (Quat& q : mirrored.rotations) q = Quat{q.w, q.x, -q.y, -q.z};
  EXPECT_EQ(find_legs(mirrored).leg(Side::left).hip, clip.skeleton.find("RightUpLeg"));
  EXPECT_EQ(detect_rig(mirrored).leg(Side::left).hip, clip.skeleton.find("RightUpLeg"));
}

// Knee axes derived from the bend: rotating the knee about knee_side_ls bends the leg (the
// hip-heel distance shrinks), on both legs.
TEST(RigDetect, KneeSideAxisBendsTheKnee) {
  LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  for (const auto& leg : loaded.rig.legs) {
    Clip c = loaded.clip;
    auto hip_heel = [&](const Clip& k) {
      Vec3 hip{}, heel{};
      std::vector<Transform> w(k.joint_count());
      world_pose(k, 10, w);
      hip = w[leg.hip].translation;
      heel = w[leg.heel].translation;
      return length(heel - hip);
    };
    double before = hip_heel(c);
    c.rotation(10, leg.knee) = c.rotation(10, leg.knee) * axis_angle(leg.knee_side_ls, 0.3);
    EXPECT_LT(hip_heel(c), before - 0.01);
  }
}

Clip synthetic_no_toe_rig() {
  // hip > lThigh > lShin > lFoot (end site), and the right side alike: no toe joints.
  std::string bvh =
      "HIERARCHY\nROOT hip\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
      " JOINT abdomen\n {\n  OFFSET 0 20 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "  End Site\n  {\n   OFFSET 0 30 0\n  }\n }\n"
      " JOINT lThigh\n {\n  OFFSET 10 -5 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "  JOINT lShin\n  {\n   OFFSET 0 -42 2\n   CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "   JOINT lFoot\n   {\n    OFFSET 0 -40 -2\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "    End Site\n    {\n     OFFSET 0 -5 12\n    }\n   }\n  }\n }\n"
      " JOINT rThigh\n {\n  OFFSET -10 -5 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "  JOINT rShin\n  {\n   OFFSET 0 -42 2\n   CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "   JOINT rFoot\n   {\n    OFFSET 0 -40 -2\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "    End Site\n    {\n     OFFSET 0 -5 12\n    }\n   }\n  }\n }\n}\n"
      "MOTION\nFrames: 3\nFrame Time: 0.0333333\n";
  // Centimeters, Y up; the knees bend by 20 degrees.
  for (int f = 0; f < 3; ++f) {
    bvh += std::to_string(f * 3) + " 90 0 0 0 0";
    for (int j = 0; j < 7; ++j) bvh += " 0 " + std::to_string(j == 2 || j == 5 ? 20 : 0) + " 0";
    bvh += "\n";
  }
  return parse_bvh(bvh, "synthetic.bvh");
}

TEST(RigDetect, RigWithoutToesLocksTheHeelWithAWarning) {
  Clip clip = synthetic_no_toe_rig();
  Rig rig = detect_rig(clip);
  EXPECT_EQ(leg_names(clip, rig.leg(Side::left)), "lThigh>lShin>lFoot>-");
  EXPECT_EQ(leg_names(clip, rig.leg(Side::right)), "rThigh>rShin>rFoot>-");
  EXPECT_EQ(rig.leg(Side::left).contact_joint(), clip.skeleton.find("lFoot"));
  bool warned = false;
  for (const auto& w : rig.warnings) warned = warned || w.find("no toe joint") != std::string::npos;
  EXPECT_TRUE(warned);
  SourceFrame frame = detect_source_frame(clip, rig);
  EXPECT_DOUBLE_EQ(frame.meters_per_unit, 0.01);
  EXPECT_EQ(frame.up, Axis::pos_y);
}

TEST(RigDetect, UpAxisFromTheMotion) {
  // The CMU walk re-expressed with Z up must be detected as Z up with the same unit.
  Clip clip = read_source(test::data_clip("cmu_07_01_walk.bvh"));
  Quat to_z = inverse(source_to_internal_basis(Axis::pos_z));
  for (auto& t : clip.translations) t = rotate(to_z, t);
  for (auto& o : clip.skeleton.rest_offsets) o = rotate(to_z, o);
  for (auto& q : clip.rotations) q = to_z * q * inverse(to_z);
  Rig rig = detect_rig(clip);
  SourceFrame frame = detect_source_frame(clip, rig);
  EXPECT_EQ(frame.up, Axis::pos_z);
  EXPECT_DOUBLE_EQ(frame.meters_per_unit, 0.056444);
  EXPECT_EQ(clip.skeleton.names[rig.leg(Side::left).hip], "LeftUpLeg");
}

TEST(RigProfile, NamesOverrideDetectionAndBadProfilesAreLocated) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "footfix_rig_profile_test";
  std::filesystem::create_directories(dir);
  auto profile_path = dir / "swap.json";
  {
    std::ofstream(profile_path) << R"({"left": {"hip": "RightUpLeg", "knee": "RightLeg", "heel": "RightFoot", "toe": "RightToeBase"},
                                       "right": {"hip": "LeftUpLeg", "knee": "LeftLeg", "heel": "LeftFoot", "toe": "LeftToeBase",
                                                 "knee_side_axis": [0, 0, 2]}})";
  }
  RigProfile profile = read_rig_profile(profile_path.string());
  Clip clip = read_source(test::data_clip("cmu_07_01_walk.bvh"));
  Rig rig = detect_rig(clip, &profile);
  EXPECT_EQ(clip.skeleton.names[rig.leg(Side::left).hip], "RightUpLeg");
  EXPECT_NEAR(rig.leg(Side::right).knee_side_ls.z, 1.0, 1e-12);

  auto bad = dir / "bad.json";
  std::ofstream(bad) << R"({"left": {"hip": 3}})";
  try {
    read_rig_profile(bad.string());
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::read);
    EXPECT_NE(std::string(e.what()).find("left.hip must be a string"), std::string::npos) << e.what();
  }
  auto missing = dir / "missing.json";
  std::ofstream(missing) << R"({"left": {"hip": "NoSuchJoint"}})";
  RigProfile p2 = read_rig_profile(missing.string());
  try {
    detect_rig(clip, &p2);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'NoSuchJoint' not in the skeleton"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace footfix
