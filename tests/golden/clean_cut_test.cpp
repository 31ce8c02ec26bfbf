// A clip with a cut in it (two takes joined, a teleport or reset of the root): from the middle of
// a planted contact on, the bundled walk's root is moved 3 m sideways and 2 m on, so every joint
// jumps in one frame. No contact may span the jump (a lock across it would drag the foot 3.6 m
// and the legs with it); the clean then leaves no miss and no pelvis drop beyond the uncut walk's.
#include <gtest/gtest.h>

#include <algorithm>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/eval/metrics.h"
#include "footfix/eval/sliding.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "support/paths.h"

namespace footfix {
namespace {

TEST(CleanCut, NoContactSpansAJumpAndTheCleanIgnoresIt) {
  const LoadedClip walk = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const ContactResult uncut_contacts = detect_contacts(walk.clip, walk.rig, ContactSettings{});
  // The cut: the middle of the longest contact of the left foot.
  const auto& intervals = uncut_contacts.feet[0].intervals;
  ASSERT_FALSE(intervals.empty());
  const ContactInterval longest = *std::max_element(intervals.begin(), intervals.end(), [](const auto& a, const auto& b) {
    return a.last_frame - a.first_frame < b.last_frame - b.first_frame;
  });
  const int cut = (longest.first_frame + longest.last_frame) / 2;
  Clip jumped = walk.clip;
  const int root = walk.rig.translation_joint;
  ASSERT_EQ(jumped.skeleton.parents[root], -1);
  for (int f = cut; f < jumped.frame_count; ++f) jumped.translation(f, root) = jumped.translation(f, root) + Vec3{3, 0, 2};

  const ContactResult contacts = detect_contacts(jumped, walk.rig, ContactSettings{});
  for (const FootContacts& foot : contacts.feet)
    for (const ContactInterval& in : foot.intervals)
      EXPECT_FALSE(in.first_frame < cut && in.last_frame >= cut) << in.first_frame << "-" << in.last_frame;

  const CleanResult uncut = clean_clip(walk.clip, walk.rig, CleanSettings{});
  const CleanResult r = clean_clip(jumped, walk.rig, CleanSettings{});
  const ContactMask mask = contact_mask(r.contacts);
  const ClipMetrics m = compare_clips(jumped, r.cleaned, walk.rig, mask);
  const ClipMetrics m_uncut = compare_clips(walk.clip, uncut.cleaned, walk.rig, contact_mask(uncut.contacts));
  EXPECT_LE(std::max(r.max_miss_m[0], r.max_miss_m[1]), std::max(uncut.max_miss_m[0], uncut.max_miss_m[1]) + 0.005);
  EXPECT_LE(m.max_pelvis_drop_cm, m_uncut.max_pelvis_drop_cm + 1.0);
  EXPECT_LE(m.max_new_penetration_mm, 1.0);
}

}  // namespace
}  // namespace footfix
