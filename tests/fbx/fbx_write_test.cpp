// write_fbx: edit a leg rotation and the hips translation of clips read from each Mixamo FBX,
// write, read back (assimp, via read_fbx) and compare world joint positions with the edited
// clip; everything else (mesh, skin, names, other keys, flavour) must be unchanged.
#include "footfix/fbx/fbx.h"
#include "fbx/fbx_source.h"  // FbxSource: internal to fbx, not installed

#include <cmath>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "fbx/fbx_eval.h"
#include "fbx/fbx_test_support.h"
#include "support/clip_distance.h"

namespace footfix {
namespace {

using test::assimp_summary;
using test::file_bytes;
using test::shared_clips_dir;

std::string write(const Clip& clip) {
  std::ostringstream out;
  write_fbx(clip, out);
  return out.str();
}

/// Clip as clip_io hands it over: internal frame (meters, Y up).
Clip read_internal(const std::string& bytes, const std::string& name) {
  Clip clip = read_fbx_bytes(bytes, name);
  SourceFrame frame = clip.source_frame;
  convert_to_internal(clip, frame);
  return clip;
}

/// Largest world-position distance (meters) between two internal clips.
double max_world_distance_m(const Clip& a, const Clip& b) { return test::max_world_distance(a, b); }

void edit(Clip& clip, int leg, int hips) {
  for (int f = 0; f < clip.frame_count; ++f) {
    double phase = 2 * k_pi * f / clip.frame_count;
    clip.rotation(f, leg) = normalize(clip.rotation(f, leg) * axis_angle({1, 0, 0}, 0.35 * std::sin(phase)));
    clip.translation(f, hips) += Vec3{0.04 * std::cos(phase), -0.03, 0.02};
  }
}

class FbxWrite : public ::testing::TestWithParam<const char*> {};

TEST_P(FbxWrite, EditedLegAndHipsComeBackWithinOneMillimeter) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  std::string name = GetParam();
  std::string bytes = file_bytes(shared_clips_dir() / name);
  Clip clip = read_internal(bytes, name);
  int hips = clip.skeleton.find("mixamorig:Hips");
  int leg = clip.skeleton.find("mixamorig:LeftLeg");
  ASSERT_GE(hips, 0);
  ASSERT_GT(leg, 0);
  Clip original = clip;
  edit(clip, leg, hips);
  ASSERT_GT(max_world_distance_m(clip, original), 0.05);  // the edit moves the foot by > 5 cm

  std::string out = write(clip);
  EXPECT_EQ(out.rfind("Kaydara FBX Binary", 0) == 0, bytes.rfind("Kaydara FBX Binary", 0) == 0);
  if (out.rfind("Kaydara FBX Binary", 0) == 0) {
    EXPECT_EQ(out.size() % 16, 0u);  // FBX SDK footer alignment kept
  }
  Clip back = read_internal(out, "out.fbx");
  EXPECT_EQ(back.fps, clip.fps);
  EXPECT_LT(max_world_distance_m(back, clip), 0.001);

  // Independent of assimp: evaluating the written curves gives the edited clip too.
  FbxDocument written = parse_fbx_document(out, "out");
  test::FbxEvaluator eval(written);
  std::vector<Transform> world(clip.joint_count());
  double worst_m = 0;
  for (int f = 0; f < clip.frame_count; ++f) {
    world_pose(clip, f, world);
    for (int j : {hips, leg, clip.skeleton.find("mixamorig:LeftToeBase")}) {
      aiVector3D p = eval.position(clip.skeleton.names[j], f * 1539538600LL);
      Vec3 p_m = point_to_internal(clip.source_frame, Vec3{p.x, p.y, p.z});
      worst_m = std::max(worst_m, length(p_m - world[j].translation));
    }
  }
  EXPECT_LT(worst_m, 0.001);

  // Rewritten Euler curves stay on the source's branch (the edit is zero at frame 0) and are
  // continuous.
  FbxDocument source_doc = parse_fbx_document(bytes, "src");
  test::FbxEvaluator source_eval(source_doc);
  for (int axis = 0; axis < 3; ++axis) {
    std::vector<double> before_keys = source_eval.keys("mixamorig:LeftLeg", "Lcl Rotation", axis);
    std::vector<double> after_keys = eval.keys("mixamorig:LeftLeg", "Lcl Rotation", axis);
    ASSERT_EQ(after_keys.size(), static_cast<std::size_t>(clip.frame_count));
    ASSERT_FALSE(before_keys.empty());
    EXPECT_NEAR(after_keys[0], before_keys[0], 1e-2) << axis;
    for (std::size_t k = 1; k < after_keys.size(); ++k) EXPECT_LT(std::abs(after_keys[k] - after_keys[k - 1]), 45.0);
  }

