// The reach-limited clean (solve.reach_limit, use_reach_limit; bench_clean_quality --reach) on
// walks made to slide both ways: every planted target is reached (IK miss under 2 mm on the
// bundled walk, where the default solve misses by up to 13 mm), the hips are lowered by at most
// 2 cm (the default lowers them by up to 6 cm at x1.25), and the slide protocol still passes.
#include <gtest/gtest.h>

#include <string>

#include <algorithm>

#include "footfix/eval/metrics.h"
#include "footfix/eval/sliding.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/contacts/reference_pose.h"
#include "footfix/solve/clean.h"
#include "support/locomotion_clips.h"
#include "support/paths.h"

namespace footfix {
namespace {

CleanSettings reach_settings() {
  CleanSettings s;
  use_reach_limit(s.solve);
  return s;
}

TEST(CleanReach, PlantedTargetsAreReachedAndTheHipsBarelyDrop) {
  LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  ContactResult reference = detect_contacts(loaded.clip, loaded.rig, CleanSettings{}.contacts);
  ContactMask mask{reference.feet[0].contact, reference.feet[1].contact};
  const CleanSettings reach = reach_settings();
  for (double factor : {1.25, 0.75}) {
    SCOPED_TRACE(factor);
    const Clip scaled = make_sliding(loaded.clip, loaded.rig, factor);
    const CleanResult r = clean_clip(scaled, loaded.rig, reach);
    const ClipMetrics m = compare_clips(scaled, r.cleaned, loaded.rig, mask);
    EXPECT_LT(std::max(r.max_miss_m[0], r.max_miss_m[1]), 0.002);
    EXPECT_LE(m.max_pelvis_drop_cm, 2.0);
    EXPECT_LE(m.cleaned_slide.mean_mm_per_frame, 0.15 * m.source_slide.mean_mm_per_frame);
    EXPECT_LE(m.max_new_penetration_mm, 5.0);
    EXPECT_LE(m.leg_accel_ratio, 1.5);
    EXPECT_TRUE(m.non_leg_unchanged());
    // No warning (the pop guard's included: at x1.25 a knee frame over a 238 m/s^2 spike of the
    // source's pelvis, which the source's hip rotation cancels, needs the guard's stall fallback),
    // and one note: frame 0, the clip's rest pose, was left as it is.
    EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
    ASSERT_EQ(r.contacts.notes.size(), 1u);
    EXPECT_EQ(r.contacts.notes[0], reference_pose_note("left as it is, frames 1.. cleaned"));
    EXPECT_LT(m.pop_ratio, 1.5);
  }
  // The default clean misses the planted targets at x1.25 (what the reach term is for).
  const Clip scaled = make_sliding(loaded.clip, loaded.rig, 1.25);
  const CleanResult plain = clean_clip(scaled, loaded.rig, CleanSettings{});
  EXPECT_GT(std::max(plain.max_miss_m[0], plain.max_miss_m[1]), 0.005);
}

// The same on every shared locomotion clip: the pelvis drop gate (<= 2 cm) and the slide
// protocol pass everywhere; IK misses stay under 2.5 mm (2 mm is the goal: the Bandai walk at
// x1.25 misses by 2.3 mm).
TEST(CleanReach, SharedLocomotionCorpusKeepsTheHipsUpAndReachesThePlantedTargets) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  const CleanSettings reach = reach_settings();
  for (const char* name : test::k_locomotion_clips) {
    SCOPED_TRACE(name);
    LoadedClip loaded = load_clip(test::shared_clips_dir() / name);
    ContactResult reference = detect_contacts(loaded.clip, loaded.rig, reach.contacts);
    ContactMask mask{reference.feet[0].contact, reference.feet[1].contact};
    const SlideStats own = contact_slide(loaded.clip, loaded.rig, mask);
    for (double factor : {1.25, 0.75}) {
      SCOPED_TRACE(factor);
      const Clip scaled = make_sliding(loaded.clip, loaded.rig, factor);
      const CleanResult r = clean_clip(scaled, loaded.rig, reach);
      const ClipMetrics m = compare_clips(scaled, r.cleaned, loaded.rig, mask);
      EXPECT_LE(m.cleaned_slide.mean_mm_per_frame, 0.15 * m.source_slide.mean_mm_per_frame);
      EXPECT_LT(m.cleaned_slide.mean_mm_per_frame, own.mean_mm_per_frame);
      EXPECT_LE(m.max_pelvis_drop_cm, 2.0);
      EXPECT_LT(std::max(r.max_miss_m[0], r.max_miss_m[1]), 0.0025);
      EXPECT_LE(m.max_new_penetration_mm, 5.0);
      EXPECT_LE(m.leg_accel_ratio, 1.5);
      EXPECT_TRUE(m.non_leg_unchanged());
    }
  }
}

}  // namespace
}  // namespace footfix
