// The gait figures' building blocks on inputs whose answer is known by construction: joint
// angles of a standing and a bent leg, the mean cycle of a curve, RMS differences and the
// contact F1 score.
#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <vector>

#include "footfix/walk/gait_figures.h"
#include "footfix/walk/humanoid.h"

namespace footfix {
namespace {

TEST(WalkGaitFigures, StandingLegIsStraightAndNeutral) {
  Clip clip = make_humanoid_clip();
  const Rig rig = detect_rig(clip);
  const GaitFigures g = measure_gait(clip, rig, ContactResult{});
  for (int side = 0; side < 2; ++side) {
    EXPECT_NEAR(g.angles[side].knee_deg[0], 0, 1e-6);
    EXPECT_NEAR(g.angles[side].hip_deg[0], 0, 1e-6);
    EXPECT_NEAR(g.angles[side].ankle_deg[0], 0, 1e-6);
  }
  EXPECT_EQ(g.cycles, 0);
}

TEST(WalkGaitFigures, BentKneeAndFlexedHipAndAnkle) {
  Clip clip = make_humanoid_clip();
  const Rig rig = detect_rig(clip);
  const LegChain& leg = rig.legs[0];
  // Thigh forward 30 degrees (about +X, left, the toe of a +Z-facing foot goes down for +),
  // knee bent 40, foot plantar-flexed 15.
  clip.rotation(0, leg.hip) = axis_angle({1, 0, 0}, -30 * k_deg_to_rad);
  clip.rotation(0, leg.knee) = axis_angle({1, 0, 0}, 40 * k_deg_to_rad);
  clip.rotation(0, leg.heel) = axis_angle({1, 0, 0}, 15 * k_deg_to_rad);
  const GaitFigures g = measure_gait(clip, rig, ContactResult{});
  EXPECT_NEAR(g.angles[0].hip_deg[0], 30, 1e-6);
  EXPECT_NEAR(g.angles[0].knee_deg[0], 40, 1e-6);
  EXPECT_NEAR(g.angles[0].ankle_deg[0], -15, 1e-6);
}

TEST(WalkGaitFigures, MeanCycleRmsAndF1) {
  // A ramp restarting at each contact start (frames 0, 10, 20): its mean cycle is the ramp.
  std::vector<double> curve(31);
  for (int f = 0; f <= 30; ++f) curve[f] = f % 10;
  FootContacts foot;
  for (int start : {0, 10, 20}) {
    ContactInterval in;
    in.first_frame = start;
    in.last_frame = start + 3;
    foot.intervals.push_back(in);
  }
  const std::vector<double> mean = mean_gait_cycle(curve, foot, 11);
  ASSERT_EQ(mean.size(), 11u);
  for (int k = 0; k < 10; ++k) EXPECT_NEAR(mean[k], k, 1e-9) << k;
  EXPECT_TRUE(mean_gait_cycle(curve, FootContacts{}, 11).empty());

  EXPECT_NEAR(rms_difference({1, 2, 3}, {2, 3, 4}), 1.0, 1e-12);
  EXPECT_NEAR(rms_difference({1, 2, 3}, {2, 3, 4}, true), 0.0, 1e-12);
  EXPECT_TRUE(std::isnan(rms_difference({1}, {1, 2})));

  FootContacts truth, detected;
  truth.contact = {1, 1, 1, 1, 0, 0};
  detected.contact = {0, 1, 1, 1, 1, 0};
  // 3 true positives, 1 false positive, 1 false negative: 2*3 / (2*3 + 1 + 1).
  EXPECT_NEAR(contact_f1(truth, detected), 0.75, 1e-12);
  EXPECT_NEAR(contact_f1(truth, truth), 1.0, 1e-12);
}

FootContacts contacts_starting_at(std::initializer_list<int> starts) {
  FootContacts foot;
  for (int start : starts) {
    ContactInterval in;
    in.first_frame = start;
    in.last_frame = start + 3;
    foot.intervals.push_back(in);
  }
  return foot;
}

TEST(WalkGaitFigures, ContactUnderWayAtTheFirstFrameStartsNoCycle) {
  // A clip that begins mid-stance: the ramp restarts at the true contact starts (frames 6, 16,
  // 26); the contact at frame 0 began before the clip, so 0-6 is no cycle.
  std::vector<double> curve(37);
  for (int f = 0; f <= 36; ++f) curve[f] = (f + 4) % 10;
  const std::vector<double> mean = mean_gait_cycle(curve, contacts_starting_at({0, 6, 16, 26}), 11);
  ASSERT_EQ(mean.size(), 11u);
  for (int k = 0; k < 10; ++k) EXPECT_NEAR(mean[k], k, 1e-9) << k;
}

TEST(WalkGaitFigures, CycleRmsAveragesTheSidesWithACycle) {
  // Side 0 has two cycles in both walks, side 1 only a contact under way at the first frame.
  std::vector<double> ramp(31);
  for (int f = 0; f <= 30; ++f) ramp[f] = f % 10;
  GaitFigures a, b;
  ContactResult ca, cb;
  for (int side = 0; side < 2; ++side) {
    a.angles[side].knee_deg = ramp;
    b.angles[side].knee_deg = ramp;
    for (double& v : b.angles[side].knee_deg) v += 2;
  }
  ca.feet[0] = cb.feet[0] = contacts_starting_at({10, 20, 30});
  ca.feet[1] = cb.feet[1] = contacts_starting_at({0, 25});
  EXPECT_NEAR(mean_cycle_rms(a, ca, b, cb, &LegAngleCurves::knee_deg), 2.0, 1e-9);
  EXPECT_NEAR(mean_cycle_rms(a, ca, b, cb, &LegAngleCurves::knee_deg, true), 0.0, 1e-9);
  ca.feet[0] = cb.feet[0] = contacts_starting_at({0});
  EXPECT_TRUE(std::isnan(mean_cycle_rms(a, ca, b, cb, &LegAngleCurves::knee_deg)));
}

}  // namespace
}  // namespace footfix
