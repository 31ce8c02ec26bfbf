// Every BVH of the shared corpus: legs found with correct sides, plausible units and up axis.
#include <gtest/gtest.h>

#include "footfix/pipeline/load_clip.h"
#include "support/paths.h"

namespace footfix {
namespace {

bool says_side(const std::string& name, Side side) {
  if (side == Side::left) return name.find("Left") != std::string::npos || name.ends_with("_L");
  return name.find("Right") != std::string::npos || name.ends_with("_R");
}

TEST(RigCorpus, EverySharedBvhHasTwoLegsWithCorrectSidesAndUnits) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::shared_clips_dir())) {
    if (entry.path().extension() != ".bvh") continue;
    SCOPED_TRACE(entry.path().filename().string());
    LoadedClip loaded = load_clip(entry.path());
    const Clip& clip = loaded.clip;
    for (int s = 0; s < 2; ++s) {
      const LegChain& leg = loaded.rig.legs[s];
      ASSERT_TRUE(leg.valid());
      for (int j : {leg.hip, leg.knee, leg.heel, leg.toe})
        EXPECT_TRUE(says_side(clip.skeleton.names[j], static_cast<Side>(s))) << clip.skeleton.names[j];
      double leg_length = length(clip.translation(0, leg.knee)) + length(clip.translation(0, leg.heel));
      EXPECT_GT(leg_length, 0.7);
      EXPECT_LT(leg_length, 1.1);
    }
    EXPECT_EQ(clip.source_frame.up, Axis::pos_y);  // every shared BVH clip is Y-up
    ++checked;
  }
  EXPECT_EQ(checked, 13);
}

}  // namespace
}  // namespace footfix
