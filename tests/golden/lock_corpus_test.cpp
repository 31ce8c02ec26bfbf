// The runtime lock's acceptance on the shared locomotion clips (../shared; skipped without it):
// with the slide protocol (root's horizontal motion x1.25 and x0.75, measured under the unscaled
// clip's offline contacts), the runtime lock cuts contact slide to at most 60% of no fix, the
// offline clean cuts it further, the runtime's largest leg acceleration stays within 2x the
// input's, and joints other than the legs are unchanged; no lock or unlock pops (issue 33
// section 4: per event, at most 1.5 x the input's local toe acceleration); and on every shared
// clip, the dancing one included, the runtime lock never leaves more slide than no fix.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "footfix/pipeline/load_clip.h"
#include "footfix/compare/compare_methods.h"
#include "footfix/core/error.h"
#include "footfix/eval/sliding.h"
#include "footfix/lock/event_pops.h"
#include "footfix/lock/lock_clip.h"
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

TEST_P(LockCorpus, NoLockOrUnlockPops) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  const std::string name = GetParam();
  LoadedClip loaded = load_clip(test::shared_clips_dir() / name);
  for (double factor : {1.0, 1.25, 0.75}) {
    const std::string row = name + (factor == 1.0 ? " x1.00" : factor > 1 ? " x1.25" : " x0.75");
    const Clip variant = factor == 1.0 ? loaded.clip : make_sliding(loaded.clip, loaded.rig, factor);
    const LockClipResult locked = lock_clip(variant, loaded.rig, RuntimeLockSettings{});
    const LockEventPops pops = lock_event_pops(variant, locked, loaded.rig);
    ASSERT_FALSE(pops.events.empty()) << row;
    EXPECT_LE(pops.worst_ratio, k_event_pop_limit)
        << row << ": " << (pops.worst()->lock ? "lock" : "unlock") << " at frame " << pops.worst()->frame;
  }
}

INSTANTIATE_TEST_SUITE_P(SharedClips, LockCorpus, testing::ValuesIn(test::k_locomotion_clips), test::clip_param_name);

/// The runtime lock's mean contact slide against no fix's (compare's measure), without and with
/// the slide protocol.
void expect_never_worse(const std::filesystem::path& path) {
  LoadedClip loaded = load_clip(path);
  for (const CompareVariant& v : compare_methods(loaded.clip, loaded.rig, CompareSettings{}, true)) {
    const double none = v.metrics[static_cast<int>(FixMethod::none)].cleaned_slide.mean_cm_per_s;
    const double runtime = v.metrics[static_cast<int>(FixMethod::runtime)].cleaned_slide.mean_cm_per_s;
    EXPECT_LE(runtime, none) << path.filename().string() << " x" << v.factor;
  }
}

TEST(LockNeverWorse, SambaDancingOnTheSpot) {
  // Pivots and shuffles the causal detector calls contacts: each unlock leaves a gap to close,
  // and a foot still closing it when its next contact starts must lock where it is, not slide
  // on across the planted phase.
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  expect_never_worse(test::shared_clips_dir() / "mixamo_samba_dancing_skinned.fbx");
}

TEST(LockNeverWorse, EverySharedClip) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  int compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::shared_clips_dir())) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".bvh" && ext != ".fbx") continue;
    try {
      (void)load_clip(entry.path());
    } catch (const Error&) {
      continue;  // not a character with two legs
    }
    expect_never_worse(entry.path());
    ++compared;
  }
  EXPECT_GE(compared, 15);
}

}  // namespace
}  // namespace footfix
