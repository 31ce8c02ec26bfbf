// The clean's plan (solve/clean_plan.h): the steps that move a clip into the frame its one solve
// runs in, in the order the modes are checked, each checked again on the clip the steps before
// it leave; and undone in reverse order on the result. On the bundled CMU walk, whose frame 0 is
// a reference pose.
#include <gtest/gtest.h>

#include <cmath>
#include <variant>
#include <vector>

#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "solve/clean_plan.h"
#include "support/paths.h"

namespace footfix {
namespace {

std::vector<size_t> kinds_of(const std::vector<CleanStep>& steps) {
  std::vector<size_t> kinds;
  for (const CleanStep& step : steps) kinds.push_back(step.index());
  return kinds;
}

constexpr size_t k_ground = 0, k_reference = 1, k_loop = 2, k_carry = 3, k_treadmill = 4;

TEST(CleanPlan, GroundReferenceFrameAndLoopInThatOrderThenUndone) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip& clip = loaded.clip;
  const int root = loaded.rig.translation_joint;
  ASSERT_LT(clip.skeleton.parents[root], 0) << "the ground move below is a root's local move";
  CleanSettings settings;
  settings.ground.mode = GroundMode::height;
  settings.ground.height_m = 0.25;
  settings.loop = LoopMode::on;
  settings.treadmill.mode = TreadmillMode::off;
  CleanPlan plan(clip, nullptr, settings, nullptr);
  plan_clean(plan, loaded.rig);
  ASSERT_EQ(kinds_of(plan.steps), (std::vector<size_t>{k_ground, k_reference, k_loop}));
  // Frame 0 set aside, then up to a second wrapped around each end of the rest.
  const int rest = clip.frame_count - 1, pad = std::min(rest - 2, static_cast<int>(std::lround(clip.fps)));
  EXPECT_EQ(plan.clip().frame_count, rest + 2 * pad);
  EXPECT_NEAR(plan.clip().translation(pad, root).y, clip.translation(1, root).y - 0.25, 1e-12);
  // The solve's frame: each mode off once its step is taken, the pop guard off behind frame 0.
  EXPECT_EQ(plan.settings.ground.mode, GroundMode::keep);
  EXPECT_EQ(plan.settings.loop, LoopMode::off);
  EXPECT_EQ(plan.settings.pops.max_ratio, 0.0);
  EXPECT_EQ(clip.frame_count, rest + 1) << "the caller's clip is not changed";

  CleanResult result = clean_in_solve_frame(plan.clip(), plan.owned_clip(), loaded.rig, plan.settings, plan.analysis);
  leave_solve_frame(plan.steps, loaded.rig, result);
  EXPECT_EQ(result.cleaned.frame_count, clip.frame_count);
  EXPECT_EQ(result.contacts.feet[0].contact.size(), static_cast<size_t>(clip.frame_count));
  EXPECT_EQ(result.ground_offset_m, -0.25);
  EXPECT_TRUE(result.loop);
  // Frame 0 goes back as it was, moved onto the ground with the rest.
  for (int j = 0; j < clip.joint_count(); ++j) {
    EXPECT_EQ(result.cleaned.rotation(0, j), clip.rotation(0, j)) << "joint " << j;
    if (j != root) {
      EXPECT_EQ(result.cleaned.translation(0, j), clip.translation(0, j)) << "joint " << j;
    }
  }
  EXPECT_NEAR(result.cleaned.translation(0, root).y, clip.translation(0, root).y - 0.25, 1e-12);
}

TEST(CleanPlan, GivenContactsTakeNoReferenceFrameOrLoopStep) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  CleanSettings settings;
  settings.ground.mode = GroundMode::height;
  settings.loop = LoopMode::on;
  settings.treadmill.mode = TreadmillMode::off;
  const ContactResult contacts = detect_contacts(loaded.clip, loaded.rig, settings.contacts);
  CleanPlan plan(loaded.clip, nullptr, settings, &contacts);
  plan_clean(plan, loaded.rig);
  EXPECT_EQ(kinds_of(plan.steps), (std::vector<size_t>{k_ground}));
  EXPECT_EQ(plan.clip().frame_count, loaded.clip.frame_count);
}

// A root held still while the feet slide, on a treadmill whose ground stands still (a given
// velocity of zero): the treadmill step shifts it by nothing, and the clip so left is checked
// again: its pinned root is then carried by its feet.
TEST(CleanPlan, ATreadmillStandingStillLeavesAPinnedRootToBeCarried) {
  LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  Clip& clip = loaded.clip;
  const int root = loaded.rig.translation_joint;
  ASSERT_LT(clip.skeleton.parents[root], 0) << "the pin below sets a root's world position";
  for (int f = 1; f < clip.frame_count; ++f) {
    clip.translation(f, root).x = clip.translation(0, root).x;
    clip.translation(f, root).z = clip.translation(0, root).z;
  }
  CleanSettings settings;
  settings.treadmill.ground_velocity_mps = Vec3{0, 0, 0};
  CleanPlan plan(clip, nullptr, settings, nullptr);
  plan_clean(plan, loaded.rig);
  EXPECT_EQ(kinds_of(plan.steps), (std::vector<size_t>{k_reference, k_treadmill, k_carry}));

  settings.treadmill.ground_velocity_mps.reset();  // auto: the pinned root is carried first
  CleanPlan carried(clip, nullptr, settings, nullptr);
  plan_clean(carried, loaded.rig);
  EXPECT_EQ(kinds_of(carried.steps), (std::vector<size_t>{k_reference, k_carry}));
}

}  // namespace
}  // namespace footfix
