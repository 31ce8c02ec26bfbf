// The pop guard where a foot rests on the floor at a pop (solve/pop_guard.h): a step that
// smooths such a frame would put that foot below the lowest the source puts it, and is dropped;
// the guard then raises the root there instead. The case on a shared clip: an inertial suit's
// drifting root (tests/support/capture_noise.h) on the Mixamo walk at 60 Hz, made to slide
// x1.25. At a toe-off the foot tip pivots on its lowest point while the knee and heel pop.
#include <gtest/gtest.h>

#include <vector>

#include "footfix/eval/metrics.h"
#include "footfix/eval/sliding.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "support/capture_noise.h"
#include "support/capture_targets.h"
#include "support/paths.h"

namespace footfix {
namespace {

// New ground penetration (mm) the raised root may leave: rounding only.
constexpr double k_penetration_tolerance_mm = 0.01;

TEST(PopGuardFloor, APopWhereAFootRestsOnTheFloorIsSmoothed) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  const LoadedClip loaded = load_clip(test::shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx");
  const int root = loaded.rig.translation_joint;
  const Clip steady = test::resampled(loaded.clip, 60);
  Clip drifting = steady;
  const std::vector<Vec3> drift = test::inertial_root_drift(drifting.frame_count, drifting.fps, 41);
  for (int f = 0; f < drifting.frame_count; ++f) drifting.translation(f, root) += drift[f];
  const Clip scaled = make_sliding(drifting, loaded.rig, 1.25);
  const CleanResult r = clean_clip(scaled, loaded.rig, CleanSettings{});
  const ContactMask truth = contact_mask(detect_contacts(steady, loaded.rig, CleanSettings{}.contacts));
  const ClipMetrics m = compare_clips(scaled, r.cleaned, loaded.rig, truth);
  EXPECT_EQ(r.pops.frames_over, 0);
  EXPECT_LT(m.pop_ratio, test::k_capture_max_pop);
  EXPECT_LT(m.max_new_penetration_mm, k_penetration_tolerance_mm);
  EXPECT_LT(m.cleaned_slide.mean_mm_per_frame, test::k_capture_max_residual * m.source_slide.mean_mm_per_frame);
}

}  // namespace
}  // namespace footfix
