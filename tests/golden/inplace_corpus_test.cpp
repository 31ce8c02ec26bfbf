// The in-place instrument on the shared walks and runs (../shared; skipped without it),
// the acceptance of bench_inplace as a test: each clip, as it is and made to slide (pelvis
// x1.25, x0.75), is made in place by removing its root's average horizontal velocity (its true
// treadmill speed is then known) and cleaned with the default settings. It must be detected as a
// treadmill clip, its planted toes' slide against their best single ground velocity must drop to
// at most 25% of the in-place input's, and the root must stay where the input had it: mean
// horizontal deviation and end-to-end drift at most 5 cm each.
// The turning walk (bandai2) is one too: made in place its root wanders along the curve and
// comes back, and its ground is still one velocity. The start-walk-stop, whose speed changes, is
// bundled: clean_inplace_test.cpp runs it.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "footfix/eval/sliding.h"
#include "footfix/eval/treadmill_metrics.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "support/clip_param_name.h"
#include "support/paths.h"

namespace footfix {
namespace {

constexpr const char* k_walks_and_runs[] = {
    "xia_neutral_01_000_walk.bvh",           "bandai1_walk_normal_001.bvh",
    "bandai1_run_active_001.bvh",            "bandai1_walk-back_active_001.bvh",
    "mixamo_walking_rootmotion_bin7700.fbx", "mixamo_walking_rootmotion_ascii7700.fbx",
    "bandai2_walk-turn-right_normal_001.bvh",
};

class InPlaceCorpus : public testing::TestWithParam<const char*> {};

TEST_P(InPlaceCorpus, TreadmillCleanMeetsTheInPlaceTargets) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  const std::string name = GetParam();
  const LoadedClip loaded = load_clip(test::shared_clips_dir() / name);
  const Rig& rig = loaded.rig;
  const ContactResult reference = detect_contacts(loaded.clip, rig, ContactSettings{});
  const ContactMask mask{reference.feet[0].contact, reference.feet[1].contact};
  for (double factor : {1.0, 1.25, 0.75}) {
    char scale[16];
    std::snprintf(scale, sizeof scale, " x%.2f", factor);
    const std::string row = name + scale;
    const Clip input = make_in_place(make_sliding(loaded.clip, rig, factor), rig);
    const CleanResult r = clean_clip(input, rig, CleanSettings{});
    ASSERT_TRUE(r.treadmill) << row;
    const double in = treadmill_slide(input, rig, mask).mean_mm_per_frame;
    const double out = treadmill_slide(r.cleaned, rig, mask).mean_mm_per_frame;
    const RootStray stray = root_stray(input, r.cleaned, rig);
    std::printf("in-place corpus: %-44s treadmill slide %.2f -> %.2f mm/f (%.1f%%), root dev %.2f cm, drift %.2f cm\n",
                row.c_str(), in, out, 100 * out / in, 100 * stray.mean_horizontal_deviation_m,
                100 * stray.end_to_end_drift_m);
    EXPECT_LE(out, 0.25 * in) << row;
    EXPECT_LE(stray.mean_horizontal_deviation_m, 0.05) << row;
    EXPECT_LE(stray.end_to_end_drift_m, 0.05) << row;
  }
}

INSTANTIATE_TEST_SUITE_P(SharedClips, InPlaceCorpus, testing::ValuesIn(k_walks_and_runs), test::clip_param_name);

}  // namespace
}  // namespace footfix
