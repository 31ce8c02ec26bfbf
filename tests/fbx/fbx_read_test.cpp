// read_fbx: skeleton, timing, units and take selection on the shared FBX clips, with world joint
// positions checked against an evaluation of the FBX curves that does not go through assimp.
#include "footfix/fbx/fbx.h"
#include "fbx/fbx_source.h"  // FbxSource: internal to fbx, not installed

#include <limits>
#include <set>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "fbx/fbx_eval.h"
#include "fbx/fbx_test_support.h"

namespace footfix {
namespace {

using test::file_bytes;
using test::shared_clips_dir;

std::int64_t ktime(const Clip& clip, int frame) {
  auto* src = dynamic_cast<const FbxSource*>(clip.source.get());
  return std::llround((src->start_time_s + frame / clip.fps) * static_cast<double>(k_fbx_ktime_per_second));
}

/// Max distance (file units) between read_fbx's world joint positions and the curve evaluator's,
/// over the frames where `use(frame)` holds.
double max_world_error(const Clip& clip, bool (*use)(int) = [](int) { return true; }) {
  auto* src = dynamic_cast<const FbxSource*>(clip.source.get());
  const FbxDocument whole = src->whole_document();  // the evaluator keeps pointers into it
  test::FbxEvaluator eval(whole);
  std::vector<Transform> world(clip.joint_count());
  double worst = 0;
  for (int f = 0; f < clip.frame_count; ++f) {
    if (!use(f)) continue;
    world_pose(clip, f, world);
    for (int j = 0; j < clip.joint_count(); ++j) {
      aiVector3D p = eval.position(clip.skeleton.names[j], ktime(clip, f));
      worst = std::max(worst, length(world[j].translation - Vec3{p.x, p.y, p.z}));
    }
  }
  return worst;
}

TEST(FbxRead, MixamoRootMotionSkeletonTimingAndUnits) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  std::vector<std::string> warnings;
  Clip clip = read_fbx(shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx", "", &warnings);
  EXPECT_EQ(clip.fps, 30.0);
  EXPECT_EQ(clip.frame_count, 32);
  EXPECT_EQ(clip.source_frame.meters_per_unit, 0.01);
  EXPECT_EQ(clip.source_frame.up, Axis::pos_y);
  for (const auto& n : clip.skeleton.names) EXPECT_EQ(n.find("$AssimpFbx$"), std::string::npos) << n;
  int hips = clip.skeleton.find("mixamorig:Hips");
  int up_leg = clip.skeleton.find("mixamorig:LeftUpLeg");
  int toe = clip.skeleton.find("mixamorig:LeftToeBase");
  ASSERT_EQ(hips, 0);
  ASSERT_GT(toe, 0);
  EXPECT_EQ(clip.skeleton.parents[up_leg], hips);
  // LeftUpLeg's offset from Hips, as its Lcl Translation keys hold it: (8.2, -6.8, -1.5) cm.
  EXPECT_NEAR(clip.skeleton.rest_offsets[up_leg].x, 8.2, 0.05);
  EXPECT_NEAR(clip.skeleton.rest_offsets[up_leg].y, -6.77, 0.05);
  Vec3 hips0 = joint_world(clip, 0, hips).translation, hips_end = joint_world(clip, 31, hips).translation;
  EXPECT_NEAR(hips0.y, 101.6, 0.5);           // hips at about 1 m
  EXPECT_GT(hips_end.z - hips0.z, 150.0);     // root motion: walks forward along +Z
  double lowest = 1e9;
  for (int f = 0; f < clip.frame_count; ++f) lowest = std::min(lowest, joint_world(clip, f, toe).translation.y);
  EXPECT_GT(lowest, -2.0);
  EXPECT_LT(lowest, 12.0);  // toes reach the floor, legs not folded over the head
  EXPECT_LT(max_world_error(clip), 0.01);  // 0.1 mm
}

TEST(FbxRead, EveryMixamoClipMatchesCurveEvaluation) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  for (const char* name : {"mixamo_walking_inplace_bin7700.fbx", "mixamo_walking_rootmotion_ascii7700.fbx",
                           "mixamo_samba_dancing_skinned.fbx"}) {
    SCOPED_TRACE(name);
    Clip clip = read_fbx(shared_clips_dir() / name);
    EXPECT_EQ(clip.fps, 30.0);
    EXPECT_GT(clip.joint_count(), 40);
    EXPECT_LT(max_world_error(clip), 0.01);
  }
}

TEST(FbxRead, BinaryAndAsciiGiveTheSameClip) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  Clip b = read_fbx(shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx");
  Clip a = read_fbx(shared_clips_dir() / "mixamo_walking_rootmotion_ascii7700.fbx");
  ASSERT_EQ(a.skeleton.names, b.skeleton.names);
  ASSERT_EQ(a.frame_count, b.frame_count);
  for (std::size_t i = 0; i < a.rotations.size(); ++i) {
    EXPECT_LT(length(a.translations[i] - b.translations[i]), 1e-3);
    EXPECT_GT(std::abs(dot(a.rotations[i], b.rotations[i])), 1 - 1e-9);
  }
  EXPECT_FALSE(dynamic_cast<const FbxSource*>(a.source.get())->document.binary);
  EXPECT_TRUE(dynamic_cast<const FbxSource*>(b.source.get())->document.binary);
}

TEST(FbxRead, BlenderArmatureScaleAndTiming) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  auto path = shared_clips_dir() / "assimp_animation_with_skeleton_bin7400.fbx";
  EXPECT_EQ(list_fbx_takes(path), std::vector<std::string>{"Armature|ArmatureAction"});
  Clip clip = read_fbx(path, "Armature|ArmatureAction");
  EXPECT_EQ(clip.fps, 24.0);
  EXPECT_EQ(clip.frame_count, 21);
  // Armature + 13 bones + 2 end bones; the Cube, Light and Camera are not joints.
  EXPECT_EQ(clip.skeleton.find("Cube"), -1);
  EXPECT_EQ(clip.skeleton.find("Camera"), -1);
  ASSERT_EQ(clip.skeleton.find("Armature"), 0);
  int bone1 = clip.skeleton.find("Bone.001");
  ASSERT_GT(bone1, 0);
  // Bone.001 sits 4.469 Blender units (x100 armature scale: 446.9 cm) from Bone.
  EXPECT_NEAR(length(clip.skeleton.rest_offsets[bone1]), 446.9, 0.5);
  EXPECT_LT(max_world_error(clip), 0.05);
}

