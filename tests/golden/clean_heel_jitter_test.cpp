// A planted toe that jitters against its heel in the source (mocap noise on the foot's rotation)
// must not shake the heel once the toe is locked. The bundled walk's left foot (heel joint) gets
// +-3 degrees of frame-alternating noise inside its contacts, which swings the toe joint by a few
// millimeters each frame while the heel stays; cleaned, the left heel's acceleration inside those
// contacts stays near the cleaned original's. (Keeping the source's heel-to-toe offset frame by
// frame, as the leg IK did, hands the toe's jitter to the heel: hundreds of m/s^2 at 120 Hz.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <numbers>
#include <vector>

#include "footfix/core/fk.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "support/paths.h"

namespace footfix {
namespace {

constexpr double k_jitter_deg = 3.0;
constexpr int k_edge_frames = 12;  // contact frames next to an onset or release are left out

/// Largest acceleration (m/s^2) of `joint` over frames at least k_edge_frames inside `contacts`.
double largest_inner_accel(const Clip& clip, int joint, const std::vector<ContactInterval>& contacts) {
  std::vector<Vec3> p(static_cast<size_t>(clip.frame_count));
  joint_trajectory(clip, joint, p);
  double worst = 0;
  for (const ContactInterval& in : contacts)
    for (int f = in.first_frame + k_edge_frames; f <= in.last_frame - k_edge_frames; ++f)
      worst = std::max(worst, length(p[f + 1] - p[f] * 2.0 + p[f - 1]) * clip.fps * clip.fps);
  return worst;
}

TEST(CleanHeelJitter, PlantedToeJitterDoesNotShakeTheHeel) {
  const LoadedClip walk = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const LegChain& left = walk.rig.legs[0];
  ASSERT_GE(left.toe, 0);
  const CleanResult original = clean_clip(walk.clip, walk.rig, CleanSettings{});
  const std::vector<ContactInterval>& contacts = original.contacts.feet[0].intervals;

  Clip jittery = walk.clip;
  for (const ContactInterval& in : contacts)
    for (int f = in.first_frame; f <= in.last_frame; ++f) {
      const double sign = f % 2 == 0 ? 1.0 : -1.0;
      jittery.rotation(f, left.heel) =
          normalize(jittery.rotation(f, left.heel) * axis_angle({1, 0, 0}, sign * k_jitter_deg * std::numbers::pi / 180));
    }
  // The same contacts for both, so only the jitter differs.
  const CleanResult cleaned = clean_clip(jittery, walk.rig, CleanSettings{}, &original.contacts);

  const double source_toe = largest_inner_accel(jittery, left.toe, contacts);
  const double before = largest_inner_accel(original.cleaned, left.heel, contacts);
  const double after = largest_inner_accel(cleaned.cleaned, left.heel, contacts);
  std::printf("heel jitter: jittered source toe up to %.0f m/s^2 inside contacts; cleaned heel %.1f -> %.1f m/s^2\n",
              source_toe, before, after);
  ASSERT_GT(source_toe, 100.0);  // the noise is there
  EXPECT_LT(after, std::max(2.0 * before, 20.0));
}

}  // namespace
}  // namespace footfix
