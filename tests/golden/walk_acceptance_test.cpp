// The procedural walk's acceptance figures on every terrain and path: planted toes do not slide
// (< 0.5 mm/frame), no foot joint goes more than 2 mm into the terrain, IK reaches its targets
// within 1 mm, no joint leaves its limits, no knee flips, footsteps alternate; the body rises on
// slopes and stairs; the output is deterministic; other skeletons (CMU) walk too.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "footfix/contacts/contact_eval.h"
#include "footfix/core/fk.h"
#include "footfix/bvh/bvh.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/walk/walk.h"
#include "footfix/walk/walk_body.h"
#include "footfix/walk/walk_metrics.h"
#include "support/paths.h"

namespace footfix {
namespace {

struct Case {
  const char* terrain;
  const char* path;
  double duration_s;
};

WalkResult walk_of(const Case& c, double fps = 60, std::uint64_t seed = 1) {
  WalkSettings s;
  s.gait.path = parse_walk_path(c.path);
  s.gait.duration_s = c.duration_s;
  s.gait.seed = seed;
  s.fps = fps;
  return generate_walk(parse_terrain_spec(c.terrain), s);
}

void expect_acceptance(const WalkResult& w, const std::string& what) {
  SCOPED_TRACE(what);
  const WalkMeasures m = measure_walk(w.clip, w.rig, w.terrain, w.contacts, default_leg_limits());
  EXPECT_LT(m.max_stance_slide_mm, 0.5);
  EXPECT_LE(m.max_penetration_mm, 2.0);
  EXPECT_LT(w.max_ik_error_m, 0.001);
  EXPECT_EQ(m.limit_violations, 0);
  EXPECT_EQ(m.knee_flips, 0);
  EXPECT_EQ(w.plan.alternation_breaks(), 0);
  // Both feet stand part of the time, with the toe joint at its height above the sole.
  const WalkBody body = make_walk_body(w.clip.skeleton, w.rig, default_leg_limits());
  for (int side = 0; side < 2; ++side) {
    ASSERT_FALSE(w.contacts.feet[side].intervals.empty());
    for (const ContactInterval& in : w.contacts.feet[side].intervals) {
      const Vec3 p = in.planted_position_m;
      EXPECT_NEAR(p.y - w.terrain.height(p.x, p.z), body.feet[side].toe_height_m(), 0.002);
    }
  }
}

TEST(WalkAcceptance, EveryTerrainStraight) {
  for (const char* t : {"flat", "slope:10", "slope:14", "slope:-20", "hills", "stairs", "stairs:0.2:0.28"})
    expect_acceptance(walk_of({t, "straight", 8}), t);
}

TEST(WalkAcceptance, TurningAndStopGo) {
  expect_acceptance(walk_of({"flat", "turn:90", 10}), "flat turn:90");
  expect_acceptance(walk_of({"hills", "turn:-60", 10}), "hills turn:-60");
  // A sharper turn than 20 degrees per step is followed with a lag, without breaking the legs.
  const WalkResult sharp = walk_of({"flat", "turn:720", 12});
  expect_acceptance(sharp, "flat turn:720");
  EXPECT_GT(sharp.plan.steps.back().yaw_rad * k_rad_to_deg, 240);
  EXPECT_LT(sharp.plan.steps.back().yaw_rad * k_rad_to_deg, 720);
  const WalkResult sg = walk_of({"flat", "stop-go", 12});
  expect_acceptance(sg, "flat stop-go");
  // Two bouts, each from START to the last STOP, with the idle stance between.
  int starts = 0;
  for (const Footstep& s : sg.plan.steps) starts += s.state == GaitState::start;
  EXPECT_EQ(starts, 2);
}

TEST(WalkAcceptance, BodyRisesOnSlopesAndStairs) {
  for (const char* t : {"slope:10", "stairs"}) {
    SCOPED_TRACE(t);
    const WalkResult w = walk_of({t, "straight", 10});
    const int last = w.clip.frame_count - 1;
    const Vec3 p0 = joint_world(w.clip, 0, w.rig.pelvis).translation;
    const Vec3 p1 = joint_world(w.clip, last, w.rig.pelvis).translation;
    const double ground0 = w.terrain.height(p0.x, p0.z), ground1 = w.terrain.height(p1.x, p1.z);
    EXPECT_GT(ground1 - ground0, 0.5);
    EXPECT_NEAR((p1.y - p0.y) - (ground1 - ground0), 0, 0.06);  // the pelvis keeps its height above the ground
  }
}

std::string bvh_text(const Clip& clip) {
  std::ostringstream out;
  write_bvh(clip, out);
  return out.str();
}

TEST(WalkAcceptance, DeterministicForASeed) {
  const Case c{"hills", "turn:45", 6};
  const std::string a = bvh_text(walk_of(c, 60, 3).clip), b = bvh_text(walk_of(c, 60, 3).clip);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, bvh_text(walk_of(c, 60, 4).clip));
}

TEST(WalkAcceptance, CmuSkeletonsWalkToo) {
  for (const char* name : {"cmu_07_01_walk.bvh", "cmu3dsmax_131_01_start_walk_stop.bvh"}) {
    const LoadedClip source = load_clip(test::data_clip(name));
    WalkSettings s;
    s.gait.duration_s = 6;
    for (bool frames : {true, false}) {
      s.upper_body_from_frames = frames;
      const WalkResult w = generate_walk(source.clip, source.rig, parse_terrain_spec("slope:6"), s);
      EXPECT_EQ(w.clip.joint_count(), source.clip.joint_count());
      expect_acceptance(w, std::string(name) + (frames ? " frames" : " rest"));
    }
  }
}

}  // namespace
}  // namespace footfix
