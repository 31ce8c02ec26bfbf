// The per-frame pop measure sees a pop that is smaller than the clip's largest acceleration
// (invisible to leg_accel_ratio), at the frame where it happens; the pelvis drop measure sees a
// lowered root.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "footfix/core/fk.h"
#include "footfix/eval/metrics.h"
#include "footfix/pipeline/load_clip.h"
#include "support/paths.h"

namespace footfix {
namespace {

struct Walk {
  LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  ContactMask none() const {
    return {std::vector<std::uint8_t>(loaded.clip.frame_count, 0), std::vector<std::uint8_t>(loaded.clip.frame_count, 0)};
  }
};

/// Frame (away from the ends) where the left toe's acceleration, over +-15 frames, is lowest.
int quietest_frame(const Clip& clip, int toe) {
  std::vector<Vec3> p(clip.frame_count);
  joint_trajectory(clip, toe, p);
  int best = -1;
  double best_peak = 1e300;
  for (int f = 30; f + 30 < clip.frame_count; ++f) {
    double peak = 0;
    for (int g = f - 15; g <= f + 15; ++g) peak = std::max(peak, length(p[g + 1] - p[g] * 2.0 + p[g - 1]));
    if (peak < best_peak) {
      best_peak = peak;
      best = f;
    }
  }
  return best;
}

TEST(PopMetric, IdenticalClipsHaveNoPop) {
  Walk w;
  ClipMetrics m = compare_clips(w.loaded.clip, w.loaded.clip, w.loaded.rig, w.none());
  EXPECT_LE(m.pop_ratio, 1.0);
  EXPECT_EQ(m.max_pelvis_drop_cm, 0.0);
}

TEST(PopMetric, ASmallLockOnsetStepShowsAtItsFrame) {
  // A lock onset that snaps the foot: from frame k on, the ankle is turned by 0.01 rad (the toe
  // jumps about a millimetre in one frame and stays), in the quietest stretch of the stance.
  Walk w;
  const LegChain& leg = w.loaded.rig.legs[0];
  const int k = quietest_frame(w.loaded.clip, leg.contact_joint());
  ASSERT_GT(k, 0);
  Clip popped = w.loaded.clip;
  for (int f = k; f < popped.frame_count; ++f)
    popped.rotation(f, leg.heel) = popped.rotation(f, leg.heel) * axis_angle({1, 0, 0}, 0.01);
  ClipMetrics m = compare_clips(w.loaded.clip, popped, w.loaded.rig, w.none());
  // The whole-clip ratio cannot see it: the walk's own toe-offs are far larger.
  EXPECT_LT(m.leg_accel_ratio, 1.05);
  EXPECT_GT(m.pop_ratio, 1.5);
  EXPECT_NEAR(m.pop_frame, k, 1);
}

TEST(PopMetric, PelvisDropIsTheLargestLowering) {
  Walk w;
  Clip lowered = w.loaded.clip;
  const int root = w.loaded.rig.translation_joint;
  // World Y is the internal frame's up; the root has no parent, so its local Y is world Y.
  ASSERT_LT(w.loaded.clip.skeleton.parents[root], 0);
  lowered.translation(40, root).y -= 0.023;
  lowered.translation(41, root).y -= 0.011;
  lowered.translation(90, root).y += 0.05;  // raised: not a drop
  ClipMetrics m = compare_clips(w.loaded.clip, lowered, w.loaded.rig, w.none());
  EXPECT_NEAR(m.max_pelvis_drop_cm, 2.3, 1e-6);
}

}  // namespace
}  // namespace footfix

namespace footfix {
namespace {

TEST(PopReference, IsTheFlooredMaximumWithinTheWindowOfEveryFrame) {
  // Against the definition, frame by frame, on accelerations of every size around the floor,
  // for clip lengths shorter and longer than the window and rates giving odd and even windows.
  std::uint32_t state = 12345;
  auto next = [&state] { return (state = state * 1664525u + 1013904223u) >> 8; };
  for (double fps : {24.0, 30.0, 60.0, 120.005}) {
    const int half = pop_window_frames(fps);
    for (int n : {1, 2, 3, 5, 2 * half + 1, 2 * half + 2, 97, 1000}) {
      std::vector<double> accel(static_cast<size_t>(n));
      for (double& a : accel) a = static_cast<double>(next() % 4000) / 100.0;  // 0 - 40 m/s^2
      const std::vector<double> ref = pop_reference_mps2(accel, fps);
      ASSERT_EQ(ref.size(), accel.size());
      for (int f = 0; f < n; ++f) {
        double expected = k_pop_floor_mps2;
        for (int g = std::max(0, f - half); g <= std::min(n - 1, f + half); ++g) expected = std::max(expected, accel[g]);
        ASSERT_EQ(ref[f], expected) << "fps " << fps << ", " << n << " frames, frame " << f;
      }
    }
  }
}

}  // namespace
}  // namespace footfix
