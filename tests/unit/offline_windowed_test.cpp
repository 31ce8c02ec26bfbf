// The windowed fast offline solve (long clips) against the whole-clip solve, on bundled clips
// made to slide and cut into several small windows: planted toes and pelvis where the whole-clip
// solve puts them, and no seam (velocity jump) where one window hands over to the next.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "../../src/solve/offline_window.h"
#include "footfix/contacts/reference_pose.h"
#include "footfix/eval/sliding.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "footfix/solve/offline_solve.h"
#include "solve/clean_problem.h"
#include "support/paths.h"

namespace footfix {
namespace {

// Tolerances. Positions: 0.1 mm, a tenth of optical mocap's marker noise and a twentieth of the
// 2 mm a planted toe may miss its target; what the lookahead leaves decays exponentially with it
// (measured: nanometers with the default settings, ~50 micrometers with the reach limit, whose
// locks have no foothold pull and spread further). Velocity at a seam: 1 mm/s, under 10
// micrometers per frame at 120 Hz, far below what a seam would have to jump to be seen.
constexpr double k_position_tolerance_m = 1e-4;
constexpr double k_seam_velocity_tolerance_mps = 1e-3;
// Frames either side of a seam whose velocity is checked.
constexpr int k_seam_frames = 3;

struct Deviation {
  double planted_toe_m = 0;      ///< largest |windowed - whole| of a toe in a contact frame
  double pelvis_m = 0;           ///< largest |windowed - whole| of the pelvis
  double seam_velocity_mps = 0;  ///< largest |velocity windowed - whole| of pelvis or toes at a seam
  int windows = 0;
};

struct Solved {
  OfflineSolveInput input;
  OfflineSolveResult whole, windowed;
  std::vector<int> seams;
};

/// The fast solve of a bundled clip made to slide by `factor`, whole and in windows.
Solved solve_both(const char* clip_name, double factor, bool reach_limit, int window, int lookahead) {
  LoadedClip loaded = load_clip(test::data_clip(clip_name));
  const Clip sliding = make_sliding(loaded.clip, loaded.rig, factor);
  ContactResult contacts = detect_contacts(sliding, loaded.rig, ContactSettings{});
  LegIkSettings ik;
  ik.reach_to_straight = reach_limit;
  Solved s;
  s.input = prepare_clean_problem(sliding, loaded.rig, contacts, ik).input;
  OfflineSolveSettings settings;
  if (reach_limit) use_reach_limit(settings);
  s.whole = solve_offline_fast(s.input, settings);
  s.windowed = detail::solve_offline_windowed(s.input, settings, window, lookahead, &s.seams);
  EXPECT_TRUE(s.whole.converged);
  EXPECT_TRUE(s.windowed.converged);
  return s;
}

Deviation compare(const Solved& s) {
  const OfflineSolveInput& in = s.input;
  Deviation d;
  d.windows = static_cast<int>(s.seams.size()) + 1;
  for (int f = 0; f < in.frame_count; ++f) {
    d.pelvis_m = std::max(d.pelvis_m, length(s.windowed.pelvis_ws[f] - s.whole.pelvis_ws[f]));
    for (int leg = 0; leg < 2; ++leg)
      if (in.contact[leg][f])
        d.planted_toe_m = std::max(d.planted_toe_m, length(s.windowed.toe_ws[leg][f] - s.whole.toe_ws[leg][f]));
  }
  auto velocity = [&](const std::vector<Vec3>& p, int f) { return (p[f] - p[f - 1]) * in.fps; };
  auto jump = [&](const std::vector<Vec3>& a, const std::vector<Vec3>& b, int f) {
    return length(velocity(a, f) - velocity(b, f));
  };
  for (int seam : s.seams)
    for (int f = seam - k_seam_frames; f <= seam + k_seam_frames; ++f) {
      if (f < 1 || f >= in.frame_count) continue;
      d.seam_velocity_mps = std::max(d.seam_velocity_mps, jump(s.windowed.pelvis_ws, s.whole.pelvis_ws, f));
      for (int leg = 0; leg < 2; ++leg)
        d.seam_velocity_mps = std::max(d.seam_velocity_mps, jump(s.windowed.toe_ws[leg], s.whole.toe_ws[leg], f));
    }
  return d;
}

void expect_windowed_matches_whole(const char* clip_name, double factor, bool reach_limit, int window, int lookahead) {
  SCOPED_TRACE(std::string(clip_name) + " x" + std::to_string(factor) + (reach_limit ? " reach limit" : ""));
  const Deviation d = compare(solve_both(clip_name, factor, reach_limit, window, lookahead));
  std::printf("%s x%.2f%s: %d windows: planted toes %.3g m, pelvis %.3g m, seam velocity %.3g m/s\n", clip_name,
              factor, reach_limit ? " reach limit" : "", d.windows, d.planted_toe_m, d.pelvis_m, d.seam_velocity_mps);
  EXPECT_GE(d.windows, 3);
  EXPECT_LE(d.planted_toe_m, k_position_tolerance_m);
  EXPECT_LE(d.pelvis_m, k_position_tolerance_m);
  EXPECT_LE(d.seam_velocity_mps, k_seam_velocity_tolerance_mps);
}

// Windows far shorter than the production ones (k_window_frames), with a lookahead of 4 s at
// 120 Hz (production: 2048 frames), so that each clip is cut several times, inside contacts too.
TEST(OfflineWindowed, MatchesTheWholeClipSolveOnSlidingClips) {
  for (double factor : {1.25, 0.75}) {
    expect_windowed_matches_whole("cmu_01_01_hops_turnaround.bvh", factor, false, 700, 480);
    expect_windowed_matches_whole("cmu3dsmax_131_01_start_walk_stop.bvh", factor, false, 600, 480);
    expect_windowed_matches_whole("cmu3dsmax_131_03_start_hop_stop_meters.bvh", factor, false, 600, 480);
  }
}

TEST(OfflineWindowed, MatchesTheWholeClipSolveWithTheReachLimit) {
  for (double factor : {1.25, 0.75}) expect_windowed_matches_whole("cmu_01_01_hops_turnaround.bvh", factor, true, 1100, 800);
}

// One window holding the whole clip is the whole-clip solve, to the bit (the window's contact
// locks are the whole clip's, its energy the same).
TEST(OfflineWindowed, OneWindowIsTheWholeClipSolveBitForBit) {
  const Solved s = solve_both("cmu_07_01_walk.bvh", 1.25, false, 100000, 2048);
  EXPECT_TRUE(s.seams.empty());
  EXPECT_EQ(s.windowed.iterations, s.whole.iterations);
  for (int f = 0; f < s.input.frame_count; ++f) {
    ASSERT_EQ(s.windowed.pelvis_ws[f], s.whole.pelvis_ws[f]) << "frame " << f;
    for (int leg = 0; leg < 2; ++leg) ASSERT_EQ(s.windowed.toe_ws[leg][f], s.whole.toe_ws[leg][f]) << "frame " << f;
  }
}

// clean_clip with the clip handed over (cleaned in place) gives the same clip and contacts as
// with the caller keeping it: a root-motion walk, and the same walk made in place (cleaned on a
// treadmill, in the ground's frame).
TEST(OfflineWindowed, CleanInPlaceIsTheSameAsCleanOfACopy) {
  LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip sliding = make_sliding(loaded.clip, loaded.rig, 1.25);
  for (bool treadmill : {false, true}) {
    SCOPED_TRACE(treadmill ? "in place (treadmill)" : "root motion");
    const Clip input = treadmill ? make_in_place(sliding, loaded.rig) : sliding;
    const CleanResult kept = clean_clip(input, loaded.rig, CleanSettings{});
    Clip handed = input;
    const CleanResult in_place = clean_clip(std::move(handed), loaded.rig, CleanSettings{});
    EXPECT_EQ(kept.treadmill, treadmill);
    EXPECT_EQ(in_place.treadmill, treadmill);
    ASSERT_EQ(in_place.cleaned.frame_count, input.frame_count);
    EXPECT_EQ(in_place.cleaned.rotations, kept.cleaned.rotations);
    EXPECT_EQ(in_place.cleaned.translations, kept.cleaned.translations);
    EXPECT_EQ(in_place.contacts.feet[0].contact, kept.contacts.feet[0].contact);
    EXPECT_EQ(in_place.contacts.feet[1].contact, kept.contacts.feet[1].contact);
    EXPECT_EQ(in_place.warnings, kept.warnings);
    EXPECT_NE(in_place.cleaned.translations, input.translations);  // it did clean
  }
}

// The same for a clip whose frame 0 is a reference pose (set aside, the rest cleaned in place,
// frame 0 put back as it was).
TEST(OfflineWindowed, CleanInPlaceAfterAReferenceFrameIsTheSameAsCleanOfACopy) {
  LoadedClip loaded = load_clip(test::data_clip("cmu_01_01_hops_turnaround.bvh"));
  ASSERT_TRUE(starts_with_reference_pose(loaded.clip, loaded.rig));
  const CleanResult kept = clean_clip(loaded.clip, loaded.rig, CleanSettings{});
  Clip handed = loaded.clip;
  const CleanResult in_place = clean_clip(std::move(handed), loaded.rig, CleanSettings{});
  ASSERT_EQ(in_place.cleaned.frame_count, loaded.clip.frame_count);
  EXPECT_EQ(in_place.cleaned.rotations, kept.cleaned.rotations);
  EXPECT_EQ(in_place.cleaned.translations, kept.cleaned.translations);
  EXPECT_EQ(in_place.contacts.feet[0].contact, kept.contacts.feet[0].contact);
  EXPECT_EQ(in_place.warnings, kept.warnings);
  for (int j = 0; j < loaded.clip.joint_count(); ++j) {
    EXPECT_EQ(in_place.cleaned.rotation(0, j), loaded.clip.rotation(0, j)) << "joint " << j;
    EXPECT_EQ(in_place.cleaned.translation(0, j), loaded.clip.translation(0, j)) << "joint " << j;
  }
  EXPECT_NE(in_place.cleaned.translations, loaded.clip.translations);  // it did clean
}

}  // namespace
}  // namespace footfix
