// The opt-in pelvis height (solve.pelvis_height with ik.max_foot_pitch_deg 40) on the bundled
// clips made to slide (pelvis x1.25, the slide protocol): the hips stay within 2 cm of the
// source's height where the default drops them by up to 6 cm, the planted targets are still
// reached, the slide stays under the protocol's gate and the pops under 1.5 x the source's.
#include <gtest/gtest.h>

#include <cstdio>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/eval/metrics.h"
#include "footfix/eval/sliding.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "support/paths.h"

namespace footfix {
namespace {

TEST(CleanPelvisHeight, BundledWalksMadeToSlideKeepTheirHipsUp) {
  CleanSettings held;
  held.solve.fast_pelvis_height = 2;
  held.ik.max_foot_pitch_deg = 40;
  for (const char* name : {"cmu_07_01_walk.bvh", "cmu3dsmax_131_01_start_walk_stop.bvh"}) {
    SCOPED_TRACE(name);
    const LoadedClip loaded = load_clip(test::data_clip(name));
    const ContactMask mask = contact_mask(detect_contacts(loaded.clip, loaded.rig, ContactSettings{}));
    const Clip scaled = make_sliding(loaded.clip, loaded.rig, 1.25);
    const CleanResult plain = clean_clip(scaled, loaded.rig, CleanSettings{});
    const CleanResult up = clean_clip(scaled, loaded.rig, held);
    const ClipMetrics before = compare_clips(scaled, plain.cleaned, loaded.rig, mask);
    const ClipMetrics after = compare_clips(scaled, up.cleaned, loaded.rig, mask);
    std::printf("%s x1.25: pelvis drop %.2f -> %.2f cm, slide %.3f -> %.3f mm/f of %.3f, pop %.2f -> %.2f, planted miss %.1f mm\n",
                name, before.max_pelvis_drop_cm, after.max_pelvis_drop_cm, before.cleaned_slide.mean_mm_per_frame,
                after.cleaned_slide.mean_mm_per_frame, after.source_slide.mean_mm_per_frame, before.pop_ratio,
                after.pop_ratio, 1000 * std::max(up.max_planted_miss_m[0], up.max_planted_miss_m[1]));
    EXPECT_GT(before.max_pelvis_drop_cm, 4.0);  // what the default does
    EXPECT_LE(after.max_pelvis_drop_cm, 2.0);
    EXPECT_LT(up.max_planted_miss_m[0], 0.002);
    EXPECT_LT(up.max_planted_miss_m[1], 0.002);
    EXPECT_LE(after.cleaned_slide.mean_mm_per_frame, 0.15 * after.source_slide.mean_mm_per_frame);
    EXPECT_LT(after.pop_ratio, 1.5);
    EXPECT_LE(after.max_new_penetration_mm, 0.0);
  }
}

}  // namespace
}  // namespace footfix
