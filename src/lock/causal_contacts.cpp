#include "footfix/lock/causal_contacts.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/contacts/signal_filters.h"
#include "footfix/core/error.h"

namespace footfix {
namespace {

// Speed hysteresis: a foot in contact stays in contact while its effective speed is below this
// multiple of speed_threshold_mps. The planted foot of a clip whose root runs ahead of or behind
// its legs creeps at about the threshold; dropping such a contact mid-stance unlocks the foot
// and the output then catches up with the input while it is still planted.
constexpr double k_contact_speed_hold = 1.5;

size_t slot(long long frame, size_t size) { return static_cast<size_t>(frame % static_cast<long long>(size)); }

}  // namespace

CausalContactDetector::CausalContactDetector(const ContactSettings& settings, double fps) : settings_(settings) {
  settings_.validate();
  if (!std::isfinite(fps) || fps <= 0) fail(ErrorKind::usage, "causal contacts: invalid frame rate " + std::to_string(fps));
  // The past half of the offline detector's centred majority window (including now).
  window_ = (odd_window_frames(settings_.majority_window_s, fps) + 1) / 2;
  body_window_ = odd_window_frames(settings_.body_speed_window_s, fps);
  ground_window_ = settings_.ground_window_s > 0 ? odd_window_frames(settings_.ground_window_s, fps) : 0;
  // Step responses of the box filter + hysteresis, from a full window of the other value.
  const double n = window_;
  while (onset_delay_ < window_ && (onset_delay_ + 1) / n < settings_.contact_threshold) ++onset_delay_;
  while (release_delay_ < window_ && (n - release_delay_ - 1) / n >= settings_.release_threshold) ++release_delay_;
  body_ring_.resize(static_cast<size_t>(body_window_));
  for (int s = 0; s < 2; ++s) {
    height_ring_[s].resize(static_cast<size_t>(std::max(ground_window_, 1)));
    raw_ring_[s].resize(static_cast<size_t>(window_));
  }
  reset();
}

void CausalContactDetector::reset() {
  frames_seen_ = 0;
  last_pelvis_ = body_sum_ = Vec3{};
  last_joint_ = {};
  std::fill(body_ring_.begin(), body_ring_.end(), Vec3{});
  for (int s = 0; s < 2; ++s) {
    std::fill(height_ring_[s].begin(), height_ring_[s].end(), 0.0);
    std::fill(raw_ring_[s].begin(), raw_ring_[s].end(), std::uint8_t{0});
    lowest_[s] = 0;
    last_vertical_[s] = 0;
    feet_[s] = {};
  }
}

const std::array<CausalContactDetector::Foot, 2>& CausalContactDetector::update(const std::array<Vec3, 2>& contact_joints,
                                                                               Vec3 pelvis, double dt) {
  const bool first = frames_seen_ == 0;
  const double inv_dt = !first && dt > 0 ? 1.0 / dt : 0.0;

  // Pelvis horizontal velocity, averaged over the past body window.
  Vec3 body = (pelvis - last_pelvis_) * inv_dt;
  body.y = 0;
  body_ring_[slot(frames_seen_, body_ring_.size())] = body;
  const long long body_n = std::min<long long>(frames_seen_ + 1, body_window_);
  Vec3 body_sum;
  for (long long k = 0; k < body_n; ++k) body_sum += body_ring_[slot(frames_seen_ - k, body_ring_.size())];
  const Vec3 body_velocity = body_sum / static_cast<double>(body_n);

  for (int s = 0; s < 2; ++s) {
    Foot& foot = feet_[s];
    const Vec3 p = contact_joints[s];
    Vec3 velocity = (p - last_joint_[s]) * inv_dt;
    // Landing: a descent slower than the last frame's by more than the speed threshold is the
    // foot stopping on the ground, not sliding (the backward difference still carries the last
    // frame's descent; at 30 Hz that alone kept the landing frame out of the contact).
    const double vertical = velocity.y;
    if (vertical < 0 && vertical - last_vertical_[s] > settings_.speed_threshold_mps) velocity.y = 0;
    last_vertical_[s] = vertical;
    foot.effective_speed_mps = effective_speed(velocity, body_velocity, settings_);

    lowest_[s] = first ? p.y : std::min(lowest_[s], p.y);
    double ground = lowest_[s];  // flat ground: the lowest point so far
    if (ground_window_ > 0) {
      auto& ring = height_ring_[s];
      ring[slot(frames_seen_, ring.size())] = p.y;
      const long long m = std::min<long long>(frames_seen_ + 1, ground_window_);
      ground = p.y;
      for (long long k = 1; k < m; ++k) ground = std::min(ground, ring[slot(frames_seen_ - k, ring.size())]);
    }
    foot.ground_m = ground;
    const double hold = foot.contact ? k_contact_speed_hold : 1.0;
    const std::uint8_t raw =
        foot.effective_speed_mps < hold * settings_.speed_threshold_mps && p.y - ground < settings_.height_threshold_m ? 1 : 0;

    auto& raws = raw_ring_[s];
    raws[slot(frames_seen_, raws.size())] = raw;
    // Frames before the stream count as moving.
    int recent = 0;
    for (long long k = 0; k < window_ && k <= frames_seen_; ++k) recent += raws[slot(frames_seen_ - k, raws.size())];
    foot.signal = static_cast<double>(recent) / window_;
    if (!foot.contact && foot.signal >= settings_.contact_threshold)
      foot.contact = true;
    else if (foot.contact && foot.signal < settings_.release_threshold)
      foot.contact = false;
    last_joint_[s] = p;
  }
  last_pelvis_ = pelvis;
  ++frames_seen_;
  return feet_;
}

}  // namespace footfix
