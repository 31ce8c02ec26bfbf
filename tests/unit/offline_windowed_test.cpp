// The windowed fast offline solve (long clips) against the whole-clip solve, on bundled clips
// made to slide and cut into several small windows: planted toes and pelvis where the whole-clip
// solve puts them, and no seam (velocity jump) where one window hands over to the next.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "../../src/solve/offline_window.h"
#include "footfix/eval/sliding.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "footfix/solve/offline_solve.h"
#include "support/paths.h"

namespace footfix {
namespace {

struct Deviation {
  double planted_toe_m = 0;  ///< largest |windowed - whole| of a toe in a contact frame
  double pelvis_m = 0;       ///< largest |windowed - whole| of the pelvis
  double seam_velocity_mps = 0;  ///< largest |velocity windowed - whole| at a window seam
};

Deviation compare(const OfflineSolveInput& in, const OfflineSolveResult& whole, const OfflineSolveResult& windowed,
                  int window, int lookahead) {
  Deviation d;
  const int n = in.frame_count;
  for (int f = 0; f < n; ++f) {
    d.pelvis_m = std::max(d.pelvis_m, length(windowed.pelvis_ws[f] - whole.pelvis_ws[f]));
    for (int s = 0; s < 2; ++s)
      if (in.contact[s][f]) d.planted_toe_m = std::max(d.planted_toe_m, length(windowed.toe_ws[s][f] - whole.toe_ws[s][f]));
  }
  // Seams: the first frame each window after the first keeps (its pinned frames come before).
  auto velocity = [&](const std::vector<Vec3>& p, int f) { return (p[f] - p[f - 1]) * in.fps; };
  for (int kept = window - lookahead; kept < n; kept += window - lookahead - detail::k_window_pinned_frames)
    for (int f = std::max(1, kept - 2); f <= std::min(n - 1, kept + 2); ++f) {
      d.seam_velocity_mps = std::max(d.seam_velocity_mps, length(velocity(windowed.pelvis_ws, f) - velocity(whole.pelvis_ws, f)));
      for (int s = 0; s < 2; ++s)
        d.seam_velocity_mps = std::max(d.seam_velocity_mps, length(velocity(windowed.toe_ws[s], f) - velocity(whole.toe_ws[s], f)));
    }
  return d;
}

Deviation windowed_against_whole(const char* clip_name, double factor, bool reach_limit, int window, int lookahead) {
  LoadedClip loaded = load_clip(test::data_clip(clip_name));
  const Clip sliding = make_sliding(loaded.clip, loaded.rig, factor);
  ContactResult contacts = detect_contacts(sliding, loaded.rig, ContactSettings{});
  LegIkSettings ik;
  ik.reach_to_straight = reach_limit;
  CleanProblem problem = prepare_clean_problem(sliding, loaded.rig, contacts, ik);
  OfflineSolveSettings settings;
  if (reach_limit) use_reach_limit(settings);
  const OfflineSolveResult whole = solve_offline_fast(problem.input, settings);
  const OfflineSolveResult windowed = detail::solve_offline_windowed(problem.input, settings, window, lookahead);
  EXPECT_TRUE(whole.converged);
  EXPECT_TRUE(windowed.converged);
  EXPECT_GE(problem.input.frame_count, 3 * window) << "too short for several windows";
  const Deviation d = compare(problem.input, whole, windowed, window, lookahead);
  std::printf("%s x%.2f%s: %d frames, windows of %d: toe %.3g m, pelvis %.3g m, seam velocity %.3g m/s\n", clip_name,
              factor, reach_limit ? " reach" : "", problem.input.frame_count, window, d.planted_toe_m, d.pelvis_m,
              d.seam_velocity_mps);
  return d;
}

TEST(OfflineWindowed, Sweep) {
  for (double factor : {1.25, 0.75}) {
    for (int look : {600, 800}) windowed_against_whole("cmu_01_01_hops_turnaround.bvh", factor, true, look + 300, look);
    windowed_against_whole("cmu_01_01_hops_turnaround.bvh", factor, false, 540, 240);
    windowed_against_whole("cmu3dsmax_131_01_start_walk_stop.bvh", factor, false, 330, 240);
    windowed_against_whole("cmu3dsmax_131_03_start_hop_stop_meters.bvh", factor, false, 340, 240);
  }
}

}  // namespace
}  // namespace footfix
