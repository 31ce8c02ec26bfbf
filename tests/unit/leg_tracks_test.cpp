// leg_tracks holds, for every frame, the positions world_pose gives (to the bit; the foot tip
// as foot_tip_world, within round-off), and the clean's stages given those tracks compute what
// they compute from the clip alone (the tracks only spare them the forward kinematics); tracks
// of another clip or other legs are not read.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "footfix/core/fk.h"
#include "footfix/eval/sliding.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/rig/leg_tracks.h"
#include "footfix/solve/clean.h"
#include "solve/clean_problem.h"
#include "solve/guard_pops.h"
#include "solve/loop_wrap.h"
#include "support/paths.h"

namespace footfix {
namespace {

void expect_track(const Clip& clip, int joint, const std::vector<Vec3>& track, const char* what) {
  ASSERT_EQ(track.size(), static_cast<size_t>(clip.frame_count)) << what;
  std::vector<Transform> world(static_cast<size_t>(clip.joint_count()));
  for (int f = 0; f < clip.frame_count; ++f) {
    world_pose(clip, f, world);
    ASSERT_EQ(track[f], world[static_cast<size_t>(joint)].translation) << what << " frame " << f;
  }
}

TEST(LegTracks, HoldEachJointsPositionsToTheBit) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip& clip = loaded.clip;
  const Rig& rig = loaded.rig;
  const LegTracks tracks = leg_tracks(clip, rig);
  EXPECT_EQ(tracks.pelvis.size(), static_cast<size_t>(clip.frame_count));
  expect_track(clip, tracked_pelvis_joint(rig), tracks.pelvis, "pelvis");
  expect_track(clip, rig.translation_joint, tracks.root_positions(), "root");
  for (int s = 0; s < 2; ++s) {
    const LegChain& leg = rig.legs[s];
    const LegTrack& t = tracks.legs[s];
    expect_track(clip, leg.hip, t.hip, "hip");
    expect_track(clip, leg.knee, t.knee, "knee");
    expect_track(clip, leg.heel, t.heel, "heel");
    ASSERT_GE(leg.toe, 0);
    expect_track(clip, leg.toe, t.toe, "toe");
    expect_track(clip, leg.contact_joint(), t.contact(), "contact joint");
    for (int f = 0; f < clip.frame_count; ++f) ASSERT_LT(length(t.tip[f] - foot_tip_world(clip, f, leg)), 1e-12) << "tip frame " << f;
  }
  // The legs are not one another's: the left toe is not the right one.
  EXPECT_GT(length(tracks.legs[0].toe[0] - tracks.legs[1].toe[0]), 0.05);
}

TEST(LegTracks, MatchOnlyTheirOwnClipAndLegs) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Rig& rig = loaded.rig;
  const LegTracks tracks = leg_tracks(loaded.clip, rig);
  EXPECT_TRUE(tracks.match(loaded.clip, rig));
  Clip shorter = loaded.clip;
  keep_frames(shorter, 0, shorter.frame_count - 1);
  EXPECT_FALSE(tracks.match(shorter, rig));
  Rig swapped = rig;
  std::swap(swapped.legs[0], swapped.legs[1]);
  EXPECT_FALSE(tracks.match(loaded.clip, swapped));
  Rig other_root = rig;
  other_root.translation_joint = rig.translation_joint + 1;
  EXPECT_FALSE(tracks.match(loaded.clip, other_root));
}

