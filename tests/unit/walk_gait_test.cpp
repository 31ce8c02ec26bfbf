// Gait planning: the state machine, footstep placement from the other foot, phases, idle stance,
// turning and determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "footfix/core/error.h"
#include "footfix/walk/gait.h"
#include "footfix/walk/humanoid.h"
#include "footfix/walk/walk_body.h"

namespace footfix {
namespace {

FeetGeometry humanoid_feet() {
  const Clip clip = make_humanoid_clip();
  return make_walk_body(clip.skeleton, detect_rig(clip), default_leg_limits()).feet;
}

GaitPlan plan(const std::string& path, const std::string& terrain = "flat", std::uint64_t seed = 1, double duration = 8) {
  GaitSettings s;
  s.path = parse_walk_path(path);
  s.seed = seed;
  s.duration_s = duration;
  return plan_gait(s, parse_terrain_spec(terrain), humanoid_feet());
}

double lateral(const Footstep& a, const Footstep& b) {
  const Vec3 left{std::cos(a.yaw_rad), 0, -std::sin(a.yaw_rad)};
  return std::abs(dot(b.toe_m - a.toe_m, left));
}

TEST(WalkGait, StraightWalkStatesAndAlternation) {
  const GaitPlan p = plan("straight");
  ASSERT_GT(p.steps.size(), 8u);
  EXPECT_EQ(p.steps[0].state, GaitState::idle);
  EXPECT_EQ(p.steps[1].state, GaitState::idle);
  EXPECT_EQ(p.steps[2].state, GaitState::start);
  EXPECT_EQ(p.steps[2].side, Side::left);
  EXPECT_EQ(p.steps[3].state, GaitState::right_go);
  EXPECT_EQ(p.steps[4].state, GaitState::left_go);
  const size_t n = p.steps.size();
  // The walk ends with two stop steps, the first by the foot whose turn it is.
  EXPECT_TRUE(p.steps[n - 2].state == GaitState::right_stop || p.steps[n - 2].state == GaitState::left_stop);
  EXPECT_TRUE(p.steps[n - 1].state == GaitState::right_stop || p.steps[n - 1].state == GaitState::left_stop);
  EXPECT_NE(p.steps[n - 1].side, p.steps[n - 2].side);
  for (size_t i = 3; i < n; ++i) EXPECT_NE(p.steps[i].side, p.steps[i - 1].side) << i;
  EXPECT_EQ(p.alternation_breaks(), 0);
  for (size_t i = 2; i < n; ++i) EXPECT_DOUBLE_EQ(p.steps[i].phase, p.steps[i].side == Side::left ? 0.25 : 0.75);
  // Half a cycle between steps; toe contact overlaps (double support).
  for (size_t i = 3; i < n; ++i) {
    EXPECT_NEAR(p.steps[i].roll_begin_s - p.steps[i - 1].roll_begin_s, p.step_period_s, 1e-9);
    EXPECT_LT(p.steps[i - 1].plant_s, p.steps[i].lift_s);
  }
}

TEST(WalkGait, FootstepsArePlannedFromTheOtherFoot) {
  const GaitPlan p = plan("straight");
  for (size_t i = 4; i + 2 < p.steps.size(); ++i) {
    const Footstep& a = p.steps[i - 1];
    const Footstep& b = p.steps[i];
    EXPECT_NEAR(b.toe_m.z - a.toe_m.z, p.step_length_m, 0.05 * p.step_length_m) << i;  // +-3% seeded variation
    EXPECT_NEAR(lateral(a, b), GaitSettings{}.walk_width_m, 0.02) << i;
  }
  // The START step is half a step.
  EXPECT_NEAR(p.steps[2].toe_m.z - p.steps[1].toe_m.z, 0.5 * p.step_length_m, 0.05 * p.step_length_m);
}

TEST(WalkGait, StoppingReturnsToTheWiderIdleStance) {
  const GaitPlan p = plan("stop-go", "flat", 1, 12);
  int starts = 0, stops = 0;
  for (const Footstep& s : p.steps) {
    starts += s.state == GaitState::start;
    stops += s.state == GaitState::left_stop || s.state == GaitState::right_stop;
  }
  EXPECT_EQ(starts, 2);
  EXPECT_EQ(stops, 4);
  EXPECT_EQ(p.alternation_breaks(), 0);
  // After each pair of stop steps the feet stand side by side at the idle width, wider than walking.
  for (size_t i = 1; i < p.steps.size(); ++i) {
    const Footstep& a = p.steps[i - 1];
    const Footstep& b = p.steps[i];
    const bool stop_pair = (a.state == GaitState::left_stop || a.state == GaitState::right_stop) &&
                           (b.state == GaitState::left_stop || b.state == GaitState::right_stop);
    if (!stop_pair) continue;
    EXPECT_NEAR(lateral(a, b), GaitSettings{}.idle_width_m, 1e-9);
    EXPECT_GT(GaitSettings{}.idle_width_m, GaitSettings{}.walk_width_m);
    const Vec3 forward{std::sin(a.yaw_rad), 0, std::cos(a.yaw_rad)};
    EXPECT_NEAR(dot(b.toe_m - a.toe_m, forward), 0, 1e-9);
  }
  // The body holds still while idle: between the second stop's plant and the next start.
  for (size_t i = 1; i < p.steps.size(); ++i)
    if (p.steps[i].state == GaitState::start && p.steps[i - 1].state != GaitState::idle) {
      const double t0 = p.steps[i - 1].plant_s, t1 = p.steps[i].roll_begin_s;
      ASSERT_GT(t1 - t0, 0.5);
      const BodyKnot a = sample_body(p, t0 + 0.01), b = sample_body(p, t1 - 0.01);
      EXPECT_LT(length(a.center - b.center), 1e-9);
    }
}

TEST(WalkGait, TurningKeepsPlantedFootstepsAndTurnsTheHeading) {
  const GaitPlan p = plan("turn:90", "flat", 1, 10);
  EXPECT_NEAR(p.steps.back().yaw_rad * k_rad_to_deg, 90, 1.0);
  EXPECT_EQ(p.alternation_breaks(), 0);
  // While a foot is planted its sampled toe position and heading do not move, even though the
  // body keeps turning.
  const FeetGeometry feet = humanoid_feet();
  for (double t = 1.0; t < 9.0; t += 0.01) {
    for (Side side : {Side::left, Side::right}) {
      const FootSample a = sample_foot(p, side, t, feet[static_cast<int>(side)]);
      const FootSample b = sample_foot(p, side, t + 0.01, feet[static_cast<int>(side)]);
      if (!a.contact || !b.contact || a.foothold != b.foothold) continue;
      const Vec3 toe_a = a.ankle + rotate(a.foot_rotation, feet[static_cast<int>(side)].toe);
      const Vec3 toe_b = b.ankle + rotate(b.foot_rotation, feet[static_cast<int>(side)].toe);
      EXPECT_LT(length(toe_a - toe_b), 1e-9) << t;
    }
  }
  // Headings increase monotonically step by step.
  for (size_t i = 3; i < p.steps.size(); ++i) EXPECT_GE(p.steps[i].yaw_rad, p.steps[i - 1].yaw_rad - 1e-12);
}

TEST(WalkGait, DeterministicForASeed) {
  const GaitPlan a = plan("turn:30", "hills", 7), b = plan("turn:30", "hills", 7), c = plan("turn:30", "hills", 8);
  ASSERT_EQ(a.steps.size(), b.steps.size());
  bool differs = false;
  for (size_t i = 0; i < a.steps.size(); ++i) {
    EXPECT_EQ(a.steps[i].toe_m, b.steps[i].toe_m);
    if (i < c.steps.size() && a.steps[i].toe_m != c.steps[i].toe_m) differs = true;
  }
  EXPECT_TRUE(differs);
}

TEST(WalkGait, StairFootholdsSitOnOneTreadEach) {
  // Up the stairs and down them: each foothold on one tread, each tread taken by one foot.
  for (const char* terrain : {"stairs", "stairs-down"}) {
    SCOPED_TRACE(terrain);
    const Terrain t = parse_terrain_spec(terrain);
    const GaitPlan p = plan("straight", terrain, 1, 12);
    const FeetGeometry feet = humanoid_feet();
    std::vector<int> footholds(t.stair_count, 0);
    for (const Footstep& s : p.steps) {
      if (s.tread < 0 || s.tread >= t.stair_count) continue;
      ++footholds[s.tread];
      const FootGeometry& f = feet[static_cast<int>(s.side)];
      // Heel and tip (sole) over the same tread as the foot's centre.
      EXPECT_EQ(t.tread_index(s.toe_m.z + f.heel_sole.z - f.toe.z), s.tread);
      EXPECT_EQ(t.tread_index(s.toe_m.z + f.tip_sole.z - f.toe.z), s.tread);
      EXPECT_NEAR(s.toe_m.y - f.toe_height_m(), t.height(s.toe_m.x, s.toe_m.z), 1e-9);
    }
    // Every tread up to the last one reached (where the walk stops, both feet on it) once.
    const int last = p.steps.back().tread;
    ASSERT_GE(last, 8);
    for (int i = 0; i < std::min(last, t.stair_count); ++i) EXPECT_EQ(footholds[i], 1) << "tread " << i;
    // Never more than one tread beyond the other foot.
    for (size_t i = 3; i < p.steps.size(); ++i) EXPECT_LE(p.steps[i].tread, p.steps[i - 1].tread + 1) << i;
  }
}

/// Least distance (m) from a foothold's heel, ball and tip sole points to an edge of the tread
/// under its ball, measured along the stairs; negative when one stands on another tread.
double edge_margin_m(const Terrain& t, const Footstep& s) {
  const int tread = t.tread_index(s.ball_sole_m.z);
  double margin = 1e9;
  for (const Vec3& p : {s.heel_sole_m, s.ball_sole_m, s.tip_sole_m}) {
    if (t.tread_index(p.z) != tread) return -1;
    if (tread >= 0) margin = std::min(margin, p.z - t.tread_begin_z(tread));
    if (tread < t.stair_count) margin = std::min(margin, t.tread_begin_z(tread + 1) - p.z);
  }
  return margin;
}

TEST(WalkGait, StairFootholdsKeepTheSoleOffEveryEdgeOrSaySo) {
  // Every foothold - the first step onto the flight, the steps on and off it, the stop on the
  // treads or the landing, turning on them - keeps its whole sole on one tread (or the ground
  // before, or the landing) at least 1 cm from the tread's edges, at slow to fast speeds and
  // with walks stopping at different places.
  const FeetGeometry feet = humanoid_feet();
  for (const char* terrain : {"stairs", "stairs-down", "stairs:0.2:0.28", "stairs-down:0.2:0.28", "stairs-down:0.2:0.35"})
    for (const char* path : {"straight", "stop-go", "turn:180"})
      for (double speed : {0.5, 1.0, 2.0})
        for (double seconds : {8.0, 10.0}) {
          SCOPED_TRACE(std::string(terrain) + " " + path + " " + std::to_string(speed) + " m/s " + std::to_string(seconds) + " s");
          GaitSettings s;
          s.path = parse_walk_path(path);
          s.speed_mps = speed;
          s.duration_s = seconds;
          const Terrain t = parse_terrain_spec(terrain);
          const GaitPlan p = plan_gait(s, t, feet);
          for (const Footstep& step : p.steps) EXPECT_GE(edge_margin_m(t, step), 0.01 - 1e-9) << "step " << step.index;
          for (const std::string& w : p.warnings) EXPECT_EQ(w.find("too short for the foot"), std::string::npos) << w;
        }
  // Treads shorter than the foot and its margins: the plan says so.
  GaitSettings s;
  const GaitPlan short_treads = plan_gait(s, parse_terrain_spec("stairs-down:0.12:0.26"), feet);
  const bool said = std::any_of(short_treads.warnings.begin(), short_treads.warnings.end(),
                                [](const std::string& w) { return w.find("too short for the foot") != std::string::npos; });
  EXPECT_TRUE(said);
}

TEST(WalkGait, TurningBackDownTheStairsStepsOneTreadAtATime) {
  // Up the stairs, round, and down again to the ground before them.
  const GaitPlan p = plan("turn:180", "stairs", 1, 8);
  int highest = -1;
  for (size_t i = 3; i < p.steps.size(); ++i) {
    highest = std::max(highest, p.steps[i].tread);
    EXPECT_LE(std::abs(p.steps[i].tread - p.steps[i - 1].tread), 1) << i;
  }
  EXPECT_GE(highest, 2);
  EXPECT_EQ(p.steps.back().tread, -1);
}

TEST(WalkGait, PathNames) {
  EXPECT_EQ(parse_walk_path("straight").kind, PathKind::straight);
  EXPECT_EQ(parse_walk_path("stop-go").kind, PathKind::stop_go);
  EXPECT_DOUBLE_EQ(parse_walk_path("turn:-45").turn_deg, -45);
  for (const char* bad : {"turn", "turn:x", "zigzag", "turn:1000"}) EXPECT_THROW(parse_walk_path(bad), Error) << bad;
}

}  // namespace
}  // namespace footfix
