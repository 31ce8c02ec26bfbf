// Causal contact detection for the runtime: whether each foot is planted, from the current and
// past frames only (no centred window, no look-ahead smoothing), one frame at a time, with
// buffers allocated once in the constructor.
//
// Per foot, from the contact joint's world position p and the pelvis' position (meters, Y up):
// 1. velocity = backward difference (p[t] - p[t-1]) / dt, its vertical part ignored while the
//    foot lands (descending, slower than on the frame before by more than speed_threshold_mps:
//    at low frame rates the landing frame's difference still carries most of the descent); the
//    same sliding tolerance as the offline detector (effective_speed in
//    contacts/detect_contacts.h) against the pelvis' horizontal velocity averaged over the PAST
//    body_speed_window_s; a foot already in contact
//    passes up to 1.5 x speed_threshold_mps (speed hysteresis: the planted foot of a clip made
//    to slide creeps at about the threshold);
// 2. height gate: p.y minus the lowest height the foot reached over the PAST ground_window_s
//    (including now; with ground_window_s = 0, since the stream started) < height_threshold_m;
// 3. raw = speed and height gates pass; signal = fraction of raw frames among the last N,
//    N = the past half of the offline majority window: (odd frame count of majority_window_s
//    + 1) / 2, the current frame included (frames before the stream count as moving, so
//    a stream's first contact comes no earlier than any other);
// 4. hysteresis: contact starts when the signal reaches contact_threshold and ends when it falls
//    below release_threshold.
// The delay this adds: a contact starts onset_delay_frames() after the first still frame and
// ends release_delay_frames() after the first moving frame (computed from N and the two
// thresholds; at 120 Hz with the defaults: 4 and 3 frames, 33 and 25 ms; at 30 Hz: 1 and 1 frame, 33 ms). The offline detector's
// centred windows put both boundaries where the motion switches. Not handled causally: the
// ground velocity of in-place (treadmill) clips, and the cubic upsampling of low frame rates.
#pragma once

#include <array>
#include <vector>

#include "footfix/contacts/contact_settings.h"
#include "footfix/core/math.h"

namespace footfix {

class CausalContactDetector {
 public:
  struct Foot {
    bool contact = false;
    double signal = 0;         ///< fraction of raw contact frames in the window, [0, 1]
    double ground_m = 0;       ///< ground height under the foot (m)
    double effective_speed_mps = 0;
  };

  /// `fps` (> 0) converts the settings' windows (seconds) to frame counts. Throws Error(usage)
  /// for invalid settings or frame rate.
  CausalContactDetector(const ContactSettings& settings, double fps);
  /// Starts a new stream.
  void reset();
  /// Advances one frame: the two contact joints' and the pelvis' world positions (m), dt (s).
  /// Returns the state of both feet (valid until the next call). Allocates nothing.
  const std::array<Foot, 2>& update(const std::array<Vec3, 2>& contact_joints, Vec3 pelvis, double dt);

  /// Frames between the first frame of a step from moving to still (or back) and the frame the
  /// contact flag follows it, for a clean step.
  int onset_delay_frames() const { return onset_delay_; }
  int release_delay_frames() const { return release_delay_; }
  /// The box window N (frames).
  int window_frames() const { return window_; }

 private:
  ContactSettings settings_;
  int window_ = 1, body_window_ = 1, ground_window_ = 1;
  int onset_delay_ = 0, release_delay_ = 0;
  long long frames_seen_ = 0;
  Vec3 last_pelvis_;
  std::array<Vec3, 2> last_joint_;
  std::vector<Vec3> body_ring_;                    ///< pelvis horizontal velocities
  Vec3 body_sum_;
  std::array<std::vector<double>, 2> height_ring_;  ///< contact joint heights
  std::array<std::vector<std::uint8_t>, 2> raw_ring_;
  std::array<double, 2> lowest_{0, 0};  ///< lowest height so far (ground_window_s = 0)
  std::array<double, 2> last_vertical_{0, 0};  ///< contact joints' last vertical velocity (m/s)
  std::array<Foot, 2> feet_;
};

}  // namespace footfix
