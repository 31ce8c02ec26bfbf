// A locked toe that leaves the leg's reach fast (a run or a long stride made to run ahead, at a
// low tick rate) is let go an update before it would be yanked off its contact point, so its
// unlock stays within the per-event pop limit (issue 33, section 4): on a generated walk (core
// suite) and on the shared 30 Hz run (skipped without ../shared). Each also runs with the
// predicted-miss release switched off, to show that the rule is what keeps it within the limit.
#include <gtest/gtest.h>

#include "footfix/core/error.h"
#include "footfix/eval/sliding.h"
#include "footfix/lock/event_pops.h"
#include "footfix/lock/lock_clip.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/walk/walk.h"
#include "support/paths.h"

namespace footfix {
namespace {

/// The worst per-event pop ratio of the runtime lock on `clip`, with the predicted-miss release
/// on (the defaults) or off.
double worst_pop(const Clip& clip, const Rig& rig, bool predicted_release) {
  RuntimeLockSettings settings;
  if (!predicted_release) settings.release_predicted_miss_m = 1;  // never reached: only the miss now counts
  const LockEventPops pops = lock_event_pops(clip, lock_clip(clip, rig, settings), rig);
  EXPECT_FALSE(pops.events.empty());
  return pops.worst_ratio;
}

TEST(LockFastRelease, ALongStrideAt24HzRunningAheadUnlocksWithoutAPop) {
  // A 1.4 m/s walk at 24 Hz whose root travels 1.25 x as far: each locked toe leaves the leg's
  // reach by several centimeters from one update to the next.
  WalkSettings settings;
  settings.fps = 24;
  settings.gait.speed_mps = 1.4;
  const WalkResult walk = generate_walk(Terrain{}, settings);
  const Clip ahead = make_sliding(walk.clip, walk.rig, 1.25);
  EXPECT_LE(worst_pop(ahead, walk.rig, true), k_event_pop_limit);
  EXPECT_GT(worst_pop(ahead, walk.rig, false), k_event_pop_limit);
}

TEST(LockFastRelease, TheSharedRunAt30HzRunningAheadUnlocksWithoutAPop) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  LoadedClip run = load_clip(test::shared_clips_dir() / "bandai1_run_active_001.bvh");
  ASSERT_NEAR(run.clip.fps, 30, 0.01);
  const Clip ahead = make_sliding(run.clip, run.rig, 1.25);
  EXPECT_LE(worst_pop(ahead, run.rig, true), k_event_pop_limit);
  EXPECT_GT(worst_pop(ahead, run.rig, false), k_event_pop_limit);
}

TEST(LockFastRelease, RejectsANonPositivePredictedMiss) {
  for (double bad : {0.0, -0.01}) {
    RuntimeLockSettings settings;
    settings.release_predicted_miss_m = bad;
    EXPECT_THROW(settings.validate(), Error) << bad;
  }
}

}  // namespace
}  // namespace footfix
