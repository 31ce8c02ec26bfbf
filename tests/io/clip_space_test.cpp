// A clip's unit state is explicit (Clip::space): readers leave file units, convert_to_internal
// converts once (a second time is a bug and throws), and writers convert back only an internal
// clip, so writing a clip still in file units (write_fbx(read_fbx(x)) edited) keeps its values.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "footfix/files/atomic_file.h"
#include "footfix/bvh/bvh.h"
#include "footfix/fbx/fbx.h"
#include "fbx/fbx_test_support.h"
#include "support/clip_distance.h"
#include "support/paths.h"

namespace footfix {
namespace {

using test::max_world_distance;

TEST(ClipSpace, ReadersLeaveFileUnitsAndConversionHappensOnce) {
  Clip clip = parse_bvh(read_file(test::data_clip("cmu_07_01_walk.bvh")), "walk.bvh");
  EXPECT_EQ(clip.space, ClipSpace::source);
  EXPECT_FALSE(clip.source_frame_declared);
  const Vec3 hips_units = clip.translation(5, 0);
  convert_to_internal(clip, {0.056444, Axis::pos_y});
  EXPECT_EQ(clip.space, ClipSpace::internal);
  EXPECT_NEAR(clip.translation(5, 0).y, hips_units.y * 0.056444, 1e-12);
  EXPECT_THROW(convert_to_internal(clip, {0.056444, Axis::pos_y}), std::logic_error);
  EXPECT_NEAR(clip.translation(5, 0).y, hips_units.y * 0.056444, 1e-12);  // untouched by the refusal
}

TEST(ClipSpace, BvhWrittenInFileUnitsOrConvertedReadsBackTheSame) {
  const std::string text = read_file(test::data_clip("cmu_07_01_walk.bvh"));
  Clip source = parse_bvh(text, "walk.bvh");
  for (int f = 0; f < source.frame_count; ++f) source.translation(f, 0) += Vec3{3, 0, 0};  // 3 CMU units
  Clip internal = source;
  convert_to_internal(internal, {0.056444, Axis::pos_z});
  for (const Clip* clip : {&source, &internal}) {
    std::ostringstream out;
    write_bvh(*clip, out);
    Clip back = parse_bvh(out.str(), "back.bvh");
    EXPECT_LT(max_world_distance(back, source), 1e-3) << (clip == &source ? "source" : "internal");
  }
}

TEST(ClipSpace, FbxEditedInFileUnitsIsWrittenWithoutConversion) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  const std::string name = "mixamo_walking_rootmotion_bin7700.fbx";
  const std::string bytes = test::file_bytes(test::shared_clips_dir() / name);
  Clip clip = read_fbx_bytes(bytes, name);
  EXPECT_EQ(clip.space, ClipSpace::source);
  EXPECT_TRUE(clip.source_frame_declared);
  EXPECT_DOUBLE_EQ(clip.source_frame.meters_per_unit, 0.01);  // Mixamo: cm
  const int hips = clip.skeleton.find("mixamorig:Hips");
  ASSERT_GE(hips, 0);
  for (int f = 0; f < clip.frame_count; ++f) clip.translation(f, hips) += Vec3{5, -2, 1};  // cm
  std::ostringstream out;
  write_fbx(clip, out);
  Clip back = read_fbx_bytes(out.str(), "back.fbx");
  EXPECT_EQ(back.space, ClipSpace::source);
  // The edit comes back in cm (a conversion to meters on write would put it 100x off).
  EXPECT_LT(max_world_distance(back, clip), 0.1);
}

}  // namespace
}  // namespace footfix
