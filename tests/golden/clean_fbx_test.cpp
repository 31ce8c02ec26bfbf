// `clean` on the shared FBX clips: the written FBX reads back (through assimp) to the pose
// footfix computed, within 1 mm at every frame, with the same joints and frames.
#include <gtest/gtest.h>

#include "footfix/core/fk.h"
#include "footfix/eval/metrics.h"
#include "footfix/eval/sliding.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "support/paths.h"
#include "support/run_cli.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;

double max_world_difference_m(const Clip& a, const Clip& b) {
  std::vector<Transform> wa(a.joint_count()), wb(b.joint_count());
  double worst = 0;
  for (int f = 0; f < a.frame_count; ++f) {
    world_pose(a, f, wa);
    world_pose(b, f, wb);
    for (int j = 0; j < a.joint_count(); ++j) worst = std::max(worst, length(wa[j].translation - wb[j].translation));
  }
  return worst;
}

TEST(CleanFbx, WrittenFbxMatchesTheCleanedPose) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  fs::path dir = test::fresh_temp_dir("clean_fbx");
  for (const char* name : {"mixamo_walking_rootmotion_bin7700.fbx", "mixamo_walking_rootmotion_ascii7700.fbx",
                           "mixamo_walking_inplace_bin7700.fbx", "mixamo_samba_dancing_skinned.fbx"}) {
    SCOPED_TRACE(name);
    LoadedClip loaded = load_clip(test::shared_clips_dir() / name);
    Clip scaled = make_sliding(loaded.clip, loaded.rig, 1.25);
    CleanResult result = clean_clip(scaled, loaded.rig, CleanSettings{});
    save_clip(result.cleaned, dir / name);
    LoadedClip reread = load_clip(dir / name);
    ASSERT_EQ(reread.clip.frame_count, scaled.frame_count);
    ASSERT_EQ(reread.clip.joint_count(), scaled.joint_count());
    for (int j = 0; j < scaled.joint_count(); ++j) ASSERT_EQ(reread.clip.skeleton.names[j], scaled.skeleton.names[j]);
    EXPECT_LT(max_world_difference_m(result.cleaned, reread.clip), 0.001);
    // The edit is real: the file's legs moved by more than the tolerance.
    EXPECT_GT(max_world_difference_m(scaled, reread.clip), 0.01);
  }
  fs::remove_all(dir);
}

// Quality protocol of the clean issue on the Mixamo root-motion walk (binary and ASCII).
TEST(CleanFbx, MixamoWalkSlidingIsRemoved) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  for (const char* name : {"mixamo_walking_rootmotion_bin7700.fbx", "mixamo_walking_rootmotion_ascii7700.fbx"}) {
    LoadedClip loaded = load_clip(test::shared_clips_dir() / name);
    ContactResult reference = detect_contacts(loaded.clip, loaded.rig, ContactSettings{});
    ContactMask mask{reference.feet[0].contact, reference.feet[1].contact};
    SlideStats own = contact_slide(loaded.clip, loaded.rig, mask);
    for (double factor : {1.25, 0.75}) {
      SCOPED_TRACE(name);
      SCOPED_TRACE(factor);
      Clip scaled = make_sliding(loaded.clip, loaded.rig, factor);
      CleanResult result = clean_clip(scaled, loaded.rig, CleanSettings{});
      ClipMetrics m = compare_clips(scaled, result.cleaned, loaded.rig, mask);
      EXPECT_LE(m.cleaned_slide.mean_mm_per_frame, 0.15 * m.source_slide.mean_mm_per_frame);
      EXPECT_LT(m.cleaned_slide.mean_mm_per_frame, own.mean_mm_per_frame);
      EXPECT_LE(m.max_new_penetration_mm, 5.0);
      EXPECT_LE(m.leg_accel_ratio, 1.5);
      EXPECT_TRUE(m.non_leg_unchanged());
    }
  }
}

TEST(CleanFbx, FbxWithoutLegsIsAClearProcessError) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  auto r = test::run_footfix("inspect " + test::quoted(test::shared_clips_dir() / "assimp_animation_with_skeleton_bin7400.fbx"));
  EXPECT_EQ(r.exit_code, 4) << r.output;
  EXPECT_NE(r.output.find("no legs found"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace footfix
