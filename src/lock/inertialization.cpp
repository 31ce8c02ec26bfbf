#include "footfix/lock/inertialization.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "footfix/core/error.h"
#include "inertialization_math.h"

namespace footfix {

void LockSettings::validate() const {
  auto check = [](double v, const char* name) {
    if (!std::isfinite(v) || v <= 0)
      fail(ErrorKind::usage, std::string("lock: ") + name + " must be a finite value > 0, got " + std::to_string(v));
  };
  check(lock_distance_m, "lock_distance_m");
  check(unlock_distance_m, "unlock_distance_m");
  check(blend_time_s, "blend_time_s");
  check(unlock_max_accel_mps2, "unlock_max_accel_mps2");
  check(max_unlock_blend_s, "max_unlock_blend_s");
  if (unlock_distance_m < lock_distance_m)
    fail(ErrorKind::usage, "lock: unlock_distance_m (" + std::to_string(unlock_distance_m) +
                               ") must not be below lock_distance_m (" + std::to_string(lock_distance_m) + ")");
}

OffsetWeights cubic_weights(double time_s, double blend_time_s) {
  const double t = std::clamp(time_s / blend_time_s, 0.0, 1.0);
  const double t2 = t * t, t3 = t2 * t;
  return {2 * t3 - 3 * t2 + 1, (t3 - 2 * t2 + t) * blend_time_s, (6 * t2 - 6 * t) / blend_time_s,
          3 * t2 - 4 * t + 1};
}

OffsetWeights quintic_weights(double time_s, double blend_time_s) {
  // w0: 1 - 10 t^3 + 15 t^4 - 6 t^5; w1 / T: t - 6 t^3 + 8 t^4 - 3 t^5 (the quintics with the
  // given value and slope at t = 0 and zero value, slope and curvature at t = 1, no curvature at
  // t = 0).
  const double t = std::clamp(time_s / blend_time_s, 0.0, 1.0);
  const double t2 = t * t, t3 = t2 * t, t4 = t3 * t, t5 = t4 * t;
  return {1 - 10 * t3 + 15 * t4 - 6 * t5, (t - 6 * t3 + 8 * t4 - 3 * t5) * blend_time_s,
          (-30 * t2 + 60 * t3 - 30 * t4) / blend_time_s, 1 - 18 * t2 + 32 * t3 - 15 * t4};
}

OffsetWeights offset_weights(BlendShape shape, double time_s, double blend_time_s) {
  return shape == BlendShape::quintic ? quintic_weights(time_s, blend_time_s) : cubic_weights(time_s, blend_time_s);
}

Offset transition_offset(const Offset& old, BlendShape old_shape, double time_s, double blend_time_s, Vec3 from_pos,
                         Vec3 from_vel, Vec3 to_pos, Vec3 to_vel) {
  const OffsetWeights w = offset_weights(old_shape, time_s, blend_time_s);
  return {from_pos + old.position * w.w0 + old.velocity * w.w1 - to_pos,
          from_vel + old.position * w.w2 + old.velocity * w.w3 - to_vel};
}

namespace {

/// m/s, the horizontal (X, Z) part of `velocity`.
double horizontal_speed(Vec3 velocity) { return std::hypot(velocity.x, velocity.z); }

/// How far ahead (s, times its horizontal speed over the ground) a foot still catching up is
/// locked. The lock's cubic offset from speed v with the contact point c x v ahead (0 <= c <= T / 3,
/// T the blend time) decelerates the foot by (4 - 6 c / T) v / T at the lock: 4 v / T locked
/// where it is (and the foot runs out and back, and steps by 2 v / T at the blend's end), 2 v / T
/// at c = T / 3 (its speed falls as v (1 - t)^2, no step at the end). The least c that keeps the
/// deceleration within unlock_max_accel_mps2: a slow foot stops where it is, as a coast adds slide.
double catch_up_coast_s(Vec3 velocity_over_ground, const LockSettings& settings) {
  const double T = settings.blend_time_s, v = horizontal_speed(velocity_over_ground);
  if (v <= 0) return 0;
  return std::clamp((4 * T - settings.unlock_max_accel_mps2 * T * T / v) / 6, 0.0, T / 3);
}

}  // namespace

FootLock::FootLock(const LockSettings& settings) : settings_(settings) {
  settings_.validate();
  reset();
}

void FootLock::reset() {
  started_ = false;
  locked_ = false;
  position_ = velocity_ = input_position_ = input_velocity_ = contact_point_ = Vec3{};
  offset_ = {};
  time_ = blend_s_ = settings_.blend_time_s;
  shape_ = BlendShape::cubic;
}

void FootLock::transition(Vec3 from_pos, Vec3 from_vel, Vec3 to_pos, Vec3 to_vel, BlendShape shape) {
  offset_ = transition_offset(offset_, shape_, time_, blend_s_, from_pos, from_vel, to_pos, to_vel);
  shape_ = shape;
  time_ = 0;
}

double FootLock::unlock_blend_s() const {
  // The quintic offset's acceleration is at most cp |p| / T^2 + cv |v| / T, within a for
  // T >= (cv |v| + sqrt(cv^2 v^2 + 4 a cp |p|)) / (2 a).
  const double a = settings_.unlock_max_accel_mps2, p = length(offset_.position), v = length(offset_.velocity);
  const double cp = k_quintic_peak_position, cv = k_quintic_peak_velocity;
  const double needed = (cv * v + std::sqrt(cv * cv * v * v + 4 * a * cp * p)) / (2 * a);
  return std::clamp(needed, settings_.blend_time_s, std::max(settings_.blend_time_s, settings_.max_unlock_blend_s));
}

FootLock::Step FootLock::step(Vec3 input, bool contact, double contact_height_m, double dt, Vec3 ground_velocity) {
  // 1. The input's velocity (zero on the first step: no past to difference with).
  input_velocity_ = started_ && dt > 0 ? (input - input_position_) / dt : Vec3{};
  input_position_ = input;
  started_ = true;

  // 2. Inertialized output: the current source plus the decaying offset. A locked contact point
  // rides on the ground.
  if (locked_) contact_point_ += ground_velocity * dt;
  const OffsetWeights w = offset_weights(shape_, time_ + dt, blend_s_);
  const Vec3 source = locked_ ? contact_point_ : input_position_;
  const Vec3 source_velocity = locked_ ? ground_velocity : input_velocity_;
  position_ = source + offset_.position * w.w0 + offset_.velocity * w.w1;
  velocity_ = source_velocity + offset_.position * w.w2 + offset_.velocity * w.w3;
  time_ += dt;

  // 3. Lock and unlock by the distance between output and input. A foot still catching up after
  // an unlock locks (a little ahead, catch_up_coast_s): catching up across the planted phase
  // would slide it.
  const double d = length(position_ - input_position_);
  const bool at_input = d < settings_.lock_distance_m;
  const bool catching_up = time_ < blend_s_ && d < settings_.unlock_distance_m;
  if (!locked_ && contact && (at_input || catching_up)) {
    locked_ = true;
    const Vec3 over_ground = velocity_ - ground_velocity;
    const Vec3 at = at_input ? input : position_ + over_ground * catch_up_coast_s(over_ground, settings_);
    contact_point_ = {at.x, contact_height_m, at.z};
    transition(input_position_, input_velocity_, contact_point_, ground_velocity, BlendShape::cubic);
    blend_s_ = settings_.blend_time_s;
  } else if (locked_ && (!contact || d > settings_.unlock_distance_m)) {
    unlock(contact_point_, ground_velocity);
  }
  return current_step();
}

void FootLock::unlock(Vec3 from_pos, Vec3 from_vel) {
  locked_ = false;
  transition(from_pos, from_vel, input_position_, input_velocity_, BlendShape::quintic);
  blend_s_ = unlock_blend_s();
}

FootLock::Step FootLock::release(Vec3 ground_velocity) {
  if (locked_) unlock(contact_point_, ground_velocity);
  return current_step();
}

FootLock::Step FootLock::current_step() const {
  Step s;
  s.position = position_;
  s.velocity = velocity_;
  s.locked = locked_;
  s.blend_weight = 1.0 - offset_weights(shape_, time_, blend_s_).w0;
  s.contact_point = contact_point_;
  return s;
}

}  // namespace footfix
