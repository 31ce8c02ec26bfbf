// The swing blend on the sliding synthetic walk (pelvis x1.25: every lock onset and release
// changes the correction's velocity by ~0.35 m/s plus the swing's catch-up): contact frames and
// heights untouched, swings far from a contact untouched, position and velocity continuous where
// the blend meets the solve, and the correction's largest acceleration near lock onsets and
// releases much lower than the solve's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "footfix/solve/offline_solve.h"
#include "solve/swing_blend.h"
#include "support/synthetic_walk.h"

namespace footfix {
namespace {

struct Blended {
  OfflineSolveInput in;
  OfflineSolveResult solved, blended;
  int blend_frames = 0;
  Blended() {
    test::SyntheticWalk walk;
    walk.frames = 600;
    in = walk.make();
    OfflineSolveSettings unblended;
    unblended.swing_blend_s = 0;
    solved = solve_offline(in, unblended);
    blended = solved;
    const double blend_s = OfflineSolveSettings{}.swing_blend_s;
    blend_frames = static_cast<int>(std::lround(blend_s * in.fps));
    blend_swing_corrections(in, blend_s, blended);
  }
};

/// Frames from frame i to the nearest contact frame of `contact` (0 inside a contact).
int frames_to_contact(const std::vector<uint8_t>& contact, int i) {
  int best = 1 << 30;
  for (int j = 0; j < static_cast<int>(contact.size()); ++j)
    if (contact[j]) best = std::min(best, std::abs(i - j));
  return best;
}

/// Horizontal acceleration of the correction (solved target - input) at frame i: the blend's
/// axes, and the part the solve adds (the synthetic input toe itself stops dead at touch-down).
double accel_mps2(const std::vector<Vec3>& target, const std::vector<Vec3>& input, int i, double fps) {
  Vec3 a = (target[i + 1] - input[i + 1]) - (target[i] - input[i]) * 2.0 + (target[i - 1] - input[i - 1]);
  a.y = 0;
  return length(a) * fps * fps;
}

TEST(SwingBlend, LeavesContactsAndMidSwingAloneAndKeepsHeights) {
  const Blended b;
  ASSERT_GE(b.blend_frames, 2);
  int changed = 0;
  for (int leg = 0; leg < 2; ++leg)
    for (int i = 0; i < b.in.frame_count; ++i) {
      const Vec3 before = b.solved.toe_ws[leg][i], after = b.blended.toe_ws[leg][i];
      EXPECT_EQ(after.y, before.y) << i;
      if (frames_to_contact(b.in.contact[leg], i) == 0 || frames_to_contact(b.in.contact[leg], i) >= b.blend_frames) {
        EXPECT_EQ(after.x, before.x) << "leg " << leg << " frame " << i;
        EXPECT_EQ(after.z, before.z) << "leg " << leg << " frame " << i;
      } else {
        changed += length(after - before) > 1e-4;
      }
    }
  EXPECT_GT(changed, 20);  // it does act near the onsets and releases
  for (int i = 0; i < b.in.frame_count; ++i) EXPECT_EQ(b.blended.pelvis_ws[i], b.solved.pelvis_ws[i]);
}

TEST(SwingBlend, SpreadsTheVelocityChangeAtLockOnsetsAndReleases) {
  const Blended b;
  const double fps = b.in.fps;
  for (int leg = 0; leg < 2; ++leg) {
    double solved_peak = 0, blended_peak = 0, blended_jerk_step = 0;
    for (int i = 1; i + 1 < b.in.frame_count; ++i) {
      if (frames_to_contact(b.in.contact[leg], i) > b.blend_frames) continue;
      solved_peak = std::max(solved_peak, accel_mps2(b.solved.toe_ws[leg], b.in.toe_ws[leg], i, fps));
      blended_peak = std::max(blended_peak, accel_mps2(b.blended.toe_ws[leg], b.in.toe_ws[leg], i, fps));
    }
    // Continuity where the blend meets the solve: no acceleration there larger than the
    // blend's own (a kink in position or velocity would show as one).
    for (int i = 2; i + 2 < b.in.frame_count; ++i)
      if (frames_to_contact(b.in.contact[leg], i) == b.blend_frames)
        blended_jerk_step = std::max(blended_jerk_step, accel_mps2(b.blended.toe_ws[leg], b.in.toe_ws[leg], i, fps));
    std::printf("swing blend: leg %d: largest acceleration of the toe's correction within %d frames of a contact %.1f -> %.1f m/s^2, "
                "at the blend's far end %.1f\n",
                leg, b.blend_frames, solved_peak, blended_peak, blended_jerk_step);
    EXPECT_GT(solved_peak, 5.0);  // the fixture has pops to remove
    // The solve changes the correction's velocity within about fast_blend_s (0.025 s), the blend
    // over 0.15 s; a cubic's acceleration peaks at its ends and the solve's change is already
    // spread a little, so well short of 6x: measured 32.3 -> 18.1 m/s^2 here.
    EXPECT_LT(blended_peak, 0.6 * solved_peak);
    EXPECT_LE(blended_jerk_step, blended_peak + 1e-9);
  }
}

TEST(SwingBlend, ZeroOrSubFrameBlendChangesNothing) {
  const Blended b;
  for (double blend_s : {0.0, 0.5 / b.in.fps}) {
    OfflineSolveResult r = b.solved;
    blend_swing_corrections(b.in, blend_s, r);
    for (int leg = 0; leg < 2; ++leg) EXPECT_EQ(r.toe_ws[leg], b.solved.toe_ws[leg]);
  }
}

}  // namespace
}  // namespace footfix
