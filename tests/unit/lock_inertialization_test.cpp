// The per-foot runtime lock (lock/inertialization.h): inertialization keeps position and
// velocity continuous at every lock/unlock, an unlock's quintic offset adds no acceleration at
// either end of its blend, the offset is gone after the blend time, a transition
// in the middle of a blend stays continuous only with the old-offset rule, lock/unlock follow
// the distance thresholds, an unlock's blend is long enough to bound its acceleration, and a
// release after the step reads as an unlock in it. Expected values come from the method's
// definition, not from the code.
#include "footfix/lock/inertialization.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "footfix/core/error.h"
#include "lock/inertialization_math.h"  // internal to lock, not installed

namespace footfix {
namespace {

constexpr double k_dt = 1.0 / 120.0;

void expect_near(Vec3 a, Vec3 b, double tol, const char* what) {
  EXPECT_LT(length(a - b), tol) << what << ": (" << a.x << ", " << a.y << ", " << a.z << ") vs (" << b.x << ", "
                                << b.y << ", " << b.z << ")";
}

/// What the state shows right after its latest transition (time 0 of the new blend): the source
/// plus the new offset; w0(0) = 1, w1(0) = 0, w2(0) = 0, w3(0) = 1.
struct Shown {
  Vec3 position, velocity;
};
Shown shown_after_transition(const FootLock& lock, Vec3 source, Vec3 source_velocity) {
  return {source + lock.offset().position, source_velocity + lock.offset().velocity};
}

TEST(LockInertialization, WeightsHaveTheCubicBoundaryValues) {
  const double T = 0.5;
  OffsetWeights start = cubic_weights(0, T), end = cubic_weights(T, T), after = cubic_weights(3 * T, T);
  EXPECT_DOUBLE_EQ(start.w0, 1);
  EXPECT_DOUBLE_EQ(start.w1, 0);
  EXPECT_DOUBLE_EQ(start.w2, 0);
  EXPECT_DOUBLE_EQ(start.w3, 1);
  for (const OffsetWeights& w : {end, after}) {
    EXPECT_DOUBLE_EQ(w.w0, 0);
    EXPECT_DOUBLE_EQ(w.w1, 0);
    EXPECT_DOUBLE_EQ(w.w2, 0);
    EXPECT_DOUBLE_EQ(w.w3, 0);
  }
  // w2 and w3 are the time derivatives of w0 and w1 (central differences).
  const double h = 1e-6;
  for (double time : {0.1, 0.25, 0.4}) {
    OffsetWeights a = cubic_weights(time - h, T), b = cubic_weights(time + h, T), w = cubic_weights(time, T);
    EXPECT_NEAR((b.w0 - a.w0) / (2 * h), w.w2, 1e-6);
    EXPECT_NEAR((b.w1 - a.w1) / (2 * h), w.w3, 1e-6);
  }
}

TEST(LockInertialization, LockIsContinuousInPositionAndVelocity) {
  LockSettings settings;
  settings.blend_time_s = 0.5;
  FootLock lock(settings);
  // A foot moving at 0.3 m/s along X on the ground, contact from the third frame.
  const Vec3 v{0.3, 0, 0};
  FootLock::Step s;
  for (int f = 0; f < 3; ++f) s = lock.step(v * (f * k_dt), f == 2, 0.0, k_dt);
  ASSERT_TRUE(s.locked);
  // Before the transition this frame showed the input moving at v; the new blend starts there.
  Shown after = shown_after_transition(lock, s.contact_point, Vec3{});
  expect_near(after.position, s.position, 1e-12, "position at the lock");
  expect_near(after.velocity, v, 1e-9, "velocity at the lock");
  // Stepping on: the output moves on smoothly (no jump larger than v dt plus a little).
  Vec3 previous = s.position, previous_v = s.velocity;
  for (int f = 3; f < 20; ++f) {
    s = lock.step(v * (f * k_dt), true, 0.0, k_dt);
    EXPECT_LT(length(s.position - previous), (length(v) + 0.01) * k_dt) << "frame " << f;
    EXPECT_LT(length(s.velocity - previous_v), 0.2) << "frame " << f;  // ~ accel 24 m/s^2 at most
    previous = s.position;
    previous_v = s.velocity;
  }
}

TEST(LockInertialization, UnlockIsContinuousInPositionAndVelocity) {
  FootLock lock;
  for (int f = 0; f < 120; ++f) lock.step({0, 0.02, 0}, true, 0.0, k_dt);
  ASSERT_TRUE(lock.locked());
  // The input leaves upward at 1 m/s and contact ends.
  FootLock::Step s = lock.step({0, 0.02 + k_dt, 0}, false, 0.0, k_dt);
  ASSERT_FALSE(s.locked);
  EXPECT_DOUBLE_EQ(s.blend_weight, 0);
  // The locked output stood still at the contact point (height 0): the new blend starts there,
  // at rest, although the new source is 2 cm up and moving at 1 m/s.
  Shown after = shown_after_transition(lock, {0, 0.02 + k_dt, 0}, {0, 1, 0});
  expect_near(after.position, s.position, 1e-12, "position at the unlock");
  expect_near(after.position, {0, 0, 0}, 1e-9, "unlock starts at the contact point");
  expect_near(after.velocity, {0, 0, 0}, 1e-9, "velocity at the unlock");
}

TEST(LockInertialization, OffsetIsGoneAfterTheBlendTime) {
  LockSettings settings;
  settings.blend_time_s = 0.25;
  FootLock lock(settings);
  // Lock a foot creeping at 0.2 m/s onto a contact point 3 mm below it.
  const Vec3 v{0, 0, 0.2};
  FootLock::Step s;
  int f = 0;
  for (; !lock.locked(); ++f) s = lock.step(Vec3{0, 0.003, 0} + v * (f * k_dt), f >= 2, 0.0, k_dt);
  const Vec3 contact = s.contact_point;
  EXPECT_EQ(contact.y, 0.0);
  EXPECT_GT(length(s.velocity), 0.19);  // still moving right at the lock
  // Mid-blend the output is off the contact point, after the blend time exactly on it.
  const int blend_frames = static_cast<int>(std::ceil(settings.blend_time_s / k_dt));
  for (int k = 1; k <= blend_frames + 5; ++k, ++f) {
    s = lock.step(Vec3{0, 0.003, 0} + v * (f * k_dt), true, 0.0, k_dt);
    if (k == blend_frames / 2) {
      EXPECT_GT(length(s.position - contact), 1e-3);
    }
    if (k >= blend_frames) {
      expect_near(s.position, contact, 1e-12, "after the blend");
      expect_near(s.velocity, {}, 1e-12, "velocity after the blend");
      EXPECT_DOUBLE_EQ(s.blend_weight, 1);
    }
  }
}

/// The source listing's rule: the new position offset is computed first and then read back for
/// the velocity offset.
Offset sequential_transition(const Offset& old, double time, double T, Vec3 from_pos, Vec3 from_vel, Vec3 to_pos,
                             Vec3 to_vel) {
  const OffsetWeights w = cubic_weights(time, T);
  Offset o = old;
  o.position = from_pos + o.position * w.w0 + o.velocity * w.w1 - to_pos;
  o.velocity = from_vel + o.position * w.w2 + o.velocity * w.w3 - to_vel;
  return o;
}

TEST(LockInertialization, TransitionMidBlendIsContinuousOnlyWithTheOldOffsetRule) {
  const double T = 0.5, time = 0.2;  // 40% into the old blend: w2 != 0
  const Offset old{{0.04, 0.01, -0.03}, {0.5, 0, 0.2}};
  const Vec3 from_pos{0.1, 0.02, 0.3}, from_vel{0.4, 0.1, 0}, to_pos{0.2, 0, 0.25}, to_vel{0, 0, 0};
  // What is shown just before the transition: the old source plus the old offset's contribution.
  const OffsetWeights w = cubic_weights(time, T);
  const Vec3 shown_pos = from_pos + old.position * w.w0 + old.velocity * w.w1;
  const Vec3 shown_vel = from_vel + old.position * w.w2 + old.velocity * w.w3;
  // Just after: the new source plus the new offset at time 0.
  const Offset good = transition_offset(old, BlendShape::cubic, time, T, from_pos, from_vel, to_pos, to_vel);
  expect_near(to_pos + good.position, shown_pos, 1e-12, "position, old-offset rule");
  expect_near(to_vel + good.velocity, shown_vel, 1e-12, "velocity, old-offset rule");
  // The sequential rule keeps the position but breaks the velocity by w2 (new - old position offset).
  const Offset bad = sequential_transition(old, time, T, from_pos, from_vel, to_pos, to_vel);
  expect_near(to_pos + bad.position, shown_pos, 1e-12, "position, sequential rule");
  EXPECT_GT(length(to_vel + bad.velocity - shown_vel), 0.05) << "the sequential rule should jump in velocity";
}

TEST(LockInertialization, FootLockMidBlendUnlockStaysContinuous) {
  FootLock lock;
  // Lock a moving foot, then lose contact after a few frames, mid-blend.
  const Vec3 v{0.3, 0, 0};
  FootLock::Step s;
  int f = 0;
  for (; !lock.locked(); ++f) s = lock.step(v * (f * k_dt), f >= 2, 0.0, k_dt);
  for (int k = 0; k < 10; ++k, ++f) s = lock.step(v * (f * k_dt), true, 0.0, k_dt);
  ASSERT_LT(lock.time_since_transition_s(), LockSettings{}.blend_time_s);
  const Vec3 before_pos = s.position, before_vel = s.velocity;
  const Vec3 input = v * (f * k_dt);
  s = lock.step(input, false, 0.0, k_dt);
  ASSERT_FALSE(s.locked);
  Shown after = shown_after_transition(lock, input, v);
  expect_near(after.position, s.position, 1e-12, "position at the mid-blend unlock");
  expect_near(after.velocity, s.velocity, 1e-12, "velocity at the mid-blend unlock");
  // And the step itself moved the output by about one frame of its velocity.
  EXPECT_LT(length(s.position - before_pos - before_vel * k_dt), 1e-3);
}

TEST(LockInertialization, LockAndUnlockFollowTheDistanceThresholds) {
  LockSettings settings;
  settings.lock_distance_m = 0.01;
  settings.unlock_distance_m = 0.25;
  settings.blend_time_s = 0.5;
  // Unlock from a contact point by moving the input 10 cm at once (contact off) and keep it off
  // until the unlock blend is over: the output catches up, and contact then locks it on the
  // input (within 1 cm of it).
  FootLock lock(settings);
  for (int f = 0; f < 60; ++f) lock.step({0, 0, 0}, true, 0.0, k_dt);
  ASSERT_TRUE(lock.locked());
  lock.step({0.1, 0, 0}, false, 0.0, k_dt);
  ASSERT_FALSE(lock.locked());
  for (int f = 0; f < 60; ++f) lock.step({0.1, 0, 0}, false, 0.0, k_dt);
  FootLock::Step s = lock.step({0.1, 0, 0}, true, 0.0, k_dt);
  EXPECT_TRUE(s.locked);
  EXPECT_LT(length(s.contact_point - Vec3{0.1, 0, 0}), settings.lock_distance_m);

  // Contact back while the output is still catching up (more than 1 cm from the input): it locks
  // where the output is, without a jump, instead of catching up across the planted phase.
  FootLock early(settings);
  for (int f = 0; f < 60; ++f) early.step({0, 0, 0}, true, 0.0, k_dt);
  Vec3 input;
  while (input.x < 0.1) {  // the body runs ahead of the held toe at 0.5 m/s
    input.x += 0.5 * k_dt;
    ASSERT_TRUE(early.step(input, true, 0.0, k_dt).locked);
  }
  for (int f = 0; f < 3; ++f) early.step(input, false, 0.0, k_dt);
  const FootLock::Step before = early.step(input, false, 0.0, k_dt);
  ASSERT_GT(length(before.position - input), 0.05);
  const FootLock::Step relock = early.step(input, true, 0.0, k_dt);
  EXPECT_TRUE(relock.locked);
  EXPECT_LT(length(relock.position - before.position - before.velocity * k_dt), 1e-3);
  EXPECT_LT(length(relock.contact_point - relock.position), 1e-9);

  // Locked: an input 24 cm away keeps the lock, 26 cm away releases it.
  FootLock held(settings);
  for (int f = 0; f < 60; ++f) held.step({0, 0, 0}, true, 0.0, k_dt);
  ASSERT_TRUE(held.locked());
  EXPECT_TRUE(held.step({0.24, 0, 0}, true, 0.0, k_dt).locked);
  EXPECT_FALSE(held.step({0.26, 0, 0}, true, 0.0, k_dt).locked);
}

/// Locks `lock` on the origin for half a second, then holds it while its input runs ahead along
/// X at `speed_mps` until `gap_m` away; `input` ends there.
void hold_while_input_runs_ahead(FootLock& lock, Vec3& input, double speed_mps, double gap_m) {
  input = {};
  for (int f = 0; f < 60; ++f) lock.step(input, true, 0.0, k_dt);
  while (input.x < gap_m) {
    input.x += speed_mps * k_dt;
    ASSERT_TRUE(lock.step(input, true, 0.0, k_dt).locked);
  }
}

/// The acceleration (m/s^2, central differences) of the path `out`, sampled every k_dt, at its
/// frame f (>= 1, before the last).
double accel_mps2(const std::vector<Vec3>& out, size_t f) {
  return length(out[f + 1] - out[f] * 2.0 + out[f - 1]) / (k_dt * k_dt);
}

/// The largest accel_mps2 of `out` at its frames from `first` (>= 1) on.
double peak_accel_mps2(const std::vector<Vec3>& out, size_t first) {
  double peak = 0;
  for (size_t f = first; f + 1 < out.size(); ++f) peak = std::max(peak, accel_mps2(out, f));
  return peak;
}

TEST(LockInertialization, AnUnlockAfterTheBodyRanAheadAcceleratesWithinItsBound) {
  // A toe held while its input ran 6 cm ahead, released as the input moves on at a steady
  // 0.5 m/s (no acceleration of its own): the output starts from rest and must close the gap.
  // Closed in 0.15 s, the offset's acceleration starts at 6 x 0.06 / 0.15^2 + 4 x 0.5 / 0.15 =
  // 29 m/s^2 (a cubic); with the unlock blend stretched to need (0.40 s, under
  // max_unlock_blend_s), it stays within unlock_max_accel_mps2 (central differences of the
  // output, plus a little for the sampling), and the output reaches the input by
  // max_unlock_blend_s.
  const LockSettings settings;
  FootLock lock(settings);
  Vec3 input;
  hold_while_input_runs_ahead(lock, input, 0.5, 0.06);
  std::vector<Vec3> out;
  const int frames = static_cast<int>(settings.max_unlock_blend_s / k_dt) + 2;
  for (int f = 0; f < frames; ++f) {
    input.x += 0.5 * k_dt;
    const FootLock::Step s = lock.step(input, false, 0.0, k_dt);
    ASSERT_FALSE(s.locked);
    out.push_back(s.position);
  }
  EXPECT_LE(peak_accel_mps2(out, 1), settings.unlock_max_accel_mps2 * 1.05);
  EXPECT_LT(length(out.back() - input), 1e-6);
}

TEST(LockInertialization, AnUnlockLeavesAndArrivesWithoutAJolt) {
  // The toe held while its input ran 6 cm ahead, released as the input moves on at a steady
  // 0.5 m/s. A cubic offset starts with 6 x gap / T^2 + 4 x speed / T and ends with
  // 6 x gap / T^2 + 2 x speed / T (over this blend time the output's acceleration is 3.5 m/s^2 on
  // its first frame and 4.4 on its last: the foot jolts as it leaves and again as it arrives on
  // the input); the unlock's quintic offset starts and ends with none, so the output's
  // acceleration (central differences) on the frames at both ends of the blend is only what one
  // frame of its rise adds.
  const LockSettings settings;
  FootLock lock(settings);
  Vec3 input;
  hold_while_input_runs_ahead(lock, input, 0.5, 0.06);
  std::vector<Vec3> out{lock.step(input, true, 0.0, k_dt).position};  // the last locked frame
  int blend_end = 0;
  for (int f = 0; f < 120; ++f) {
    input.x += 0.5 * k_dt;
    const FootLock::Step s = lock.step(input, false, 0.0, k_dt);
    out.push_back(s.position);
    if (!blend_end && s.blend_weight >= 1) blend_end = f + 1;
  }
  ASSERT_GT(blend_end, 10);
  EXPECT_LT(accel_mps2(out, 1), 1.5);
  EXPECT_LT(accel_mps2(out, blend_end - 1), 1.5);
  EXPECT_LT(accel_mps2(out, blend_end), 1.5);
}

TEST(LockInertialization, AReleaseReadsAsAnUnlockAtTheSameStep) {
  // Two feet with the same past, held while their input ran 6 cm ahead. At the same step one is
  // stepped in contact and then released (RuntimeLock lets a toe out of reach go after its leg
  // solve), the other is stepped out of contact (an unlock in the step). From then on they are
  // the same foot: what the release returns is what the unlock's step returned (the output where
  // it was, no longer locked, its blend just started), and every later step is equal too.
  FootLock released, unlocked;
  Vec3 input, same_input;
  hold_while_input_runs_ahead(released, input, 0.5, 0.06);
  hold_while_input_runs_ahead(unlocked, same_input, 0.5, 0.06);
  input.x += 0.5 * k_dt;
  const FootLock::Step held = released.step(input, true, 0.0, k_dt);
  ASSERT_TRUE(held.locked);
  const FootLock::Step a = released.release(), b = unlocked.step(input, false, 0.0, k_dt);
  EXPECT_FALSE(a.locked);
  EXPECT_EQ(a.blend_weight, 0.0);
  EXPECT_EQ(a.position, b.position);
  EXPECT_EQ(a.position, held.position);  // the release moves nothing at its own step
  for (int f = 0; f < 80; ++f) {
    input.x += 0.5 * k_dt;
    const FootLock::Step sa = released.step(input, false, 0.0, k_dt), sb = unlocked.step(input, false, 0.0, k_dt);
    ASSERT_EQ(sa.position, sb.position) << "step " << f;
    ASSERT_EQ(sa.blend_weight, sb.blend_weight) << "step " << f;
  }
  // A foot that is not locked is left as it is.
  const Vec3 before = unlocked.offset().position;
  EXPECT_FALSE(unlocked.release().locked);
  EXPECT_EQ(unlocked.offset().position, before);
}

TEST(LockInertialization, AFootStillCatchingUpStopsWithinTheBound) {
  // A toe held while its input ran 4 cm ahead at 0.35 m/s, let go (contact off) and, while its
  // unlock blend still closes the gap, in contact again as the input stops dead: it locks
  // where it is heading. Its speed v there is about 0.33 m/s (the input's plus the catch-up);
  // locked where it is, the lock's cubic offset would stop it with 4 v / T = 8.7 m/s^2 over the
  // 0.15 s blend. Locked a little ahead, its deceleration stays within unlock_max_accel_mps2
  // (central differences of the output, plus a little for the sampling).
  const LockSettings settings;
  FootLock lock(settings);
  Vec3 input;
  hold_while_input_runs_ahead(lock, input, 0.35, 0.04);
  std::vector<Vec3> out;
  for (int f = 0; f < 18; ++f) {  // 0.15 s of the unlock blend
    input.x += 0.35 * k_dt;
    out.push_back(lock.step(input, false, 0.0, k_dt).position);
  }
  const size_t lock_frame = out.size();
  const FootLock::Step relock = lock.step(input, true, 0.0, k_dt);
  ASSERT_TRUE(relock.locked);
  ASSERT_GT(length(relock.position - input), settings.lock_distance_m);  // still catching up
  ASSERT_GT(length(relock.velocity), 0.3);
  out.push_back(relock.position);
  for (int f = 0; f < 30; ++f) out.push_back(lock.step(input, true, 0.0, k_dt).position);
  EXPECT_LE(peak_accel_mps2(out, lock_frame), settings.unlock_max_accel_mps2 * 1.05);
  // And it comes to rest on its contact point.
  EXPECT_LT(length(out.back() - relock.contact_point), 1e-6);
}

TEST(LockInertialization, RejectsBadSettings) {
  LockSettings s;
  s.blend_time_s = 0;
  EXPECT_THROW(s.validate(), Error);
  s = {};
  s.unlock_distance_m = 0.005;  // below the lock distance
  EXPECT_THROW(s.validate(), Error);
  s = {};
  s.lock_distance_m = std::nan("");
  EXPECT_THROW(FootLock{s}, Error);
}

}  // namespace
}  // namespace footfix
