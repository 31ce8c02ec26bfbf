// The pop guard on noisy capture at a contact's uncertain ends (solve/pop_guard.h): contacts
// found on smoothed positions may start a frame before the foot lands, and the lock's onset then
// pops the heel. Where the guard can smooth that pop only by moving the planted foot, the contact
// end frames it moved are released and the stretch smoothed again: the foot is planted from
// where it is held, and still there. The case on a shared clip, as a text-to-motion generator
// writes it (bench_capture's "generated" variant): 2.5 s of a walk at 20 Hz with light jitter,
// made to slide x1.25.
#include <gtest/gtest.h>

#include "footfix/eval/metrics.h"
#include "footfix/eval/sliding.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "support/capture_noise.h"
#include "support/capture_targets.h"
#include "support/contact_agreement.h"
#include "support/paths.h"

namespace footfix {
namespace {

// The generated clip: its length (s) and rate (Hz).
constexpr double k_generated_clip_s = 2.5;
constexpr double k_generated_fps = 20;
// How far (m) the guard may move a planted toe: the lock's own stillness.
constexpr double k_still_shift_m = 0.001;
// The share of the noise-free clip's contact frames the clean must still plant.
constexpr double k_min_recall = 0.85;

TEST(PopGuardContactEnds, ALockOnsetTheGuardCannotHoldIsReleasedNotMoved) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  const LoadedClip loaded = load_clip(test::shared_clips_dir() / "bandai1_walk_normal_001.bvh");
  const Clip slow = test::resampled(test::short_cut(loaded.clip, k_generated_clip_s), k_generated_fps);
  Clip noisy = slow;
  test::add_capture_noise(noisy, loaded.rig.translation_joint, 23, 0.01, 0.3, 0.6);
  const Clip scaled = make_sliding(noisy, loaded.rig, 1.25);
  const CleanResult r = clean_clip(scaled, loaded.rig, CleanSettings{});
  ASSERT_GT(r.contacts.denoise_sigma_s, 0.0);
  const ContactMask planted = contact_mask(r.contacts);
  const ContactMask truth = contact_mask(detect_contacts(slow, loaded.rig, CleanSettings{}.contacts));
  for (int s = 0; s < 2; ++s) EXPECT_LT(r.pops.max_planted_shift_m[s], k_still_shift_m) << "leg " << s;
  EXPECT_LT(contact_slide(r.cleaned, loaded.rig, planted).p95_cm_per_s, test::k_capture_still_p95_cm_s);
  EXPECT_LT(compare_clips(scaled, r.cleaned, loaded.rig, planted).pop_ratio, test::k_capture_max_pop);
  EXPECT_GE(test::contact_recall(planted, truth), k_min_recall);
}

}  // namespace
}  // namespace footfix
