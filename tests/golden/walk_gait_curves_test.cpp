// The walk's joint curves over the gait cycle (issue 32), measured with our own FK on the clip:
// the swing knee bends about as far as an adult's, the swing foot is lifted only as high as its
// clearance needs, and the knee's mean cycle comes nearer the shared optical-mocap walks'. The
// issue's goal for the last is 8 degrees RMS; the bounds here hold what the walk reaches now.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "footfix/pipeline/load_clip.h"
#include "footfix/walk/gait_figures.h"
#include "footfix/walk/walk.h"
#include "support/paths.h"

namespace footfix {
namespace {

WalkResult level_walk(double speed) {
  WalkSettings s;
  s.gait.speed_mps = speed;
  s.gait.duration_s = 10;
  return generate_walk(parse_terrain_spec("flat"), s);
}

/// Mean-cycle knee RMS difference (degrees, both sides averaged) between two clips, each cut
/// into cycles by the contact detector.
double knee_rms(const Clip& a, const Rig& rig_a, const Clip& b, const Rig& rig_b) {
  const ContactResult ca = detect_contacts(a, rig_a, ContactSettings{}), cb = detect_contacts(b, rig_b, ContactSettings{});
  const GaitFigures ga = measure_gait(a, rig_a, ca), gb = measure_gait(b, rig_b, cb);
  double sum = 0;
  for (int side = 0; side < 2; ++side)
    sum += rms_difference(mean_gait_cycle(ga.angles[side].knee_deg, ca.feet[side]),
                          mean_gait_cycle(gb.angles[side].knee_deg, cb.feet[side]));
  return 0.5 * sum;
}

TEST(WalkGaitCurves, SwingKneeBendsAsFarAsAnAdults) {
  // Adults bend the knee 60-70 degrees in early swing (Perry; Winter); the shared walks 66-71.
  // A swing foot hung from its heel alone was lifted 0.21 m to clear its toes, and its knee bent
  // past 90 degrees.
  for (double speed : {0.8, 1.3, 1.8}) {
    SCOPED_TRACE(speed);
    const WalkResult w = level_walk(speed);
    const GaitFigures g = measure_gait(w.clip, w.rig, w.contacts);
    for (int side = 0; side < 2; ++side) {
      const std::vector<double> cycle = mean_gait_cycle(g.angles[side].knee_deg, w.contacts.feet[side]);
      ASSERT_FALSE(cycle.empty());
      const double peak = *std::max_element(cycle.begin(), cycle.end());
      EXPECT_GT(peak, 55) << "side " << side;
      EXPECT_LT(peak, 80) << "side " << side;
    }
  }
}

TEST(WalkGaitCurves, LevelSwingIsLiftedOnlyForItsClearance) {
  // On level ground a walking step's swing needs its minimum clearance and no more lift.
  const WalkResult w = level_walk(1.3);
  int walking = 0;
  for (const Footstep& s : w.plan.steps) {
    if (s.state != GaitState::left_go && s.state != GaitState::right_go) continue;
    ++walking;
    EXPECT_LE(s.lift_m, 1.5 * GaitSettings{}.min_clearance_m) << "step " << s.index;
  }
  EXPECT_GE(walking, 10);
}

TEST(WalkGaitCurves, KneeCycleNearerTheSharedWalks) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  // Each shared walk against the walk at its speed (as bench_walk_gait does). The walk's knee
  // before the tip-led swing: 24.6, 25.8 and 20.3 degrees RMS from the CMU, Xia and Bandai walks.
  const std::pair<const char*, double> limits[] = {
      {"cmu_07_01_walk.bvh", 23}, {"xia_neutral_01_000_walk.bvh", 22}, {"bandai1_walk_normal_001.bvh", 17.5}};
  for (const auto& [name, limit] : limits) {
    SCOPED_TRACE(name);
    const LoadedClip ref = load_clip(test::shared_clips_dir() / name);
    const ContactResult contacts = detect_contacts(ref.clip, ref.rig, ContactSettings{});
    const double speed = std::clamp(measure_gait(ref.clip, ref.rig, contacts).speed_mps, 0.5, 2.0);
    const WalkResult w = level_walk(speed);
    EXPECT_LT(knee_rms(w.clip, w.rig, ref.clip, ref.rig), limit);
  }
}

}  // namespace
}  // namespace footfix
