// Generated walks as ground truth for the other stages: the contact detector recovers the true
// contacts (F1 > 0.95 on flat, slope and stairs up and down at 30, 60 and 120 fps), a walk made to slide
// (pelvis x1.25) and cleaned gets its planted toes back onto footholds with its hips up, and on stairs each
// contact gets its own step height.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/fk.h"
#include "footfix/eval/sliding.h"
#include "footfix/solve/clean.h"
#include "footfix/walk/walk.h"
#include "golden/walk_plants.h"

namespace footfix {
namespace {

WalkResult truth_walk(const char* terrain, double fps, double duration = 8, double max_step_m = GaitSettings{}.max_step_m) {
  WalkSettings s;
  s.fps = fps;
  s.gait.duration_s = duration;
  s.gait.max_step_m = max_step_m;
  return generate_walk(parse_terrain_spec(terrain), s);
}

/// Frame-level F1 of `detected` against `truth`, both feet together.
double contact_f1(const ContactResult& truth, const ContactResult& detected) {
  long tp = 0, fp = 0, fn = 0;
  for (int side = 0; side < 2; ++side) {
    const auto& t = truth.feet[side].contact;
    const auto& d = detected.feet[side].contact;
    for (size_t f = 0; f < t.size(); ++f) {
      tp += t[f] && d[f];
      fp += !t[f] && d[f];
      fn += t[f] && !d[f];
    }
  }
  return 2.0 * static_cast<double>(tp) / static_cast<double>(2 * tp + fp + fn);
}

TEST(WalkGroundTruth, DetectorRecoversTrueContacts) {
  for (const char* terrain : {"flat", "slope:10", "stairs", "stairs-down"})
    for (double fps : {30.0, 60.0, 120.0}) {
      const WalkResult w = truth_walk(terrain, fps);
      const ContactResult detected = detect_contacts(w.clip, w.rig, ContactSettings{});
      const double f1 = contact_f1(w.contacts, detected);
      std::printf("walk ground truth: %-8s %3.0f fps  contact F1 %.4f\n", terrain, fps, f1);
      EXPECT_GT(f1, 0.95) << terrain << " at " << fps << " fps";
    }
}

TEST(WalkGroundTruth, TrueContactsScoreOneAndShiftedOnesLess) {
  // The F1 measure itself: perfect for the truth, lower for contacts moved by 5 frames.
  const WalkResult w = truth_walk("flat", 60);
  EXPECT_DOUBLE_EQ(contact_f1(w.contacts, w.contacts), 1.0);
  ContactResult shifted = w.contacts;
  for (FootContacts& f : shifted.feet) std::rotate(f.contact.begin(), f.contact.begin() + 5, f.contact.end());
  EXPECT_LT(contact_f1(w.contacts, shifted), 0.95);
}

/// Prints one line per contact and the worst and median hold and offset of `contacts`.
void print_plants(const char* what, const std::vector<test::PlantedContact>& contacts) {
  for (const test::PlantedContact& c : contacts)
    std::printf("  %s %s toe, frames %4d-%4d: holds within %.2f mm, stands %.2f mm (at most %.2f mm) from the carried "
                "foothold\n",
                what, c.side == 0 ? "left " : "right", c.first_frame, c.last_frame, c.hold_m * 1000,
                c.mid_offset_m * 1000, c.max_offset_m * 1000);
  std::printf("walk ground truth: slide x1.25 cleaned (%s contacts), %zu contacts: hold max %.2f mm (median %.2f), "
              "carried foothold max %.2f mm (median %.2f)\n",
              what, contacts.size(), test::worst(contacts, &test::PlantedContact::hold_m) * 1000,
              test::median(contacts, &test::PlantedContact::hold_m) * 1000,
              test::worst(contacts, &test::PlantedContact::mid_offset_m) * 1000,
              test::median(contacts, &test::PlantedContact::mid_offset_m) * 1000);
}

TEST(WalkGroundTruth, SlidingWalkCleanedPlantsToesOnFootholds) {
  constexpr double k_factor = 1.25;
  // Steps of 0.5 m: stretched x1.25 they stay within the legs' reach at the input's hip height
  // (0.62 m steps, the walk's natural ones at 1 m/s, stretch to 0.78 m, beyond what a clean
  // that keeps the hips up can plant).
  const WalkResult w = truth_walk("flat", 60, 8, 0.5);
  const Clip sliding = make_sliding(w.clip, w.rig, k_factor);
  // Scaling the root path carries the whole body, and so where each foot lands, by
  // (factor - 1) x the pelvis displacement: no clean can know where the unscaled walk stepped.
  // Within a contact the sliding toe is the true foothold carried by (factor - 1) x the
  // displacement of that frame, so the one place that toe track says it stood (the point
  // nearest all of it) is the foothold carried by the contact's mean displacement: that is the
  // reference. (The carry at the contact's middle frame differs from it by up to 8 mm on the
  // first stance, where the walk starts from rest.)
  const int root = w.rig.translation_joint;
  const Vec3 start = w.clip.translation(0, root);
  // The true foothold of `in` carried by the mean displacement over frames [first, last].
  auto carried_over = [&](const ContactInterval& in, int first, int last) {
    Vec3 moved{};
    for (int f = first; f <= last; ++f) moved = moved + (w.clip.translation(f, root) - start);
    moved = moved * (1.0 / (last - first + 1));
    return in.planted_position_m + Vec3{moved.x, 0, moved.z} * (k_factor - 1);
  };
  const test::FootholdOf carried = [&](int, const ContactInterval& in) {
    return carried_over(in, in.first_frame, in.last_frame);
  };
  // With detected contacts, and with the true ones given to clean.
  const CleanResult own = clean_clip(sliding, w.rig, CleanSettings{});
  // A detected contact within a frame of the true one at both ends is judged against the foothold
  // carried over its own frames: those are the frames whose toe track the clean holds, and which
  // frames the detector took is its error, covered by the F1 tests (a frame more at one end moves
  // the carried point by half a frame's carry, about 1 mm here).
  auto detected_match = [&](int side, int first_frame, int last_frame) -> const ContactInterval* {
    for (const ContactInterval& d : own.contacts.feet[side].intervals)
      if (std::abs(d.first_frame - first_frame) <= 1 && std::abs(d.last_frame - last_frame) <= 1) return &d;
    return nullptr;
  };
  const test::FootholdOf carried_detected = [&](int side, const ContactInterval& in) {
    const ContactInterval* d = detected_match(side, in.first_frame, in.last_frame);
    return d ? carried_over(in, d->first_frame, d->last_frame) : carried(side, in);
  };
  const auto detected = test::planted_contacts(w, own.cleaned, carried_detected);
  const auto given = test::planted_contacts(w, clean_clip(sliding, w.rig, CleanSettings{}, &w.contacts).cleaned, carried);
  print_plants("detected", detected);
  print_plants("true", given);
  ASSERT_GE(given.size(), 8u);
  ASSERT_EQ(detected.size(), given.size());
  // A detected contact that starts or ends more than a frame away from the true one is locked
  // where the toe stood over other frames (the detector plants a toe at heel strike while it
  // still rolls down to the floor, up to 5 frames before the walk's toe contact): the reference
  // does not apply to it, and the F1 test above covers the detector.
  auto detector_agrees = [&](const test::PlantedContact& c) {
    return detected_match(c.side, c.first_frame, c.last_frame) != nullptr;
  };
  // The walk's direction (horizontal unit): offsets along it and across it.
  Vec3 along = w.clip.translation(w.clip.frame_count - 1, root) - start;
  along.y = 0;
  along = along / length(along);
  for (const auto* contacts : {&detected, &given}) {
    std::vector<double> along_mm;
    for (const test::PlantedContact& c : *contacts) {
      // Planted toes hold still (the leg IK's foot pitch reaches the wider strides' targets at a
      // stance's ends; without it the toe fell up to 6 mm short there) ...
      EXPECT_LT(c.hold_m, 0.001) << "side " << c.side << " frame " << c.first_frame;
      if (contacts == &detected && !detector_agrees(c)) continue;
      // ... keep the walk's stance width: within 3 mm of the carried foothold across the walk
      // (the pelvis-toe distances, no longer met by lowering the hips, pull planted toes in under
      // the body; the lock width anchor holds them: 9 mm without it) ...
      const double across_mm = std::abs(c.mid_offset.x * along.z - c.mid_offset.z * along.x) * 1000;
      EXPECT_LT(across_mm, 3.0) << "side " << c.side << " frame " << c.first_frame;
      along_mm.push_back(std::abs(dot(c.mid_offset, along)) * 1000);
      EXPECT_LT(c.max_offset_m, 0.020) << "side " << c.side << " frame " << c.first_frame;
    }
    // ... and stand on the carried footholds along the walk where it is at speed. The clean
    // keeps the hips up, and the pelvis-toe distances of the stretched travel pull each lock
    // towards the longer stride beside it. At full speed those pulls cancel; the first and last
    // walking steps lie between a short stride (out of or into the standing pose) and a full
    // one, so their locks move towards the middle of the walk, by up to 15 mm (the 20 mm bound
    // above; the 5 mm is not met, see docs/tuning.md). Most others stay within 2 mm.
    std::sort(along_mm.begin(), along_mm.end());
    ASSERT_GE(along_mm.size(), 8u);
    EXPECT_LT(along_mm[along_mm.size() / 2], 2.0) << "median along the walk";
  }
  // The hips stay up: the pelvis is at most 2 cm below the sliding input's anywhere.
  double drop_m = 0;
  for (int f = 0; f < sliding.frame_count; ++f)
    drop_m = std::max(drop_m, sliding.translation(f, root).y - own.cleaned.translation(f, root).y);
  std::printf("walk ground truth: slide x1.25 cleaned, largest pelvis drop %.2f cm\n", drop_m * 100);
  EXPECT_LT(drop_m, 0.02);
}

TEST(WalkGroundTruth, StairContactsGetTheirOwnStepHeight) {
  const WalkResult w = truth_walk("stairs", 60, 10);
  const ContactResult detected = detect_contacts(w.clip, w.rig, ContactSettings{});
  int checked = 0;
  std::vector<double> heights;
  for (int side = 0; side < 2; ++side)
    for (const ContactInterval& d : detected.feet[side].intervals) {
      // The true contact overlapping this one.
      for (const ContactInterval& t : w.contacts.feet[side].intervals) {
        if (t.last_frame < d.first_frame || t.first_frame > d.last_frame) continue;
        EXPECT_NEAR(d.height_m, t.height_m, 0.005) << "contact at frame " << d.first_frame;
        ++checked;
        heights.push_back(std::round(t.height_m / 0.01));
      }
    }
  std::sort(heights.begin(), heights.end());
  const long distinct = std::unique(heights.begin(), heights.end()) - heights.begin();
  EXPECT_GE(checked, 16);
  EXPECT_GE(distinct, 8);  // one height per tread climbed, not one floor
}

}  // namespace
}  // namespace footfix
