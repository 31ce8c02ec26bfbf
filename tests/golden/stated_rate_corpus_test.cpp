// The stated frame rate check (rig/gait_frame_rate.h) on real clips: every correctly stated clip
// of the bundled and shared corpora keeps its rate, with margin; the bundled walk resampled to
// 30 fps and stated as 100 fps is caught and put back at 30.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "footfix/pipeline/load_clip.h"
#include "footfix/rig/gait_frame_rate.h"
#include "cli/cli_test_helpers.h"
#include "support/clip_variants.h"
#include "support/paths.h"

namespace footfix {
namespace {

std::vector<std::filesystem::path> corpus_bvh() {
  std::vector<std::filesystem::path> out;
  std::vector<std::filesystem::path> dirs{test::data_clip("x").parent_path()};
  if (test::have_shared_clips()) dirs.push_back(test::shared_clips_dir());
  for (const auto& dir : dirs)
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      if (entry.path().extension() == ".bvh") out.push_back(entry.path());
  return out;
}

TEST(StatedRateCorpus, CorrectlyStatedClipsKeepTheirRateWithMargin) {
  int estimated = 0;
  for (const auto& path : corpus_bvh()) {
    SCOPED_TRACE(path.filename().string());
    const LoadedClip loaded = load_clip(path);
    const auto rate = gait_frame_rate(loaded.clip, loaded.rig);
    if (!rate) continue;  // in place, standing, too few steps
    ++estimated;
    EXPECT_FALSE(rate->contradicts);
    // Measured 0.83 to 1.29; the check acts outside [0.6, 1.6].
    EXPECT_GT(rate->factor, 0.75);
    EXPECT_LT(rate->factor, 1.4);
  }
  EXPECT_GE(estimated, 3);  // the bundled walks at least
}

TEST(StatedRateCorpus, AThirtyHertzWalkStatedAsHundredIsCaught) {
  Clip clip = test::walk_source_clip();
  test::keep_every(clip, 4);
  clip.fps = 100;
  test::TempDir dir;
  const LoadedClip loaded = load_clip(test::write_text(dir / "walk.bvh", test::bvh_text(clip)));
  EXPECT_DOUBLE_EQ(loaded.clip.fps, 30);
  ASSERT_EQ(loaded.warnings.size(), 1u);
  EXPECT_NE(loaded.warnings[0].find("states 100 fps"), std::string::npos) << loaded.warnings[0];
}

}  // namespace
}  // namespace footfix
