// The per-frame pop measure on a real clip that had a lock-onset pop: the shared Xia walk made
// to slide (x1.25) and cleaned with the lock switched on in one frame (no blending, no pop
// guard) snaps a toe at the frame a contact begins, which the measure finds there. The default
// blending lowers it, and the default clean (with the pop guard) brings it under 1.5. A
// shuffle's short swing between two locks pops too; the short-swing lock ramp lowers that.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/eval/metrics.h"
#include "footfix/eval/sliding.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "support/paths.h"

namespace footfix {
namespace {

TEST(CleanPop, LockOnsetPopIsFoundAtTheOnsetAndBlendingLowersIt) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  LoadedClip loaded = load_clip(test::shared_clips_dir() / "xia_neutral_01_000_walk.bvh");
  Clip scaled = make_sliding(loaded.clip, loaded.rig, 1.25);
  CleanSettings snap;
  snap.solve.fast_blend_s = 0;
  snap.solve.fast_lock_blend_s = 0;
  snap.solve.swing_blend_s = 0;
  snap.pops.max_ratio = 0;
  CleanResult r = clean_clip(scaled, loaded.rig, snap);
  ContactMask mask{r.contacts.feet[0].contact, r.contacts.feet[1].contact};
  ClipMetrics m = compare_clips(scaled, r.cleaned, loaded.rig, mask);
  EXPECT_GT(m.pop_ratio, 3.0);
  // The pop sits at the first frame of a contact (or the frame before it).
  int nearest = 1 << 30;
  for (const auto& foot : r.contacts.feet)
    for (const auto& iv : foot.intervals) nearest = std::min(nearest, std::abs(iv.first_frame - m.pop_frame));
  EXPECT_LE(nearest, 1) << "pop at frame " << m.pop_frame;

  CleanSettings blend_only;
  blend_only.pops.max_ratio = 0;
  CleanResult blended = clean_clip(scaled, loaded.rig, blend_only);
  ClipMetrics mb = compare_clips(scaled, blended.cleaned, loaded.rig, mask);
  EXPECT_LT(mb.pop_ratio, 0.8 * m.pop_ratio);
  EXPECT_LE(mb.cleaned_slide.mean_mm_per_frame, 0.15 * mb.source_slide.mean_mm_per_frame);

  CleanResult guarded = clean_clip(scaled, loaded.rig, CleanSettings{});
  ClipMetrics mg = compare_clips(scaled, guarded.cleaned, loaded.rig, mask);
  std::printf("xia x1.25: pop snapped %.2f, blended %.2f, guarded %.2f (%d frames smoothed)\n", m.pop_ratio, mb.pop_ratio,
              mg.pop_ratio, guarded.pops.frames_smoothed);
  EXPECT_LT(mg.pop_ratio, 1.5);
  EXPECT_GT(guarded.pops.frames_smoothed, 0);
  EXPECT_LE(mg.cleaned_slide.mean_mm_per_frame, 0.15 * mg.source_slide.mean_mm_per_frame);
}

TEST(CleanPop, ShortSwingPopOfAStartWalkStopIsRampedAway) {
  // The shared start-walk-stop clip shuffles (a 9-frame swing at 120 Hz between two contacts
  // whose locks sit 3 cm apart against the source): the pop that was there, and how the
  // short-swing lock ramp lowers it at the cost of a little slide, at each protocol scale.
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  LoadedClip loaded = load_clip(test::shared_clips_dir() / "cmu3dsmax_131_01_start_walk_stop.bvh");
  // The leg IK's foot pitch, the pop guard and the pelvis height off in both: this is about the
  // solve's locks (the pelvis height's reach pass moves the hips over tenths of a second where
  // a long step's targets are out of reach, which the pop guard then smooths).
  CleanSettings on;
  on.ik.max_foot_pitch_deg = 0;
  on.pops.max_ratio = 0;
  on.solve.fast_pelvis_height = 0;
  CleanSettings off = on;
  off.solve.fast_short_swing_s = 0;
  const ContactMask mask = contact_mask(detect_contacts(loaded.clip, loaded.rig, ContactSettings{}));
  for (double factor : {1.0, 1.25, 0.75}) {
    SCOPED_TRACE(factor);
    Clip scaled = make_sliding(loaded.clip, loaded.rig, factor);
    CleanResult snapped = clean_clip(scaled, loaded.rig, off), ramped = clean_clip(scaled, loaded.rig, on);
    ClipMetrics before = compare_clips(scaled, snapped.cleaned, loaded.rig, mask);
    ClipMetrics after = compare_clips(scaled, ramped.cleaned, loaded.rig, mask);
    std::printf("start-walk-stop x%.2f: pop %.2f (frame %d) -> %.2f (frame %d), slide %.3f -> %.3f mm/f of the input's %.3f\n",
                factor, before.pop_ratio, before.pop_frame, after.pop_ratio, after.pop_frame,
                before.cleaned_slide.mean_mm_per_frame, after.cleaned_slide.mean_mm_per_frame,
                after.source_slide.mean_mm_per_frame);
    EXPECT_GT(before.pop_ratio, 4.0);
    EXPECT_LT(after.pop_ratio, 3.0);
    if (factor != 1.0) {
      EXPECT_LE(after.cleaned_slide.mean_mm_per_frame, 0.15 * after.source_slide.mean_mm_per_frame);
    }
  }
}

}  // namespace
}  // namespace footfix