TEST(FbxRead, TakeSelectionAndErrors) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  auto path = shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx";
  EXPECT_EQ(list_fbx_takes(path), std::vector<std::string>{"mixamo.com"});
  EXPECT_EQ(read_fbx(path, "0").frame_count, 32);
  EXPECT_EQ(read_fbx(path, "mixamo.com").frame_count, 32);
  try {
    read_fbx(path, "dance");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::read);
    // Messages name the file as given, like the BVH reader's.
    EXPECT_EQ(std::string(e.what()), path.string() + ": no take named 'dance' (takes: 'mixamo.com')");
  }
  EXPECT_THROW(read_fbx(shared_clips_dir() / "missing.fbx"), Error);
}

TEST(FbxRead, NonUniformKeyTimesAreResampledOntoTheFrameGrid) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  // Every curve of the walk loses keys 2, 5, 8, ... and key 10 moves to frame 10.4.
  FbxDocument doc = parse_fbx_document(file_bytes(shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx"), "w");
  int edited = 0;
  for (auto& o : doc.root("Objects")->children) {
    if (o.name != "AnimationCurve") continue;
    auto& times = std::get<std::vector<std::int64_t>>(o.child("KeyTime")->properties[0].value);
    auto& values = std::get<std::vector<float>>(o.child("KeyValueFloat")->properties[0].value);
    if (times.size() != 32) continue;
    std::vector<std::int64_t> t2;
    std::vector<float> v2;
    for (std::size_t i = 0; i < times.size(); ++i)
      if (i % 3 != 2) {
        t2.push_back(i == 10 ? 1539538600LL * 104 / 10 : times[i]);
        v2.push_back(values[i]);
      }
    times = t2;
    values = v2;
    o.child("KeyAttrRefCount")->properties[0].value = std::vector<std::int32_t>{static_cast<std::int32_t>(t2.size())};
    ++edited;
  }
  ASSERT_GT(edited, 100);
  std::ostringstream out;
  write_fbx_document(doc, out);
  Clip clip = read_fbx_bytes(out.str(), "uneven.fbx");
  EXPECT_EQ(clip.frame_count, 32);
  EXPECT_EQ(clip.fps, 30.0);
  // Exact at kept keys; at the dropped frames, interpolated like the curves (assimp slerps
  // rotations where the curves interpolate Euler angles: up to 5 mm on the toes).
  EXPECT_LT(max_world_error(clip, [](int f) { return f % 3 != 2 && f != 10 && f != 11; }), 0.01);
  EXPECT_LT(max_world_error(clip), 0.5);
  Clip full = read_fbx(shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx");
  int hips = clip.skeleton.find("mixamorig:Hips");
  // Frame 2 was dropped: Hips is halfway between frames 1 and 3 of the full clip.
  Vec3 mid = (full.translation(1, hips) + full.translation(3, hips)) * 0.5;
  EXPECT_LT(length(clip.translation(2, hips) - mid), 1e-3);
  EXPECT_GT(length(full.translation(2, hips) - mid), 1e-3);
}

TEST(FbxRead, SeveralTakesByNameOrIndex) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  std::string bytes = test::with_second_take();
  Clip full = read_fbx_bytes(bytes, "two.fbx", "");
  Clip second = read_fbx_bytes(bytes, "two.fbx", "Second");
  Clip by_index = read_fbx_bytes(bytes, "two.fbx", "1");
  EXPECT_EQ(full.frame_count, 32);
  EXPECT_EQ(second.frame_count, 11);
  EXPECT_EQ(by_index.frame_count, 11);
  EXPECT_NEAR(dynamic_cast<const FbxSource*>(second.source.get())->start_time_s, 10.0 / 30.0, 1e-9);
  int hips = full.skeleton.find("mixamorig:Hips");
  for (int f = 0; f < second.frame_count; ++f)
    EXPECT_LT(length(second.translation(f, hips) - full.translation(f + 10, hips)), 1e-4) << f;
  EXPECT_LT(max_world_error(second), 0.01);
}

TEST(FbxRead, PivotsOffsetsAndPostRotationFollowTheCurves) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  std::string bytes = test::with_pivots();
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, "fbx");
  ASSERT_NE(scene, nullptr);
  ASSERT_NE(scene->mRootNode->FindNode("mixamorig:LeftLeg_$AssimpFbx$_RotationPivot"), nullptr);
  // The animation sits on helper nodes, not on the joint.
  std::set<std::string> channels;
  for (unsigned c = 0; c < scene->mAnimations[0]->mNumChannels; ++c) channels.insert(scene->mAnimations[0]->mChannels[c]->mNodeName.C_Str());
  EXPECT_EQ(channels.count("mixamorig:LeftLeg_$AssimpFbx$_Rotation"), 1u);
  EXPECT_EQ(channels.count("mixamorig:LeftLeg"), 0u);
  Clip clip = read_fbx_bytes(bytes, "pivots.fbx");
  EXPECT_EQ(clip.skeleton.find("mixamorig:LeftLeg_$AssimpFbx$_RotationPivot"), -1);
  int leg = clip.skeleton.find("mixamorig:LeftLeg");
  EXPECT_EQ(clip.skeleton.names[clip.skeleton.parents[leg]], "mixamorig:LeftUpLeg");
  EXPECT_LT(max_world_error(clip), 0.01);
  // The pivots moved the leg: the foot is elsewhere than in the original file.
  Clip plain = read_fbx(shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx");
  int foot = clip.skeleton.find("mixamorig:LeftFoot");
  EXPECT_GT(length(joint_world(clip, 0, foot).translation - joint_world(plain, 0, foot).translation), 1.0);
}

