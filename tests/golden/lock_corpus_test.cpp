// The runtime lock's acceptance on the shared locomotion clips (../shared; skipped without it):
// with the slide protocol (root's horizontal motion x1.25 and x0.75, measured under the unscaled
// clip's offline contacts), the runtime lock cuts contact slide to at most 60% of no fix, the
// offline clean cuts it further, the runtime's largest leg acceleration stays within 2x the
// input's, and joints other than the legs are unchanged.
#include <gtest/gtest.h>

#include <string>

#include "footfix/pipeline/load_clip.h"
#include "footfix/compare/compare_methods.h"
#include "support/locomotion_clips.h"
#include "support/clip_param_name.h"
#include "support/paths.h"

namespace footfix {
namespace {

constexpr double k_max_runtime_share = 0.60;
constexpr double k_max_accel_ratio = 2.0;

class LockCorpus : public testing::TestWithParam<const char*> {};

TEST_P(LockCorpus, RuntimeLockMeetsTheSlideProtocol) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  const std::string name = GetParam();
  LoadedClip loaded = load_clip(test::shared_clips_dir() / name);
  std::vector<CompareVariant> variants = compare_methods(loaded.clip, loaded.rig, CompareSettings{}, true);
  ASSERT_EQ(variants.size(), 3u);
  for (const CompareVariant& v : variants) {
    if (v.factor == 1.0) continue;
    const std::string row = name + (v.factor > 1 ? " x1.25" : " x0.75");
    const ClipMetrics& none = v.metrics[static_cast<int>(FixMethod::none)];
    const ClipMetrics& runtime = v.metrics[static_cast<int>(FixMethod::runtime)];
    const ClipMetrics& offline = v.metrics[static_cast<int>(FixMethod::offline)];
    ASSERT_GT(none.cleaned_slide.samples, 0) << row;
    const double share = runtime.cleaned_slide.mean_cm_per_s / none.cleaned_slide.mean_cm_per_s;
    EXPECT_LE(share, k_max_runtime_share) << row;
    EXPECT_LT(offline.cleaned_slide.mean_cm_per_s, runtime.cleaned_slide.mean_cm_per_s) << row;
    EXPECT_LE(runtime.leg_accel_ratio, k_max_accel_ratio) << row;
    EXPECT_TRUE(runtime.non_leg_unchanged()) << row;
    EXPECT_TRUE(offline.non_leg_unchanged()) << row;
    EXPECT_LE(runtime.max_new_penetration_mm, 1.0) << row;
  }
}

INSTANTIATE_TEST_SUITE_P(SharedClips, LockCorpus, testing::ValuesIn(test::k_locomotion_clips), test::clip_param_name);

}  // namespace
}  // namespace footfix
