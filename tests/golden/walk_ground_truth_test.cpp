// Generated walks as ground truth for the other stages: the contact detector recovers the true
// contacts (F1 > 0.95 on flat, slope and stairs at 30, 60 and 120 fps), a walk made to slide
// (pelvis x1.25) and cleaned gets its planted toes back onto footholds, and on stairs each
// contact gets its own step height.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/fk.h"
#include "footfix/eval/sliding.h"
#include "footfix/solve/clean.h"
#include "footfix/walk/walk.h"

namespace footfix {
namespace {

WalkResult walk_of(const char* terrain, double fps, double duration = 8) {
  WalkSettings s;
  s.fps = fps;
  s.gait.duration_s = duration;
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
  for (const char* terrain : {"flat", "slope:10", "stairs"})
    for (double fps : {30.0, 60.0, 120.0}) {
      const WalkResult w = walk_of(terrain, fps);
      const ContactResult detected = detect_contacts(w.clip, w.rig, ContactSettings{});
      const double f1 = contact_f1(w.contacts, detected);
      std::printf("walk ground truth: %-8s %3.0f fps  contact F1 %.4f\n", terrain, fps, f1);
      EXPECT_GT(f1, 0.95) << terrain << " at " << fps << " fps";
    }
}

TEST(WalkGroundTruth, TrueContactsScoreOneAndShiftedOnesLess) {
  // The F1 measure itself: perfect for the truth, lower for contacts moved by 5 frames.
  const WalkResult w = walk_of("flat", 60);
  EXPECT_DOUBLE_EQ(contact_f1(w.contacts, w.contacts), 1.0);
  ContactResult shifted = w.contacts;
  for (FootContacts& f : shifted.feet) std::rotate(f.contact.begin(), f.contact.begin() + 5, f.contact.end());
  EXPECT_LT(contact_f1(w.contacts, shifted), 0.95);
}

struct PlantCheck {
  double worst_hold = 0;    ///< largest motion of a cleaned planted toe within a true contact
  double worst_offset = 0;  ///< largest distance of a cleaned planted toe from its true foothold
};

PlantCheck check_plants(const WalkResult& w, const Clip& sliding, const CleanResult& cleaned) {
  double worst_hold = 0, worst_offset = 0;
  for (int side = 0; side < 2; ++side) {
    const int toe = w.rig.legs[side].toe;
    std::vector<Vec3> before(w.clip.frame_count), after(w.clip.frame_count);
    joint_trajectory(sliding, toe, before);
    joint_trajectory(cleaned.cleaned, toe, after);
    for (const ContactInterval& in : w.contacts.feet[side].intervals) {
      if (in.last_frame - in.first_frame < 10) continue;
      // Where the cleaned toe stands in the middle of the true contact, and how far it moves
      // from there over the contact (trimmed by 3 frames at each end).
      const Vec3 mid = after[(in.first_frame + in.last_frame) / 2];
      for (int f = in.first_frame + 3; f <= in.last_frame - 3; ++f)
        worst_hold = std::max(worst_hold, std::hypot(after[f].x - mid.x, after[f].z - mid.z));
      worst_offset = std::max(worst_offset, std::hypot(mid.x - in.planted_position_m.x, mid.z - in.planted_position_m.z));
    }
  }
  return {worst_hold, worst_offset};
}

TEST(WalkGroundTruth, SlidingWalkCleanedPlantsToesOnFootholds) {
  const WalkResult w = walk_of("flat", 60);
  const Clip sliding = make_sliding(w.clip, w.rig, 1.25);
  // With detected contacts, and with the true ones given to clean.
  const PlantCheck detected = check_plants(w, sliding, clean_clip(sliding, w.rig, CleanSettings{}));
  const PlantCheck given = check_plants(w, sliding, clean_clip(sliding, w.rig, CleanSettings{}, &w.contacts));
  for (const auto& [what, c] : {std::pair{"detected", detected}, std::pair{"true", given}})
    std::printf("walk ground truth: slide x1.25 cleaned (%s contacts): planted toe moves %.2f mm within a true contact, "
                "stands %.1f mm from the true foothold\n",
                what, c.worst_hold * 1000, c.worst_offset * 1000);
  // Planted toes hold still on a foothold. (Where: clean keeps the scaled root path, so the
  // footholds move with the body; their distance to the unscaled walk's is printed above.)
  EXPECT_LT(detected.worst_hold, 0.005);
  EXPECT_LT(given.worst_hold, 0.005);
}

TEST(WalkGroundTruth, StairContactsGetTheirOwnStepHeight) {
  const WalkResult w = walk_of("stairs", 60, 10);
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