// Each stage that takes tracks, with and without them, on a clip made to slide (so that the
// reach pass and the pop guard have work to do): the same result to the bit.
TEST(LegTracks, StagesGiveTheSameResultWithOrWithoutThem) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Rig& rig = loaded.rig;
  const Clip clip = make_sliding(loaded.clip, rig, 1.25);
  const LegTracks tracks = leg_tracks(clip, rig);
  const CleanSettings settings;

  const ContactResult contacts = detect_contacts(clip, rig, settings.contacts);
  const ContactResult contacts_tracked = detect_contacts(clip, rig, settings.contacts, &tracks);
  EXPECT_EQ(contacts.ground_height_m, contacts_tracked.ground_height_m);
  for (int s = 0; s < 2; ++s) {
    EXPECT_EQ(contacts.feet[s].contact, contacts_tracked.feet[s].contact);
    EXPECT_EQ(contacts.feet[s].smoothed, contacts_tracked.feet[s].smoothed);
  }

  const CleanProblem problem = prepare_clean_problem(clip, rig, contacts, settings.ik);
  const CleanProblem problem_tracked = prepare_clean_problem(clip, rig, contacts, settings.ik, &tracks);
  EXPECT_EQ(problem.input.pelvis_ws, problem_tracked.input.pelvis_ws);
  for (int s = 0; s < 2; ++s) {
    EXPECT_EQ(problem.input.toe_ws[s], problem_tracked.input.toe_ws[s]);
    EXPECT_EQ(problem.input.toe_min_height_m[s], problem_tracked.input.toe_min_height_m[s]);
    ASSERT_EQ(problem.heights[s].size(), problem_tracked.heights[s].size());
    for (size_t f = 0; f < problem.heights[s].size(); ++f) {
      EXPECT_EQ(problem.heights[s][f].toe_min_m, problem_tracked.heights[s][f].toe_min_m);
      EXPECT_EQ(problem.heights[s][f].heel_min_m, problem_tracked.heights[s][f].heel_min_m);
      EXPECT_EQ(problem.heights[s][f].toe_end_min_m, problem_tracked.heights[s][f].toe_end_min_m);
    }
  }
  LegIkSettings reach_ik = settings.ik;
  reach_ik.reach_to_straight = true;
  const OfflineSolveInput reach = offline_input_from_clip(clip, rig.translation_joint, rig.legs, reach_ik);
  const OfflineSolveInput reach_tracked = offline_input_from_clip(clip, rig.translation_joint, rig.legs, reach_ik, &tracks);
  for (int s = 0; s < 2; ++s) {
    ASSERT_FALSE(reach.reach_m[s].empty());
    EXPECT_EQ(reach.reach_m[s], reach_tracked.reach_m[s]);
    EXPECT_EQ(reach.reach_offset_m[s], reach_tracked.reach_offset_m[s]);
  }

  OfflineSolveInput input = problem.input;
  OfflineSolveResult solved = solve_offline(input, settings.solve);
  // The pelvis raised 5 cm: planted targets out of the legs' reach, for the reach pass to bring
  // back (horizontally, then down).
  for (Vec3& p : solved.pelvis_ws) p.y += 0.05;
  OfflineSolveResult lowered = solved, lowered_tracked = solved;
  const double drop = lower_pelvis_to_reach(clip, rig.translation_joint, rig.legs, input.contact, settings.ik, lowered, true);
  const double drop_tracked = lower_pelvis_to_reach(clip, rig.translation_joint, rig.legs, input.contact, settings.ik,
                                                    lowered_tracked, true, &tracks);
  EXPECT_GT(drop, 0.01);
  EXPECT_EQ(drop, drop_tracked);
  EXPECT_EQ(lowered.pelvis_ws, lowered_tracked.pelvis_ws);

  const PopGuardSource pops = capture_pop_guard_source(clip, rig, settings.pops);
  const PopGuardSource pops_tracked = capture_pop_guard_source(clip, rig, settings.pops, &tracks);
  for (int s = 0; s < 2; ++s) {
    EXPECT_EQ(pops.allowed_mps2[s], pops_tracked.allowed_mps2[s]);
    EXPECT_EQ(pops.lowest_m[s], pops_tracked.lowest_m[s]);
  }

  // The IK reads the legs' lengths from the tracks, taken before the pelvis moves, or from the
  // clip after it moved (the same lengths within round-off): the same legs within round-off.
  Clip applied = clip, applied_tracked = clip;
  apply_offline_solve(applied, rig.translation_joint, rig.legs, lowered, problem.heights, settings.ik);
  apply_offline_solve(applied_tracked, rig.translation_joint, rig.legs, lowered, problem.heights, settings.ik, &tracks);
  EXPECT_EQ(applied.translations, applied_tracked.translations);
  double largest = 0;
  for (size_t k = 0; k < applied.rotations.size(); ++k) {
    const Quat& a = applied.rotations[k];
    const Quat& b = applied_tracked.rotations[k];
    largest = std::max({largest, std::abs(a.w - b.w), std::abs(a.x - b.x), std::abs(a.y - b.y), std::abs(a.z - b.z)});
  }
  EXPECT_LT(largest, 1e-9);
  EXPECT_NE(applied.rotations, clip.rotations);  // the IK did change the legs

  // The pop guard reads the cleaned clip's positions from its tracks: the same result.
  Clip guarded = applied, guarded_tracked = applied;
  const LegTracks applied_tracks = leg_tracks(applied, rig);
  ContactResult guard_contacts = contacts, guard_contacts_tracked = contacts;  // each guard may release contact ends
  const PopGuardReport report = guard_pops(guarded, rig, pops, settings.pops, &guard_contacts);
  const PopGuardReport report_tracked = guard_pops(guarded_tracked, rig, pops, settings.pops, &guard_contacts_tracked, &applied_tracks);
  EXPECT_EQ(report.frames_smoothed, report_tracked.frames_smoothed);
  EXPECT_EQ(guarded.rotations, guarded_tracked.rotations);
  EXPECT_EQ(guarded.translations, guarded_tracked.translations);
}

}  // namespace
}  // namespace footfix
