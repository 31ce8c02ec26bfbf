// A cycle's wrapped clip made in place from a handed-over clip is the one made from a copy, and
// cutting it back gives the clip's own frames.
#include <gtest/gtest.h>

#include "footfix/pipeline/load_clip.h"
#include "solve/loop_wrap.h"
#include "support/paths.h"

namespace footfix {
namespace {

TEST(LoopWrap, InPlaceEqualsCopyAndCutsBack) {
  LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip& clip = loaded.clip;
  const int n = clip.frame_count, pad = 30;
  ASSERT_GT(n, 2 * pad);
  const Clip copied = wrap_loop(clip, loaded.rig, pad);
  Clip handed = clip;
  const Clip in_place = wrap_loop(std::move(handed), loaded.rig, pad);
  EXPECT_EQ(handed.frame_count, 0);
  ASSERT_EQ(in_place.frame_count, n + 2 * pad);
  EXPECT_EQ(copied.frame_count, n + 2 * pad);
  EXPECT_EQ(in_place.rotations, copied.rotations);
  EXPECT_EQ(in_place.translations, copied.translations);
  EXPECT_EQ(in_place.source, nullptr);
  // The middle is the clip; before it, its tail (frames n-1-pad .. n-2) one cycle back.
  const int root = loaded.rig.translation_joint;
  for (int j = 0; j < clip.joint_count(); ++j) {
    EXPECT_EQ(in_place.rotation(pad, j), clip.rotation(0, j));
    EXPECT_EQ(in_place.rotation(0, j), clip.rotation(n - 1 - pad, j));
    EXPECT_EQ(in_place.rotation(n + pad, j), clip.rotation(1, j));
    if (j != root) {
      EXPECT_EQ(in_place.translation(0, j), clip.translation(n - 1 - pad, j));
    }
  }
  Clip cut = in_place;
  keep_frames(cut, pad, n);
  EXPECT_EQ(cut.frame_count, n);
  EXPECT_EQ(cut.rotations, clip.rotations);
  EXPECT_EQ(cut.translations, clip.translations);
}

}  // namespace
}  // namespace footfix
