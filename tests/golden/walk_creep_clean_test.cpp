// Ground truth for clean with the root path kept true: a generated walk whose leg joints drift
// (smooth perturbations of a few degrees of the hip, knee and ankle local rotations) so that
// each planted toe creeps through its contact, is cleaned with the walk's true contacts, and
// every planted toe must come back within 5 mm of its true foothold (horizontally), at 30, 60 and
// 120 fps, the contacts cut by the clip's start and end included.
//
// The creep is a bump within each contact (out to one side of the true foothold, back through
// it, out to the other side and back), so the creeping toe touches down and lifts off on the
// true foothold and its mean position is the foothold: the clip still says where the foot stood.
// A drift that carries the toe between contacts too (a slow global wave, or a creep paid back
// during the swing) changes the strides the swings show, and a clean that follows the input's
// velocities outside contacts keeps those strides, as with a scaled root path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "footfix/core/fk.h"
#include "footfix/solve/clean.h"
#include "footfix/walk/walk.h"
#include "golden/walk_plants.h"

namespace footfix {
namespace {

// Perturbation amplitudes (degrees): hip flexion and abduction, knee and ankle flexion.
constexpr double k_hip_flex_deg = 3.0;
constexpr double k_hip_abduct_deg = 2.0;
constexpr double k_knee_deg = 4.0;
constexpr double k_ankle_deg = 3.0;

/// Per frame, the drift weight of one leg: within each contact a smooth bump that creeps out,
/// back through the foothold and out to the other side, and back again (sin(2 pi u) sin(pi u),
/// u from 0 at touch-down to 1 at lift-off, scaled to peak at +-1): zero with zero slope at
/// touch-down and lift-off, zero mean; zero during swings.
std::vector<double> creep_weight(const FootContacts& foot, int frame_count) {
  constexpr double pi = std::numbers::pi;
  const double peak = 4 / std::sqrt(27.0);  // largest value of sin(2 pi u) sin(pi u)
  std::vector<double> w(static_cast<size_t>(frame_count), 0.0);
  for (const ContactInterval& in : foot.intervals)
    for (int f = in.first_frame; f <= in.last_frame && in.last_frame > in.first_frame; ++f) {
      const double u = static_cast<double>(f - in.first_frame) / (in.last_frame - in.first_frame);
      w[f] = std::sin(2 * pi * u) * std::sin(pi * u) / peak;
    }
  return w;
}

/// Copy of the walk whose hip, knee and ankle local rotations drift with creep_weight; the root
/// path and every other joint are untouched.
Clip make_creeping(const WalkResult& walk) {
  constexpr double deg = std::numbers::pi / 180;
  Clip out = walk.clip;
  for (int side = 0; side < 2; ++side) {
    const LegChain& leg = walk.rig.legs[side];
    const double mirror = side == 0 ? 1.0 : -1.0;  // abduct both legs outwards
    const std::vector<double> w = creep_weight(walk.contacts.feet[side], out.frame_count);
    for (int f = 0; f < out.frame_count; ++f) {
      const double s = w[f];
      out.rotation(f, leg.hip) = normalize(out.rotation(f, leg.hip) * axis_angle({1, 0, 0}, k_hip_flex_deg * deg * s) *
                                           axis_angle({0, 0, 1}, mirror * k_hip_abduct_deg * deg * s));
      out.rotation(f, leg.knee) = normalize(out.rotation(f, leg.knee) * axis_angle(leg.knee_side_ls, k_knee_deg * deg * s));
      out.rotation(f, leg.heel) = normalize(out.rotation(f, leg.heel) * axis_angle({1, 0, 0}, k_ankle_deg * deg * s));
    }
  }
  return out;
}

WalkResult creep_walk(const char* terrain, double fps) {
  WalkSettings s;
  s.fps = fps;
  s.gait.duration_s = 8;
  return generate_walk(parse_terrain_spec(terrain), s);
}

/// Contacts with both their touch-down and lift-off inside the clip (not the starting stance, not
/// one cut by the clip's end).
std::vector<test::PlantedContact> interior(const std::vector<test::PlantedContact>& contacts, int frame_count) {
  std::vector<test::PlantedContact> out;
  for (const test::PlantedContact& c : contacts)
    if (c.first_frame > 0 && c.last_frame < frame_count - 1) out.push_back(c);
  return out;
}

TEST(WalkCreepClean, CreepingToesAreCleanedTowardsTheirTrueFootholds) {
  for (const char* terrain : {"flat", "slope:10", "stairs"})
    for (double fps : {30.0, 60.0, 120.0}) {
      SCOPED_TRACE(std::string(terrain) + " at " + std::to_string(fps) + " fps");
      const WalkResult w = creep_walk(terrain, fps);
      const test::FootholdOf truth = [](int, const ContactInterval& in) { return in.planted_position_m; };
      const Clip creeping = make_creeping(w);
      const auto before = test::planted_contacts(w, creeping, truth);
      const auto after = test::planted_contacts(w, clean_clip(creeping, w.rig, CleanSettings{}, &w.contacts).cleaned, truth);
      const auto inner = interior(after, w.clip.frame_count);
      const long within = std::count_if(after.begin(), after.end(), [](const auto& c) { return c.max_offset_m < 0.005; });
      std::printf("walk creep clean: %-8s %3.0f fps: creep up to %.1f mm off the true foothold; cleaned with the true "
                  "contacts: max %.2f mm (interior contacts %.2f), median %.2f mm off it, %ld of %zu within 5 mm, "
                  "hold max %.2f mm\n",
                  terrain, fps, test::worst(before, &test::PlantedContact::max_offset_m) * 1000,
                  test::worst(after, &test::PlantedContact::max_offset_m) * 1000,
                  test::worst(inner, &test::PlantedContact::max_offset_m) * 1000,
                  test::median(after, &test::PlantedContact::max_offset_m) * 1000, within, after.size(),
                  test::worst(after, &test::PlantedContact::hold_m) * 1000);
      ASSERT_EQ(after.size(), before.size());
      ASSERT_GE(after.size(), 8u);
      // The drift really makes the toes creep off their footholds before the clean.
      EXPECT_GT(test::worst(before, &test::PlantedContact::hold_m), 0.02);
      // The clean brings every planted toe back within 5 mm of its true foothold, far closer
      // than the creep took it. A contact cut by the clip's end is let off to 12 mm: its creep
      // is cut there too, and at 30 fps undoing it in full would make the leg pop (2.4 x the
      // source's acceleration near the end): the pop guard gives up some of that lock (10.9 mm).
      for (size_t i = 0; i < after.size(); ++i) {
        const char* side = after[i].side == 0 ? "left" : "right";
        const bool cut_by_end = after[i].last_frame == w.clip.frame_count - 1;
        EXPECT_LT(after[i].max_offset_m, before[i].max_offset_m) << side << " contact at frame " << after[i].first_frame;
        EXPECT_LT(after[i].max_offset_m, cut_by_end ? 0.012 : 0.005) << side << " contact at frame " << after[i].first_frame;
      }
    }
}

TEST(WalkCreepClean, CreepWeightIsAZeroMeanBumpWithinContacts) {
  FootContacts foot;
  for (const auto& [first, last] : {std::pair{10, 22}, std::pair{40, 52}}) {
    ContactInterval in;
    in.first_frame = first;
    in.last_frame = last;
    foot.intervals.push_back(in);
  }
  const std::vector<double> w = creep_weight(foot, 60);
  EXPECT_DOUBLE_EQ(w[0], 0.0);
  EXPECT_NEAR(w[10], 0.0, 1e-12);
  EXPECT_NEAR(w[16], 0.0, 1e-12);  // mid contact: back on the foothold
  EXPECT_NEAR(w[22], 0.0, 1e-12);
  EXPECT_DOUBLE_EQ(w[30], 0.0);    // swing
  EXPECT_GT(w[13], 0.9);           // out to one side (peak 1 at u = 0.19)
  EXPECT_LT(w[19], -0.9);          // and to the other
  double sum = 0;
  for (int f = 40; f <= 52; ++f) sum += w[f];
  EXPECT_NEAR(sum, 0.0, 1e-12);
}

}  // namespace
}  // namespace footfix
