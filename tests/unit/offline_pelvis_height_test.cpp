// The fast solve's pull of the pelvis towards its input height (fast_pelvis_height): below-only
// (the default) it keeps a pelvis up that the pelvis-toe distances would bring down, and leaves a
// pelvis that rises exactly as without it; both ways (the reach-limited solve's) it damps a rise
// too. A synthetic stance: one toe planted for 2 s while its input slides 60 cm under the pelvis.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "footfix/solve/offline_solve.h"

namespace footfix {
namespace {

constexpr int k_pelvis_frames = 60;
constexpr double k_slide_m = 0.6;

/// The planted left toe's input slides along X from -0.3 to 0.3 m; the pelvis stands 1 m above
/// it (`pelvis_follows`: moving with it, so the lock at the middle makes the legs longer at the
/// ends) or stays over the middle (the lock makes them shorter).
OfflineSolveInput stance(bool pelvis_follows) {
  OfflineSolveInput in;
  in.frame_count = k_pelvis_frames;
  in.fps = 30;
  for (int leg = 0; leg < 2; ++leg) {
    in.contact[leg].assign(k_pelvis_frames, leg == 0 ? 1 : 0);
    in.contact_height_m[leg].assign(k_pelvis_frames, 0.0);
  }
  for (int f = 0; f < k_pelvis_frames; ++f) {
    const double x = k_slide_m * (static_cast<double>(f) / (k_pelvis_frames - 1) - 0.5);
    in.toe_ws[0].push_back({x, 0, 0});
    in.toe_ws[1].push_back({0.2, 0.4, 0.1});  // swinging, out of the way
    in.pelvis_ws.push_back({pelvis_follows ? x : 0.0, 1, 0});
  }
  return in;
}

/// Largest drop (> 0) or rise (< 0) of the solved pelvis against its input, by sign.
double largest_drop(const OfflineSolveInput& in, const OfflineSolveResult& r) {
  double drop = 0;
  for (int f = 0; f < k_pelvis_frames; ++f) drop = std::max(drop, in.pelvis_ws[f].y - r.pelvis_ws[f].y);
  return drop;
}
double largest_rise(const OfflineSolveInput& in, const OfflineSolveResult& r) {
  double rise = 0;
  for (int f = 0; f < k_pelvis_frames; ++f) rise = std::max(rise, r.pelvis_ws[f].y - in.pelvis_ws[f].y);
  return rise;
}

OfflineSolveSettings with_height(double weight, bool below_only) {
  OfflineSolveSettings s;
  s.fast_pelvis_height = weight;
  s.fast_pelvis_height_below_only = below_only;
  return s;
}

TEST(OfflinePelvisHeight, KeepsThePelvisUpWhereTheLockWouldBringItDown) {
  const OfflineSolveInput in = stance(true);
  const double free_drop = largest_drop(in, solve_offline(in, with_height(0, true)));
  const double held_drop = largest_drop(in, solve_offline(in, with_height(2, true)));
  // sqrt(1 + 0.3^2) - 1 = 44 mm if the pelvis took it all.
  EXPECT_GT(free_drop, 0.01);
  EXPECT_LT(held_drop, 0.5 * free_drop);
}

TEST(OfflinePelvisHeight, BelowOnlyLeavesARisingPelvisAsWithoutIt) {
  const OfflineSolveInput in = stance(false);
  const OfflineSolveResult free = solve_offline(in, with_height(0, true));
  const OfflineSolveResult below_only = solve_offline(in, with_height(2, true));
  const OfflineSolveResult both_ways = solve_offline(in, with_height(2, false));
  ASSERT_GT(largest_rise(in, free), 0.01);
  ASSERT_LT(largest_drop(in, free), 1e-9);  // the pelvis only rises: the pull below never acts
  for (int f = 0; f < k_pelvis_frames; ++f) EXPECT_NEAR(below_only.pelvis_ws[f].y, free.pelvis_ws[f].y, 1e-9) << f;
  EXPECT_LT(largest_rise(in, both_ways), largest_rise(in, free) - 0.005);
}

}  // namespace
}  // namespace footfix
