// Causal contact detection for the runtime: whether each foot is planted, from the current and
// past frames only (no centred window, no look-ahead smoothing), one frame at a time, with
// buffers allocated once in the constructor.
//
// Per foot, from the contact joint's world position p and the pelvis' position (meters, Y up):
// 1. velocity = backward difference (p[t] - p[t-1]) / dt less the ground's velocity (zero unless
//    set: a treadmill, or the ground an engine's capsule stands on), its vertical part ignored
//    while the foot lands (descending, slower than on the frame before by more than
//    speed_threshold_mps, and within 1 cm of its ground (step 2): at low frame rates the
//    landing frame's difference still carries most of the descent); the same sliding tolerance as the offline detector (effective_speed in
//    contacts/detect_contacts.h) against the pelvis' horizontal velocity over the ground averaged
//    over the PAST body_speed_window_s; a foot already in contact passes up to 1.5 x
//    speed_threshold_mps (speed hysteresis: the planted foot of a clip made to slide creeps at
//    about the threshold);
// 2. height gate: p.y minus the ground under the foot < height_threshold_m, the ground being the
//    contact joint's resting height where the caller knows it (a ground query: the terrain's
//    height there plus the joint's height above it in stance), else the lowest height the foot
//    reached over the PAST ground_window_s (including now; with ground_window_s = 0, since the
//    stream started);
// 3. raw = speed and height gates pass (never on the first frame: no velocity yet); signal = the fraction of the PAST W seconds during which
//    raw was 1, W = majority_window_s / 2 (the past half of the offline majority window; a frame
//    stands for the dt before it, time before the stream counts as moving);
// 4. hysteresis: contact starts when the signal reaches contact_threshold and ends when it falls
//    below release_threshold; while in contact the signal is read half a tick ahead, the current
//    raw value held, so a contact ends on the tick nearest to where the signal falls (at a coarse
//    rate the first tick after it would end it up to a whole tick later than a fine rate does).
// Every window is a span of time, not a frame count, so the detector sees the same contacts at
// any tick rate (within one tick) and costs the same per frame (O(1): running sums and a
// monotonic queue). The delay this adds: a contact starts once the foot has been still for
// contact_threshold x W and ends once it has moved for (1 - release_threshold) x W, to the
// nearest tick (with the defaults 31 and 21 ms: at 120 Hz 3 and 2 frames after the first still or
// moving frame; at 60 Hz 1 and 0; at 30 Hz 0 and 0). The offline detector's centred windows put both boundaries where the motion
// switches. Not handled causally: the cubic upsampling of low frame rates.
#pragma once

#include <array>

#include "footfix/contacts/contact_settings.h"
#include "footfix/core/math.h"
#include "footfix/lock/past_windows.h"

namespace footfix {

class CausalContactDetector {
 public:
  struct Foot {
    bool contact = false;
    double signal = 0;         ///< fraction of the window's time with raw contact, [0, 1] (in
                               ///< contact: the window ending half a tick ahead, see step 4)
    double ground_m = 0;       ///< ground height under the foot (m)
    double effective_speed_mps = 0;
  };

  /// `fps` (> 0): the expected tick rate, which sizes the windows' storage (ticks up to twice as
  /// fast keep whole windows; faster ones shorten them). Throws Error(usage) for invalid settings
  /// or frame rate.
  CausalContactDetector(const ContactSettings& settings, double fps);
  /// Starts a new stream.
  void reset();
  /// Advances one frame: the two contact joints' and the pelvis' world positions (m), dt (s),
  /// the ground's velocity (m/s, world; its vertical part is ignored), and, where known, each
  /// contact joint's resting height over the ground under it (m; else the past minimum).
  /// Returns the state of both feet (valid until the next call). Allocates nothing.
  const std::array<Foot, 2>& update(const std::array<Vec3, 2>& contact_joints, Vec3 pelvis, double dt,
                                    Vec3 ground_velocity = {}, const std::array<double, 2>* resting_heights = nullptr);

  /// Ticks of 1 / `fps` between the first frame of a step from moving to still (or back) and
  /// the frame the contact flag follows it, for a clean step.
  int onset_delay_frames(double fps) const;
  int release_delay_frames(double fps) const;
  /// The signal's window W (s).
  double window_s() const { return window_s_; }

 private:
  ContactSettings settings_;
  double window_s_ = 0;
  double time_s_ = 0;
  long long frames_seen_ = 0;
  std::array<Vec3, 2> last_joint_;
  lock_detail::PastVelocity<Vec3> body_;
  std::array<lock_detail::PastMinimum, 2> ground_;
  std::array<lock_detail::PastFraction, 2> raw_;
  std::array<double, 2> last_vertical_{0, 0};  ///< contact joints' last vertical velocity (m/s)
  std::array<Foot, 2> feet_;
};

}  // namespace footfix
