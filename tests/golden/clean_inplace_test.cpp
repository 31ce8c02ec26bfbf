// `clean` on an in-place walk made from the bundled root-motion walk (pelvis x1.25 so it slides,
// then its average root velocity removed: the true ground velocity is known). By default it is
// locked on a treadmill: planted feet move together at one ground velocity, the root stays where
// the source had it, and the ground velocity is reported (result and contacts JSON). Locked in
// world space instead (--treadmill off), the body walks away.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <vector>

#include "footfix/core/fk.h"
#include "footfix/eval/sliding.h"
#include "footfix/eval/treadmill_metrics.h"
#include "footfix/pipeline/load_clip.h"
#include "contacts/contacts_json.h"
#include "footfix/solve/clean.h"
#include "support/paths.h"

namespace footfix {
namespace {

struct InPlaceWalk {
  LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  Vec3 true_g;
  Clip input = make_in_place(make_sliding(loaded.clip, loaded.rig, 1.25), loaded.rig, &true_g);
  ContactMask mask;
  InPlaceWalk() {
    ContactResult c = detect_contacts(loaded.clip, loaded.rig, ContactSettings{});
    mask = {c.feet[0].contact, c.feet[1].contact};
  }
};

/// Cleans `input` (`loaded` made in place) and checks the in-place targets: a treadmill at
/// `expected_g` (within 15%: the source's own creep rides on the estimate), planted feet's slide
/// against their best single ground velocity at most 25% of the input's, and the root within
/// 5 cm of where the input had it (mean deviation and end-to-end drift).
void expect_in_place_targets(const LoadedClip& loaded, const Clip& input, const ContactMask& mask, Vec3 expected_g) {
  const CleanResult r = clean_clip(input, loaded.rig, CleanSettings{});
  ASSERT_TRUE(r.treadmill);
  EXPECT_LT(length(r.ground_velocity_mps - expected_g), 0.15 * length(expected_g));
  EXPECT_LE(treadmill_slide(r.cleaned, loaded.rig, mask).mean_mm_per_frame,
            0.25 * treadmill_slide(input, loaded.rig, mask).mean_mm_per_frame);
  const RootStray stray = root_stray(input, r.cleaned, loaded.rig);
  EXPECT_LE(stray.mean_horizontal_deviation_m, 0.05);
  EXPECT_LE(stray.end_to_end_drift_m, 0.05);
}

TEST(CleanInPlace, TreadmillLockKeepsTheRootAndMovesPlantedFeetTogether) {
  InPlaceWalk w;
  ASSERT_GT(length(w.true_g), 1.0);  // a walk: the ground runs back at over 1 m/s
  CleanResult r = clean_clip(w.input, w.loaded.rig, CleanSettings{});
  ASSERT_TRUE(r.treadmill);
  // Planted feet run back at the unscaled walk's speed: the removed velocity / 1.25.
  const Vec3 feet_g = w.true_g / 1.25;
  EXPECT_LT(length(r.ground_velocity_mps - feet_g), 0.1 * length(feet_g));
  ASSERT_TRUE(r.contacts.ground_velocity_mps.has_value());
  EXPECT_EQ(*r.contacts.ground_velocity_mps, r.ground_velocity_mps);

  const TreadmillSlide before = treadmill_slide(w.input, w.loaded.rig, w.mask);
  const TreadmillSlide after = treadmill_slide(r.cleaned, w.loaded.rig, w.mask);
  EXPECT_LE(after.mean_mm_per_frame, 0.25 * before.mean_mm_per_frame)
      << after.mean_mm_per_frame << " of " << before.mean_mm_per_frame;
  const RootStray stray = root_stray(w.input, r.cleaned, w.loaded.rig);
  EXPECT_LE(stray.mean_horizontal_deviation_m, 0.05);
  EXPECT_LE(stray.end_to_end_drift_m, 0.05);
}

TEST(CleanInPlace, WorldLockFightsTheTreadmill) {
  // The instrument can fail: the pre-treadmill behaviour, forced, pins planted feet in world
  // space, so against the moving ground they slide more than in the input.
  InPlaceWalk w;
  CleanSettings off;
  off.treadmill.mode = TreadmillMode::off;
  CleanResult r = clean_clip(w.input, w.loaded.rig, off);
  EXPECT_FALSE(r.treadmill);
  EXPECT_FALSE(r.contacts.ground_velocity_mps.has_value());
  EXPECT_GT(treadmill_slide(r.cleaned, w.loaded.rig, w.mask).mean_mm_per_frame,
            2 * treadmill_slide(w.input, w.loaded.rig, w.mask).mean_mm_per_frame);
}

TEST(CleanInPlace, RootMotionWalkIsNotPutOnATreadmill) {
  InPlaceWalk w;
  for (double factor : {1.0, 1.25, 0.75}) {
    CleanResult r = clean_clip(make_sliding(w.loaded.clip, w.loaded.rig, factor), w.loaded.rig, CleanSettings{});
    EXPECT_FALSE(r.treadmill) << factor;
  }
}

TEST(CleanInPlace, BundledStartsAndStopsMadeInPlaceAreTreadmillClips) {
  // A walk that starts and stops (and the hop clip with its stops), made in place: the root
  // goes back while the body stands and forward while it walks, over 0.5 x the ground's speed
  // in half-second windows, but it ends where it began. Still one ground under both feet: it is
  // locked on it, and the root stays where the input had it.
  for (const char* name : {"cmu3dsmax_131_01_start_walk_stop.bvh", "cmu3dsmax_131_03_start_hop_stop_meters.bvh"}) {
    SCOPED_TRACE(name);
    const LoadedClip loaded = load_clip(test::data_clip(name));
    const ContactResult reference = detect_contacts(loaded.clip, loaded.rig, ContactSettings{});
    const ContactMask mask{reference.feet[0].contact, reference.feet[1].contact};
    Vec3 true_g;
    const Clip input = make_in_place(loaded.clip, loaded.rig, &true_g);
    expect_in_place_targets(loaded, input, mask, true_g);
  }
}

TEST(CleanInPlace, GroundVelocityTravelsThroughTheContactsJson) {
  InPlaceWalk w;
  CleanResult r = clean_clip(w.input, w.loaded.rig, CleanSettings{});
  ASSERT_TRUE(r.treadmill);
  std::ostringstream out;
  write_contacts_json(r.cleaned, r.contacts, ContactSettings{}, out);
  ContactsDocument doc = parse_contacts_json(out.str(), "walk.contacts.json");
  ASSERT_TRUE(doc.result.ground_velocity_mps.has_value());
  EXPECT_LT(length(*doc.result.ground_velocity_mps - r.ground_velocity_mps), 1e-9);
  // Without a treadmill the field is absent, and absent it reads back as unset.
  CleanResult still = clean_clip(w.loaded.clip, w.loaded.rig, CleanSettings{});
  std::ostringstream plain;
  write_contacts_json(still.cleaned, still.contacts, ContactSettings{}, plain);
  EXPECT_EQ(plain.str().find("ground_velocity_mps"), std::string::npos);
  EXPECT_FALSE(parse_contacts_json(plain.str(), "walk.contacts.json").result.ground_velocity_mps.has_value());
}

TEST(CleanInPlace, StartWalkStopMadeToSlideAndInPlaceIsLockedOnItsGround) {
  // The body's speed changes (stand, walk, stand): made to slide, its planted feet move at the
  // ground's speed while it stands and slower while it walks (they slide with the stretched
  // pelvis), and the ground speed is the one that keeps the body with its feet over the whole
  // clip: the unscaled walk's average, the removed velocity / factor.
  const LoadedClip loaded = load_clip(test::data_clip("cmu3dsmax_131_01_start_walk_stop.bvh"));
  const ContactResult reference = detect_contacts(loaded.clip, loaded.rig, ContactSettings{});
  const ContactMask mask{reference.feet[0].contact, reference.feet[1].contact};
  for (double factor : {1.25, 0.75}) {
    SCOPED_TRACE(factor);
    Vec3 true_g;
    const Clip input = make_in_place(make_sliding(loaded.clip, loaded.rig, factor), loaded.rig, &true_g);
    expect_in_place_targets(loaded, input, mask, true_g / factor);
  }
}

TEST(CleanInPlace, DistanceCurveFollowsTheBodysSpeedOverTheGround) {
  // The start-walk-stop made in place: its distance curve rises with the speed the walk had
  // (standing, walking, standing) and ends at the distance the root-motion clip travels.
  const LoadedClip loaded = load_clip(test::data_clip("cmu3dsmax_131_01_start_walk_stop.bvh"));
  const Clip input = make_in_place(loaded.clip, loaded.rig);
  const CleanResult r = clean_clip(input, loaded.rig, CleanSettings{});
  ASSERT_TRUE(r.treadmill);
  const std::vector<double>& distance = r.contacts.ground_distance_m;
  ASSERT_EQ(distance.size(), static_cast<size_t>(input.frame_count));
  std::vector<Vec3> root(static_cast<size_t>(loaded.clip.frame_count));
  joint_trajectory(loaded.clip, loaded.rig.translation_joint, root);
  // The root-motion clip's path, in quarter-second steps (its sway left out).
  const int quarter = static_cast<int>(loaded.clip.fps / 4);
  auto path = [&](size_t from, size_t to) {
    double sum = 0;
    for (size_t f = from + quarter; f <= to; f += quarter)
      sum += std::hypot(root[f].x - root[f - quarter].x, root[f].z - root[f - quarter].z);
    return sum;
  };
  const double travelled = path(0, root.size() - 1);
  EXPECT_NEAR(distance.back(), travelled, 0.1 * travelled);
  for (size_t f = 1; f < distance.size(); ++f) ASSERT_GE(distance[f], distance[f - 1]);
  // Speeds of the moment: each second's distance against the root-motion clip's path in it.
  const size_t second = static_cast<size_t>(loaded.clip.fps);
  for (size_t f = second; f < root.size(); f += second)
    EXPECT_NEAR(distance[f] - distance[f - second], path(f - second, f), 0.15) << "second ending at frame " << f;
}

}  // namespace
}  // namespace footfix
