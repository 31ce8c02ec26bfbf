#include "footfix/lock/causal_contacts.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/error.h"

namespace footfix {
namespace {

// Speed hysteresis: a foot in contact stays in contact while its effective speed is below this
// multiple of speed_threshold_mps. The planted foot of a clip whose root runs ahead of or behind
// its legs creeps at about the threshold; dropping such a contact mid-stance unlocks the foot
// and the output then catches up with the input while it is still planted.
constexpr double k_contact_speed_hold = 1.5;

// A landing foot counts as on its ground within this height above it (m).
constexpr double k_landed_height_m = 0.01;

// While a foot is in contact its signal is read this many ticks ahead of the current frame, the
// current raw value taken to hold until then: the contact then ends at the tick nearest to where
// the signal falls below the release threshold, not at the first tick after it, so it ends at the
// same time (within half a tick) at any tick rate. Read at the tick itself, the release would lag
// its crossing by up to a whole tick, the more the coarser the rate. (The onset is read at the
// tick: update()'s landing rule already counts a coarse rate's landing frame as still.)
constexpr double k_signal_ahead_ticks = 0.5;

// Tolerance of the signal's threshold tests: a window that is exactly a whole number of ticks
// must not depend on the rounding of the time sums.
constexpr double k_signal_tolerance = 1e-9;

}  // namespace

CausalContactDetector::CausalContactDetector(const ContactSettings& settings, double fps) : settings_(settings) {
  settings_.validate();
  if (!std::isfinite(fps) || fps <= 0) fail(ErrorKind::usage, "causal contacts: invalid frame rate " + std::to_string(fps));
  window_s_ = settings_.majority_window_s / 2;
  body_.allocate(settings_.body_speed_window_s, fps);
  for (int s = 0; s < 2; ++s) {
    ground_[s].allocate(settings_.ground_window_s, fps);
    raw_[s].allocate(window_s_, fps);
  }
  reset();
}

int CausalContactDetector::onset_delay_frames(double fps) const {
  return std::max(0, static_cast<int>(std::ceil(settings_.contact_threshold * window_s_ * fps - k_signal_tolerance)) - 1);
}

int CausalContactDetector::release_delay_frames(double fps) const {
  // Moving ticks m: the signal must fall strictly below the release threshold, m + 1/2 > the
  // moving time that takes, in ticks.
  const double moved = (1 - settings_.release_threshold) * window_s_ * fps - k_signal_ahead_ticks;
  return std::max(0, static_cast<int>(std::floor(moved + k_signal_tolerance)));
}

void CausalContactDetector::reset() {
  frames_seen_ = 0;
  time_s_ = 0;
  last_joint_ = {};
  body_.clear();
  for (int s = 0; s < 2; ++s) {
    ground_[s].clear();
    raw_[s].clear();
    last_vertical_[s] = 0;
    feet_[s] = {};
  }
}

const std::array<CausalContactDetector::Foot, 2>& CausalContactDetector::update(const std::array<Vec3, 2>& contact_joints,
                                                                               Vec3 pelvis, double dt,
                                                                               Vec3 ground_velocity,
                                                                               const std::array<double, 2>* resting_heights) {
  const bool first = frames_seen_ == 0;
  const double inv_dt = !first && dt > 0 ? 1.0 / dt : 0.0;
  if (!first) time_s_ += dt;
  ground_velocity.y = 0;

  // Pelvis horizontal velocity over the ground, averaged over the past body window.
  Vec3 body = body_.push(time_s_, Vec3{pelvis.x, 0, pelvis.z}) - ground_velocity;

  for (int s = 0; s < 2; ++s) {
    Foot& foot = feet_[s];
    const Vec3 p = contact_joints[s];
    Vec3 velocity = first ? Vec3{} : (p - last_joint_[s]) * inv_dt - ground_velocity;
    foot.ground_m = ground_[s].push(time_s_, p.y);
    if (resting_heights) foot.ground_m = (*resting_heights)[s];
    // Landing: a descent slower than the last frame's by more than the speed threshold that ends
    // at the ground is the foot stopping on it, not sliding (the backward difference still
    // carries the last frame's descent; at 30 Hz that alone kept the landing frame out of the
    // contact). Above the ground it is a foot slowing down before it lands (a toe as the heel
    // strikes), still moving.
    const double vertical = velocity.y;
    if (vertical < 0 && vertical - last_vertical_[s] > settings_.speed_threshold_mps &&
        p.y - foot.ground_m < k_landed_height_m)
      velocity.y = 0;
    last_vertical_[s] = vertical;
    foot.effective_speed_mps = effective_speed(velocity, body, settings_);

    const double hold = foot.contact ? k_contact_speed_hold : 1.0;
    // The first frame has no velocity yet: it counts as moving.
    const bool raw = !first && foot.effective_speed_mps < hold * settings_.speed_threshold_mps &&
                     p.y - foot.ground_m < settings_.height_threshold_m;
    foot.signal = raw_[s].push(time_s_, dt, raw, foot.contact ? k_signal_ahead_ticks * dt : 0.0);
    if (!foot.contact && foot.signal >= settings_.contact_threshold - k_signal_tolerance)
      foot.contact = true;
    else if (foot.contact && foot.signal < settings_.release_threshold - k_signal_tolerance)
      foot.contact = false;
    last_joint_[s] = p;
  }
  ++frames_seen_;
  return feet_;
}

}  // namespace footfix
