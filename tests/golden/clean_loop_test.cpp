// `clean` on a cyclic walk: the shared Mixamo root-motion walk (its last frame repeats its first,
// one cycle on) made to slide (x1.25). Cleaned as a loop, the legs, the root and the contacts
// still match across the seam (the root in height; its travel per cycle is the cleaned one), with
// no jump there; cleaned with --loop off, they do not.
#include <gtest/gtest.h>

#include "footfix/core/fk.h"
#include "footfix/eval/metrics.h"
#include "footfix/eval/sliding.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "solve/loop_wrap.h"
#include "support/paths.h"

namespace footfix {
namespace {

double leg_closure_rad(const Clip& c, const Rig& rig) {
  double worst = 0;
  for (const auto& leg : rig.legs)
    for (int j : {leg.hip, leg.knee, leg.heel, leg.toe})
      if (j >= 0) worst = std::max(worst, angle_of(inverse(c.rotation(0, j)) * c.rotation(c.frame_count - 1, j)));
  return worst;
}

Vec3 world(const Clip& c, int f, int j) { return joint_world(c, f, j).translation; }

TEST(CleanLoop, CyclicWalkKeepsItsSeam) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  LoadedClip loaded = load_clip(test::shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx");
  const Rig& rig = loaded.rig;
  Clip input = make_sliding(loaded.clip, rig, 1.25);
  ASSERT_TRUE(is_loop(input, rig));
  const int n = input.frame_count, root = rig.translation_joint;
  ASSERT_GT(length(loop_travel(input, rig)), 1.0);

  CleanResult r = clean_clip(input, rig, CleanSettings{});
  ASSERT_TRUE(r.loop);
  EXPECT_LT(leg_closure_rad(r.cleaned, rig), 1e-9);
  // The root closes in height; its travel over the cycle is the cleaned one.
  const Vec3 cleaned_travel = world(r.cleaned, n - 1, root) - world(r.cleaned, 0, root);
  EXPECT_NEAR(cleaned_travel.y, world(input, n - 1, root).y - world(input, 0, root).y, 1e-9);
  for (int s = 0; s < 2; ++s) EXPECT_EQ(r.contacts.feet[s].contact.front(), r.contacts.feet[s].contact.back()) << s;
  // No jump at the seam: each toe's acceleration across it (frame n-1 is frame 0 one cycle on)
  // is no larger than its largest one inside the clip.
  for (const auto& leg : rig.legs) {
    const int toe = leg.contact_joint();
    double inside = 0;
    for (int f = 1; f + 1 < n; ++f)
      inside = std::max(inside, length(world(r.cleaned, f + 1, toe) - world(r.cleaned, f, toe) * 2.0 + world(r.cleaned, f - 1, toe)));
    const Vec3 after_seam = world(r.cleaned, 1, toe) + Vec3{cleaned_travel.x, 0, cleaned_travel.z};
    const double seam = length(after_seam - world(r.cleaned, n - 1, toe) * 2.0 + world(r.cleaned, n - 2, toe));
    EXPECT_LE(seam, inside);
  }
  // And it is cleaned: the slide is mostly gone.
  ContactResult c = detect_contacts(loaded.clip, rig, CleanSettings{}.contacts);
  ContactMask mask{c.feet[0].contact, c.feet[1].contact};
  ClipMetrics m = compare_clips(input, r.cleaned, rig, mask);
  EXPECT_LE(m.cleaned_slide.mean_mm_per_frame, 0.15 * m.source_slide.mean_mm_per_frame);

  CleanSettings off;
  off.loop = LoopMode::off;
  CleanResult open = clean_clip(input, rig, off);
  EXPECT_FALSE(open.loop);
  EXPECT_GT(leg_closure_rad(open.cleaned, rig), 0.005);
}

TEST(CleanLoop, NonCyclicWalkIsNotALoop) {
  LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  EXPECT_FALSE(is_loop(loaded.clip, loaded.rig));
  EXPECT_FALSE(clean_clip(loaded.clip, loaded.rig, CleanSettings{}).loop);
}

}  // namespace
}  // namespace footfix
