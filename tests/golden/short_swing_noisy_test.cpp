// Short swings between contacts on noisy capture: the fast solve ramps the locks of both contacts
// next to a swing shorter than fast_short_swing_s from soft to hard, and a soft lock's toe follows
// the input's shaking. On noisy capture the swing is widened into the contacts' uncertain ends
// instead (release_short_swing_ends), so every frame the clean plants holds its toe still. The
// case on a shared clip whose hops lift a foot for a few frames, as a monocular video capture
// writes it (bench_capture's "video" variant: 30 Hz, frame-to-frame correlated joint noise of
// 1-3 degrees) under several noise seeds, made to slide x1.25.
#include <gtest/gtest.h>

#include "footfix/eval/metrics.h"
#include "footfix/eval/sliding.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "support/capture_noise.h"
#include "support/capture_targets.h"
#include "support/paths.h"

namespace footfix {
namespace {

// The noise seeds tried (1 to this): each a different capture of the same motion.
constexpr unsigned k_video_seeds = 12;

TEST(ShortSwingNoisy, PlantedToesNextToShortSwingsStayStill) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  const LoadedClip loaded = load_clip(test::shared_clips_dir() / "cmu_01_01_hops_turnaround.bvh");
  const Clip slow = test::resampled(loaded.clip, test::k_video_fps);
  for (unsigned seed = 1; seed <= k_video_seeds; ++seed) {
    Clip video = slow;
    test::add_capture_noise(video, loaded.rig.translation_joint, seed, test::k_video_root_noise_m,
                            test::k_video_min_joint_deg, test::k_video_max_joint_deg, test::k_video_noise_correlation);
    const Clip scaled = make_sliding(video, loaded.rig, 1.25);
    const CleanResult r = clean_clip(scaled, loaded.rig, CleanSettings{});
    ASSERT_GT(r.contacts.denoise_sigma_s, 0.0) << "seed " << seed;
    const ContactMask planted = contact_mask(r.contacts);
    EXPECT_LT(contact_slide(r.cleaned, loaded.rig, planted).p95_cm_per_s, test::k_capture_still_p95_cm_s)
        << "seed " << seed;
    EXPECT_LT(compare_clips(scaled, r.cleaned, loaded.rig, planted).pop_ratio, test::k_capture_max_pop) << "seed " << seed;
  }
}

}  // namespace
}  // namespace footfix
