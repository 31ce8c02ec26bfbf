// The per-event pop measure (issue 33, section 4) on a clip whose input has a glitch: the
// whole-clip acceleration ratio cannot see a pop added at a lock, the per-event one does.
#include <gtest/gtest.h>

#include <cmath>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/eval/metrics.h"
#include "footfix/eval/sliding.h"
#include "footfix/lock/event_pops.h"
#include "footfix/lock/lock_clip.h"
#include "footfix/rig/pop_measure.h"
#include "footfix/walk/walk.h"

namespace footfix {
namespace {

TEST(LockEventPops, APopAtALockIsSeenDespiteAGlitchInTheInput) {
  WalkSettings settings;
  settings.gait.duration_s = 6;
  const WalkResult walk = generate_walk(Terrain{}, settings);
  const int root = walk.rig.translation_joint;
  const int half = pop_window_frames(walk.clip.fps) + 2;  // outside every event's window

  // The first lock after 1 s, and a frame outside every lock's and unlock's window for the
  // glitch: the root 20 cm up for one frame.
  Clip input = walk.clip;
  const LockClipResult plain = lock_clip(input, walk.rig, RuntimeLockSettings{});
  const LockEventPops before_glitch = lock_event_pops(input, plain, walk.rig);
  ASSERT_GE(before_glitch.events.size(), 6u);
  int pop_frame = -1, glitch_frame = -1;
  for (const LockEventPop& e : before_glitch.events)
    if (e.lock && e.frame > walk.clip.fps && (pop_frame < 0 || e.frame < pop_frame)) pop_frame = e.frame;
  for (int f = pop_frame + half; f < input.frame_count - 1 && glitch_frame < 0; ++f) {
    bool far = true;
    for (const LockEventPop& e : before_glitch.events) far = far && std::abs(e.frame - f) > half;
    if (far) glitch_frame = f;
  }
  ASSERT_GT(pop_frame, 0);
  ASSERT_GT(glitch_frame, 0);
  input.translation(glitch_frame, root).y += 0.20;

  // The lock of the clip without the glitch, measured against the input with it.
  LockClipResult locked = plain;
  const ContactMask mask = contact_mask(detect_contacts(walk.clip, walk.rig, ContactSettings{}));
  auto event_at = [&](const LockEventPops& pops) {
    for (const LockEventPop& e : pops.events)
      if (e.frame == pop_frame && e.lock) return e;
    ADD_FAILURE() << "no lock at frame " << pop_frame;
    return LockEventPop{};
  };
  const LockEventPops clean_pops = lock_event_pops(input, locked, walk.rig);
  EXPECT_LE(event_at(clean_pops).ratio, k_event_pop_limit);

  // A 3 cm one-frame jerk of the whole body at that lock: 0.06 m x fps^2 of toe acceleration.
  locked.locked.translation(pop_frame, root).y += 0.03;
  const ClipMetrics whole = compare_clips(input, locked.locked, walk.rig, mask);
  const LockEventPops pops = lock_event_pops(input, locked, walk.rig);
  EXPECT_LT(whole.leg_accel_ratio, 1.1);  // the glitch hides it from the whole-clip ratio
  EXPECT_GT(event_at(pops).ratio, 2.0);
  EXPECT_GE(pops.over_limit, 1);
  ASSERT_NE(pops.worst(), nullptr);
  EXPECT_LE(std::abs(pops.worst()->frame - pop_frame), pop_window_frames(walk.clip.fps));  // it or a neighbour
}

}  // namespace
}  // namespace footfix