  auto before = assimp_summary(bytes);
  auto after = assimp_summary(out);
  EXPECT_EQ(before.node_names, after.node_names);
  EXPECT_EQ(before.vertices, after.vertices);
  EXPECT_EQ(before.bones, after.bones);
  // Every channel keeps its key count, except the two edited ones: one key per frame.
  ASSERT_EQ(before.keys.size(), after.keys.size());
  for (const auto& [channel, counts] : before.keys) {
    bool edited = channel == "0/mixamorig:Hips" || channel == "0/mixamorig:LeftLeg";
    unsigned frames = static_cast<unsigned>(clip.frame_count);
    EXPECT_EQ(after.keys[channel].first, edited ? frames : counts.first) << channel;
    EXPECT_EQ(after.keys[channel].second, edited ? frames : counts.second) << channel;
  }
  // Unedited joints come back bit-for-bit as the original decode did.
  int right_leg = clip.skeleton.find("mixamorig:RightLeg");
  for (int f = 0; f < clip.frame_count; ++f) EXPECT_EQ(back.rotation(f, right_leg), original.rotation(f, right_leg));
}

INSTANTIATE_TEST_SUITE_P(Mixamo, FbxWrite,
                         ::testing::Values("mixamo_walking_rootmotion_bin7700.fbx", "mixamo_walking_rootmotion_ascii7700.fbx",
                                           "mixamo_walking_inplace_bin7700.fbx", "mixamo_samba_dancing_skinned.fbx"));

TEST(FbxWriteTree, UnchangedClipWritesTheSameTree) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  for (const char* name : {"mixamo_walking_rootmotion_bin7700.fbx", "mixamo_walking_rootmotion_ascii7700.fbx",
                           "assimp_animation_with_skeleton_bin7400.fbx"}) {
    SCOPED_TRACE(name);
    std::string bytes = file_bytes(shared_clips_dir() / name);
    Clip clip = read_internal(bytes, name);
    FbxDocument in = parse_fbx_document(bytes, "in");
    FbxDocument out = parse_fbx_document(write(clip), "out");
    EXPECT_TRUE(in.same_tree(out));
  }
}

TEST(FbxWriteTree, UnanimatedJointGetsNewCurvesAndBlenderBonesRoundTrip) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  // HeadTop_End has no curves in the Mixamo walk: editing it must create a curve node + curves.
  std::string bytes = file_bytes(shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx");
  Clip clip = read_internal(bytes, "walk");
  int top = clip.skeleton.find("mixamorig:HeadTop_End");
  ASSERT_GT(top, 0);
  for (int f = 0; f < clip.frame_count; ++f) clip.rotation(f, top) = axis_angle({0, 0, 1}, 0.01 * f);
  clip.translation(5, top) += Vec3{0.1, 0, 0};
  std::string out = write(clip);
  EXPECT_EQ(assimp_summary(out).keys.count("0/mixamorig:HeadTop_End"), 1u);
  EXPECT_LT(max_world_distance_m(read_internal(out, "out"), clip), 0.001);
  FbxDocument doc = parse_fbx_document(out, "out");
  FbxDocument src = parse_fbx_document(bytes, "src");
  EXPECT_EQ(doc.root("Objects")->children.size(), src.root("Objects")->children.size() + 8);  // 2 nodes + 6 curves

  // Blender armature (x100 scale, -90 X): edit a bone, read back.
  bytes = file_bytes(shared_clips_dir() / "assimp_animation_with_skeleton_bin7400.fbx");
  clip = read_internal(bytes, "blender");
  int bone = clip.skeleton.find("Bone.002");
  ASSERT_GT(bone, 0);
  for (int f = 0; f < clip.frame_count; ++f) clip.rotation(f, bone) = normalize(clip.rotation(f, bone) * axis_angle({0, 1, 0}, 0.02 * f));
  EXPECT_LT(max_world_distance_m(read_internal(write(clip), "out"), clip), 0.001);
}

TEST(FbxWriteTree, EditOfALaterTakeLandsAtItsOwnTimes) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  std::string bytes = test::with_second_take();  // take "Second" = frames 10..20
  Clip clip = read_fbx_bytes(bytes, "two.fbx", "Second");
  SourceFrame frame = clip.source_frame;
  convert_to_internal(clip, frame);
  int hips = clip.skeleton.find("mixamorig:Hips");
  for (int f = 0; f < clip.frame_count; ++f) clip.translation(f, hips) += Vec3{0, 0.05, 0};
  std::string out = write(clip);
  Clip back = read_fbx_bytes(out, "out.fbx", "Second");
  convert_to_internal(back, frame);
  EXPECT_LT(max_world_distance_m(back, clip), 0.001);
  // The Hips Y curve now holds the 11 frames of the take, keyed from frame 10.
  FbxDocument doc = parse_fbx_document(out, "out");
  test::FbxEvaluator eval(doc);
  for (int f = 0; f < clip.frame_count; ++f) {
    aiVector3D p = eval.position("mixamorig:Hips", (f + 10) * 1539538600LL);
    Vec3 expected = point_to_source(frame, joint_world(clip, f, hips).translation);
    EXPECT_LT(length(Vec3{p.x, p.y, p.z} - expected), 0.1) << f;  // cm
  }
}

TEST(FbxWriteTree, PivotsOffsetsAndPostRotationAreInverted) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  std::string bytes = test::with_pivots();
  Clip clip = read_internal(bytes, "pivots.fbx");
  int leg = clip.skeleton.find("mixamorig:LeftLeg"), hips = clip.skeleton.find("mixamorig:Hips");
  Clip original = clip;
  edit(clip, leg, hips);
  ASSERT_GT(max_world_distance_m(clip, original), 0.05);
  std::string out = write(clip);
  EXPECT_LT(max_world_distance_m(read_internal(out, "out.fbx"), clip), 0.001);
}

TEST(FbxWriteTree, ClipWithoutFbxSourceIsAWriteError) {
  Clip clip;
  clip.source_name = "walk.bvh";
  std::ostringstream out;
  try {
    write_fbx(clip, out);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::write);
    EXPECT_STREQ(e.what(), "walk.bvh: FBX output needs a clip read from an FBX file");
  }
}

}  // namespace
}  // namespace footfix