TEST(FbxRead, DeclaredUnitsAndUpAxisBecomeTheSourceFrame) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  FbxDocument doc = parse_fbx_document(file_bytes(shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx"), "w");
  for (auto& p : doc.root("GlobalSettings")->child("Properties70")->children) {
    if (p.properties[0].as_string() == "UnitScaleFactor") p.properties[4] = FbxProperty::real('D', 2.54);
    if (p.properties[0].as_string() == "UpAxis") p.properties[4] = FbxProperty::integer('I', 2);
    if (p.properties[0].as_string() == "UpAxisSign") p.properties[4] = FbxProperty::integer('I', -1);
  }
  std::ostringstream out;
  write_fbx_document(doc, out);
  Clip clip = read_fbx_bytes(out.str(), "inches.fbx");
  EXPECT_DOUBLE_EQ(clip.source_frame.meters_per_unit, 0.0254);
  EXPECT_EQ(clip.source_frame.up, Axis::neg_z);
  // The joints themselves stay in file units: the hips are still ~101.6 units up in Y.
  EXPECT_NEAR(joint_world(clip, 0, 0).translation.y, 101.6, 0.5);
}

TEST(FbxRead, RunawayOrNonFiniteCurvesAreRefusedBeforeAssimp) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  // assimp would split a 1e9-degree jump into ~5.5 million rotation keys per channel.
  for (float bad : {1e9f, std::numeric_limits<float>::quiet_NaN()}) {
    FbxDocument doc = parse_fbx_document(file_bytes(shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx"), "w");
    for (auto& o : doc.root("Objects")->children)
      if (o.name == "AnimationCurve") {
        auto& values = std::get<std::vector<float>>(o.child("KeyValueFloat")->properties[0].value);
        if (values.size() > 3) values[3] = bad;
      }
    std::ostringstream out;
    write_fbx_document(doc, out);
    try {
      read_fbx_bytes(out.str(), "runaway.fbx");
      ADD_FAILURE();
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::read);
      std::string msg = e.what();
      EXPECT_EQ(msg.rfind("runaway.fbx: AnimationCurve ", 0), 0u) << msg;
      EXPECT_NE(msg.find(std::isnan(bad) ? "key 3 is not a finite number" : "jump by more than"), std::string::npos) << msg;
    }
  }
}

/// The Mixamo walk with every object of the given classes removed, as bytes.
std::string without(const std::vector<std::string>& classes) {
  FbxDocument doc = parse_fbx_document(file_bytes(shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx"), "w");
  auto& objs = doc.root("Objects")->children;
  std::erase_if(objs, [&](const FbxNode& o) { return std::find(classes.begin(), classes.end(), o.name) != classes.end(); });
  std::ostringstream out;
  write_fbx_document(doc, out);
  return out.str();
}

TEST(FbxRead, NoAnimationOrNoSkeletonIsAClearError) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  std::string still = without({"AnimationStack", "AnimationLayer", "AnimationCurveNode", "AnimationCurve"});
  try {
    read_fbx_bytes(still, "still.fbx");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::read);
    EXPECT_STREQ(e.what(), "still.fbx: no animation (the file has no take)");
  }
  std::string empty = without({"AnimationCurveNode", "AnimationCurve", "Model", "NodeAttribute"});
  try {
    read_fbx_bytes(empty, "empty.fbx");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::read);
    std::string msg = e.what();
    EXPECT_EQ(msg.rfind("empty.fbx: no ", 0), 0u) << msg;
  }
}

}  // namespace
}  // namespace footfix
