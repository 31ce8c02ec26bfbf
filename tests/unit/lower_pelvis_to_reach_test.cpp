// lower_pelvis_to_reach: the pelvis comes down by the least that brings planted targets within
// the leg, spread smoothly, and not at all where the targets are where the source had them.
// On the bundled CMU walk: one stance's targets are moved 8 cm farther from the hip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/fk.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "solve/clean_problem.h"
#include "solve/offline_apply.h"
#include "support/paths.h"

namespace footfix {
namespace {

constexpr double k_moved_m = 0.08;

struct Walk {
  LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  ContactResult contacts = detect_contacts(loaded.clip, loaded.rig, ContactSettings{});
  CleanProblem problem = prepare_clean_problem(loaded.clip, loaded.rig, contacts);
  /// A solve result that leaves everything where the source has it.
  OfflineSolveResult unmoved() const { return {problem.input.pelvis_ws, problem.input.toe_ws}; }
  /// The left leg's longest contact (the stance whose targets are moved).
  ContactInterval stance() const {
    const auto& runs = contacts.feet[0].intervals;
    return *std::max_element(runs.begin(), runs.end(), [](const ContactInterval& a, const ContactInterval& b) {
      return a.last_frame - a.first_frame < b.last_frame - b.first_frame;
    });
  }
  /// The unmoved result with the stance's targets k_moved_m farther from the hip, horizontally.
  OfflineSolveResult with_stance_moved() const {
    OfflineSolveResult r = unmoved();
    const ContactInterval c = stance();
    const int mid = (c.first_frame + c.last_frame) / 2;
    Vec3 away = problem.input.toe_ws[0][mid] - joint_world(loaded.clip, mid, loaded.rig.legs[0].hip).translation;
    away.y = 0;
    away = away * (1.0 / length(away));
    for (int f = c.first_frame; f <= c.last_frame; ++f) r.toe_ws[0][f] = r.toe_ws[0][f] + away * k_moved_m;
    return r;
  }
  /// The largest miss of the left toe over the stance after the leg IK.
  double stance_miss_m(const OfflineSolveResult& r, const LegIkSettings& ik) const {
    Clip out = loaded.clip;
    apply_offline_solve(out, loaded.rig.translation_joint, loaded.rig.legs, r, problem.heights, ik);
    double worst = 0;
    const ContactInterval c = stance();
    for (int f = c.first_frame; f <= c.last_frame; ++f)
      worst = std::max(worst, length(joint_world(out, f, loaded.rig.legs[0].contact_joint()).translation - r.toe_ws[0][f]));
    return worst;
  }
};

TEST(LowerPelvisToReach, TargetsWhereTheSourceHadThemLowerNothing) {
  Walk walk;
  OfflineSolveResult r = walk.unmoved();
  EXPECT_EQ(lower_pelvis_to_reach(walk.loaded.clip, walk.loaded.rig.translation_joint, walk.loaded.rig.legs,
                                  walk.problem.input.contact, LegIkSettings{}, r),
            0.0);
  for (size_t f = 0; f < r.pelvis_ws.size(); ++f) ASSERT_EQ(r.pelvis_ws[f].y, walk.problem.input.pelvis_ws[f].y) << f;
}

TEST(LowerPelvisToReach, TargetsBeyondTheLegAreReachedWithASmoothLocalDrop) {
  Walk walk;
  for (double pitch_deg : {0.0, 25.0}) {
    SCOPED_TRACE(pitch_deg);
    LegIkSettings ik;
    ik.max_foot_pitch_deg = pitch_deg;
    OfflineSolveResult r = walk.with_stance_moved();
    const double missed_m = walk.stance_miss_m(r, ik);
    EXPECT_GT(missed_m, 0.005);  // without the drop the leg falls short
    const double largest = lower_pelvis_to_reach(walk.loaded.clip, walk.loaded.rig.translation_joint,
                                                 walk.loaded.rig.legs, walk.problem.input.contact, ik, r);
    const double reached_miss_m = walk.stance_miss_m(r, ik);
    std::printf("pitch %.0f deg: stance missed by %.1f mm; dropped %.1f mm -> missed by %.2f mm\n", pitch_deg,
                1000 * missed_m, 1000 * largest, 1000 * reached_miss_m);
    EXPECT_LT(reached_miss_m, 0.001);
    // Smallest drop: 8 cm farther for a leg at most 40 degrees off vertical needs well under
    // 8 cm of drop.
    EXPECT_GT(largest, 0.002);
    EXPECT_LT(largest, k_moved_m);
    const ContactInterval c = walk.stance();
    const int far = static_cast<int>(std::ceil(0.5 * walk.loaded.clip.fps));
    double steepest = 0;
    for (size_t f = 0; f < r.pelvis_ws.size(); ++f) {
      const double drop = walk.problem.input.pelvis_ws[f].y - r.pelvis_ws[f].y;
      EXPECT_GE(drop, 0.0) << f;
      // Local: frames half a second or more from the stance keep their height (up to where the
      // other leg's contacts reach beyond theirs).
      if (static_cast<int>(f) < c.first_frame - far || static_cast<int>(f) > c.last_frame + far) {
        EXPECT_LT(drop, 1e-4) << f;
      }
      if (f > 0) steepest = std::max(steepest, std::abs(r.pelvis_ws[f].y - r.pelvis_ws[f - 1].y -
                                                        (walk.problem.input.pelvis_ws[f].y - walk.problem.input.pelvis_ws[f - 1].y)));
    }
    // Smooth: the drop changes by at most a tenth of itself per frame (about 0.05 at 0.08 s).
    EXPECT_LT(steepest, 0.1 * largest);
  }
}

TEST(LowerPelvisToReach, MovingThePelvisTowardsTheTargetsFirstNeedsLessDrop) {
  // The same stance moved 8 cm out, with the horizontal move first (as clean does): the pelvis
  // goes up to 3 cm towards the targets (the other leg's contacts allowing), and the drop that
  // is left is smaller; the targets are still reached, and the move is local and smooth.
  Walk walk;
  LegIkSettings ik;
  OfflineSolveResult lowered = walk.with_stance_moved(), moved = walk.with_stance_moved();
  const double drop_only = lower_pelvis_to_reach(walk.loaded.clip, walk.loaded.rig.translation_joint,
                                                 walk.loaded.rig.legs, walk.problem.input.contact, ik, lowered);
  const double drop_after_move = lower_pelvis_to_reach(walk.loaded.clip, walk.loaded.rig.translation_joint,
                                                       walk.loaded.rig.legs, walk.problem.input.contact, ik, moved, true);
  const double miss_m = walk.stance_miss_m(moved, ik);
  const ContactInterval c = walk.stance();
  const int far = static_cast<int>(std::ceil(0.5 * walk.loaded.clip.fps));
  double largest_move = 0, steepest = 0;
  auto horizontal = [](Vec3 v) { return Vec3{v.x, 0, v.z}; };
  for (size_t f = 0; f < moved.pelvis_ws.size(); ++f) {
    const double move = length(horizontal(moved.pelvis_ws[f] - walk.problem.input.pelvis_ws[f]));
    largest_move = std::max(largest_move, move);
    if (static_cast<int>(f) < c.first_frame - far || static_cast<int>(f) > c.last_frame + far) {
      EXPECT_LT(move, 1e-4) << f;
    }
    if (f > 0)
      steepest = std::max(steepest, length(horizontal((moved.pelvis_ws[f] - walk.problem.input.pelvis_ws[f]) -
                                                      (moved.pelvis_ws[f - 1] - walk.problem.input.pelvis_ws[f - 1]))));
  }
  std::printf("stance 8 cm out: drop %.1f mm alone, %.1f mm after a move of %.1f mm; missed by %.2f mm\n",
              1000 * drop_only, 1000 * drop_after_move, 1000 * largest_move, 1000 * miss_m);
  EXPECT_LT(drop_after_move, drop_only - 0.005);
  EXPECT_GT(largest_move, 0.005);
  EXPECT_LE(largest_move, 0.03 + 1e-9);
  EXPECT_LT(miss_m, 0.001);
  EXPECT_LT(steepest, 0.1 * largest_move);
}

// reach_drops_needed with a path the pelvis is held no lower than: the drops of the pelvis raised
// straight up to that path where the solve lowered it below (here 3 cm over the moved stance).
TEST(ReachDropsNeeded, APelvisBelowThePathItIsHeldToIsRaisedToItFirst) {
  Walk walk;
  const OfflineSolveResult on_path = walk.with_stance_moved();
  OfflineSolveResult lowered = on_path;
  const ContactInterval c = walk.stance();
  for (int f = c.first_frame; f <= c.last_frame; ++f) lowered.pelvis_ws[f].y -= 0.03;
  const Clip& clip = walk.loaded.clip;
  const Rig& rig = walk.loaded.rig;
  const auto& contact = walk.problem.input.contact;
  const auto drops = [&](const OfflineSolveResult& r, const std::vector<Vec3>* no_lower_than) {
    return reach_drops_needed(clip, rig.translation_joint, rig.legs, contact, LegIkSettings{}, r, nullptr, no_lower_than);
  };
  const auto expected = drops(on_path, nullptr);
  EXPECT_GT(*std::max_element(expected[0].begin(), expected[0].end()), 0.01);
  EXPECT_EQ(drops(lowered, &walk.problem.input.pelvis_ws), expected);
  EXPECT_NE(drops(lowered, nullptr), expected);  // held lower, the leg needs less
  EXPECT_EQ(drops(on_path, &walk.problem.input.pelvis_ws), expected);
}

}  // namespace
}  // namespace footfix
