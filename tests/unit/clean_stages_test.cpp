// The clean's stages after the solve (solve/clean_stages.h), each on the bundled CMU walk with a
// solve result made by hand: the planted-miss report counts planted frames only, swing smoothing
// leaves planted targets alone, reach with IK brings a stance moved out of the leg's reach back
// within it, and the pop guard stage smooths a knee step under a planted leg and reports it.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/fk.h"
#include "footfix/core/math.h"
#include "footfix/eval/metrics.h"
#include "footfix/pipeline/load_clip.h"
#include "solve/clean_problem.h"
#include "solve/clean_stages.h"
#include "support/paths.h"

namespace footfix {
namespace {

struct StagedWalk {
  LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip& clip = loaded.clip;
  const Rig& rig = loaded.rig;
  ContactResult contacts = detect_contacts(loaded.clip, loaded.rig, ContactSettings{});
  CleanProblem problem = prepare_clean_problem(loaded.clip, loaded.rig, contacts);
  /// A solve result that leaves everything where the source has it.
  OfflineSolveResult unmoved() const { return {problem.input.pelvis_ws, problem.input.toe_ws}; }
  /// A result whose clip is the source and whose contacts are the detected ones.
  CleanResult result_of(const Clip& cleaned) const {
    CleanResult r;
    r.cleaned = cleaned;
    r.contacts = contacts;
    return r;
  }
  /// The left leg's longest contact.
  ContactInterval stance() const {
    const auto& runs = contacts.feet[0].intervals;
    return *std::max_element(runs.begin(), runs.end(), [](const ContactInterval& a, const ContactInterval& b) {
      return a.last_frame - a.first_frame < b.last_frame - b.first_frame;
    });
  }
  /// The first frame after the stance where the left foot swings.
  int swing_frame() const {
    const auto& planted = contacts.feet[0].contact;
    for (int f = stance().last_frame + 1; f < clip.frame_count; ++f)
      if (!planted[f]) return f;
    return -1;
  }
};

TEST(CleanStages, PlantedMissReportCountsOnlyPlantedFrames) {
  const StagedWalk walk;
  const int planted = (walk.stance().first_frame + walk.stance().last_frame) / 2, swing = walk.swing_frame();
  ASSERT_GE(swing, 0);
  std::array<std::vector<Vec3>, 2> targets;
  for (int s = 0; s < 2; ++s)
    for (int f = 0; f < walk.clip.frame_count; ++f)
      targets[s].push_back(joint_world(walk.clip, f, walk.rig.legs[s].contact_joint()).translation);
  targets[0][swing].y += 0.10;  // a swing has no target to keep: not a miss

  // 5 mm off in one planted frame: reported, under the warning's threshold.
  targets[0][planted].y += 0.005;
  CleanResult small = walk.result_of(walk.clip);
  report_planted_misses(small, walk.rig, targets);
  EXPECT_NEAR(small.max_planted_miss_m[0], 0.005, 1e-9);
  EXPECT_TRUE(small.warnings.empty());

  // 2 cm off: a warning that counts that one frame.
  targets[0][planted].y += 0.015;
  CleanResult large = walk.result_of(walk.clip);
  report_planted_misses(large, walk.rig, targets);
  EXPECT_NEAR(large.max_planted_miss_m[0], 0.02, 1e-9);
  EXPECT_LT(large.max_planted_miss_m[1], 1e-9);
  ASSERT_EQ(large.warnings.size(), 1u);
  EXPECT_NE(large.warnings[0].find("left foot: planted target missed in 1 planted frames, by up to 20 mm"),
            std::string::npos)
      << large.warnings[0];
}

// The alternating part of a path at frame f (its second difference, halved): a zigzag's
// amplitude, twice.
double zigzag_m(const std::vector<Vec3>& path, int f) {
  return path[f].x - 0.5 * (path[f - 1].x + path[f + 1].x);
}

TEST(CleanStages, SwingSmoothingSmoothsSwingsAndKeepsPlantedTargets) {
  const StagedWalk walk;
  OfflineSolveResult noisy = walk.unmoved();
  for (auto& toe : noisy.toe_ws)
    for (size_t f = 0; f < toe.size(); ++f) toe[f].x += f % 2 ? 0.004 : -0.004;
  OfflineSolveResult smoothed = noisy;
  smooth_swing_targets(smoothed, walk.problem.input.contact, 0.0, walk.clip.fps);
  for (int s = 0; s < 2; ++s) {
    const auto& planted = walk.problem.input.contact[s];
    double before = 0, after = 0;
    int swings = 0;
    for (int f = 1; f + 1 < walk.clip.frame_count; ++f) {
      if (planted[f]) {
        ASSERT_EQ(smoothed.toe_ws[s][f], noisy.toe_ws[s][f]) << "leg " << s << " frame " << f;
        continue;
      }
      before += std::pow(zigzag_m(noisy.toe_ws[s], f), 2);
      after += std::pow(zigzag_m(smoothed.toe_ws[s], f), 2);
      ++swings;
    }
    ASSERT_GT(swings, 10);
    std::printf("leg %d: swing zigzag rms %.2f -> %.2f mm\n", s, 1000 * std::sqrt(before / swings),
                1000 * std::sqrt(after / swings));
    EXPECT_LT(after, 0.25 * 0.25 * before) << "leg " << s;
  }
}

TEST(CleanStages, ReachThenIkBringAStanceBeyondTheLegBack) {
  const StagedWalk walk;
  // The stance's targets 8 cm farther from the hip, horizontally.
  OfflineSolveResult moved = walk.unmoved();
  const ContactInterval c = walk.stance();
  const int mid = (c.first_frame + c.last_frame) / 2;
  Vec3 away = walk.problem.input.toe_ws[0][mid] - joint_world(walk.clip, mid, walk.rig.legs[0].hip).translation;
  away.y = 0;
  away = away * (1.0 / length(away));
  for (int f = c.first_frame; f <= c.last_frame; ++f) moved.toe_ws[0][f] += away * 0.08;
  const LegIkSettings ik;

  // Without the reach stage the IK falls short.
  OfflineSolveResult unreached = moved;
  std::vector<std::string> kept_warnings;
  EXPECT_EQ(reach_planted_targets(walk.clip, walk.rig, walk.problem.input, ik, false, unreached, kept_warnings), 0.0);
  EXPECT_TRUE(kept_warnings.empty());
  CleanResult short_of = walk.result_of(walk.clip);
  apply_solve_to_legs(short_of, walk.rig, unreached, walk.problem.heights, ik);
  report_planted_misses(short_of, walk.rig, unreached.toe_ws);
  EXPECT_GT(short_of.unreached_frames[0], 0);
  EXPECT_GT(short_of.max_planted_miss_m[0], 0.005);

  // With it the pelvis comes down and the leg reaches.
  OfflineSolveResult reached = moved;
  std::vector<std::string> warnings;
  const double drop_m = reach_planted_targets(walk.clip, walk.rig, walk.problem.input, ik, true, reached, warnings);
  CleanResult within = walk.result_of(walk.clip);
  apply_solve_to_legs(within, walk.rig, reached, walk.problem.heights, ik);
  report_planted_misses(within, walk.rig, reached.toe_ws);
  std::printf("stance 8 cm out: planted miss %.1f mm; pelvis down %.1f mm -> miss %.2f mm\n",
              1000 * short_of.max_planted_miss_m[0], 1000 * drop_m, 1000 * within.max_planted_miss_m[0]);
  EXPECT_GT(drop_m, 0.0);
  EXPECT_LT(within.max_planted_miss_m[0], 0.001);
  EXPECT_LT(within.max_planted_miss_m[1], 0.001);
  EXPECT_EQ(warnings.size(), drop_m > k_pelvis_drop_warn_m ? 1u : 0u);
}

TEST(CleanStages, PopGuardStageSmoothsAKneeStepUnderAPlantedLeg) {
  const StagedWalk walk;
  // The left knee bent 6 degrees more over the left stance (a lock switched on and off in one
  // frame each): a pop at both edges.
  const LegChain& left = walk.rig.legs[0];
  const ContactInterval c = walk.stance();
  Clip stepped = walk.clip;
  for (int f = c.first_frame; f <= c.last_frame; ++f)
    stepped.rotation(f, left.knee) = normalize(stepped.rotation(f, left.knee) * axis_angle(left.knee_side_ls, 6 * k_pi / 180));
  const ContactMask mask{walk.contacts.feet[0].contact, walk.contacts.feet[1].contact};
  const double pop_before = compare_clips(walk.clip, stepped, walk.rig, mask).pop_ratio;
  ASSERT_GT(pop_before, 2.0);

  const PopGuardSettings settings;
  CleanResult r = walk.result_of(stepped);
  guard_cleaned_pops(r, walk.rig, capture_pop_guard_source(walk.clip, walk.rig, settings), settings);
  const double pop_after = compare_clips(walk.clip, r.cleaned, walk.rig, mask).pop_ratio;
  std::printf("knee step over a stance: pop %.2f -> %.2f, %d frames smoothed, planted toe moved %.1f mm\n", pop_before,
              pop_after, r.pops.frames_smoothed, 1000 * r.pops.max_planted_shift_m[0]);
  EXPECT_GT(r.pops.frames_smoothed, 0);
  EXPECT_LT(pop_after, settings.max_ratio + 1e-3);
  EXPECT_GT(r.pops.max_planted_shift_m[0], 0.0);  // the lock given up at the stance's edges is reported
  for (int s = 0; s < 2; ++s) {
    const bool warned = std::any_of(r.warnings.begin(), r.warnings.end(), [&](const std::string& w) {
      return w.rfind(std::string(to_string(static_cast<Side>(s))) + " foot: moved by up to", 0) == 0;
    });
    EXPECT_EQ(warned, r.pops.max_planted_shift_m[s] > k_planted_miss_warn_m) << "leg " << s;
  }
}

}  // namespace
}  // namespace footfix
