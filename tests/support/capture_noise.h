// Clips made like video and depth capture and inertial suits, for tests and bench/: per-frame
// joint rotation noise and root noise, an inertial suit's root drift, short cuts and resampling
// to a lower rate. Header-only, shared by tests and bench/.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/core/math.h"
#include "solve/loop_wrap.h"

namespace footfix::test {

/// Adds capture noise to `clip` (internal frame), independently at every frame: each joint's
/// rotation turns about a random axis by a normal angle whose rms is the joint's own, drawn
/// once per joint in [min_deg, max_deg]; the `root` joint's translation moves by a normal
/// offset of `root_rms_m` rms (3D). Joints above `root` (a reference joint at the ground that
/// carries the body) keep their rotation: they are no body segment a pose estimator sees, and
/// a turn of theirs would swing the whole body by more than the root noise. `correlation` in
/// [0, 1): each frame's noise is that share of the previous frame's plus fresh noise (an AR(1)
/// process with the same rms), as a pose estimator's temporal filter leaves it; 0 is white
/// noise. Deterministic for `seed`.
inline void add_capture_noise(Clip& clip, int root, unsigned seed, double root_rms_m = 0.01, double min_deg = 1,
                              double max_deg = 3, double correlation = 0) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> amplitude(min_deg, max_deg);
  std::normal_distribution<double> unit(0.0, 1.0);
  std::vector<double> rms_rad(static_cast<size_t>(clip.joint_count()));
  for (double& a : rms_rad) a = amplitude(rng) * M_PI / 180;
  const double axis_share = 1 / std::sqrt(3.0);  // three normal components make the rms
  std::vector<bool> above_root(static_cast<size_t>(clip.joint_count()), false);
  for (int j = clip.skeleton.parents[static_cast<size_t>(root)]; j >= 0; j = clip.skeleton.parents[static_cast<size_t>(j)])
    above_root[static_cast<size_t>(j)] = true;
  const double fresh = std::sqrt(1 - correlation * correlation);
  std::vector<Vec3> joint_noise(static_cast<size_t>(clip.joint_count()));
  Vec3 root_noise;
  for (int f = 0; f < clip.frame_count; ++f) {
    for (int j = 0; j < clip.joint_count(); ++j) {
      const Vec3 v{unit(rng), unit(rng), unit(rng)};  // drawn for every joint: one sequence per seed
      Vec3& noise = joint_noise[static_cast<size_t>(j)];
      noise = f == 0 ? v : noise * correlation + v * fresh;
      if (above_root[static_cast<size_t>(j)]) continue;
      clip.rotation(f, j) = normalize(from_rotation_vector(noise * (rms_rad[j] * axis_share)) * clip.rotation(f, j));
    }
    const Vec3 v{unit(rng), unit(rng), unit(rng)};
    root_noise = f == 0 ? v : root_noise * correlation + v * fresh;
    clip.translation(f, root) += root_noise * (root_rms_m * axis_share);
  }
}

// A monocular video capture (bench_capture's "video" variants): its rate (Hz), its root noise
// (m rms) and the share of each frame's noise carried to the next (a pose estimator's temporal
// filter); the joint noise's range differs between the variants.
constexpr double k_video_fps = 30;
constexpr double k_video_root_noise_m = 0.01;
constexpr double k_video_noise_correlation = 0.6;
// The "video" variant's joint noise: each joint's rms (degrees) drawn in this range ("video-light"
// has less).
constexpr double k_video_min_joint_deg = 1;
constexpr double k_video_max_joint_deg = 3;

// An inertial suit's root drift (inertial_root_drift): horizontal speed (m/s rms) correlated
// over k_inertial_drift_time_s (s), and vertical offset (m rms) over k_inertial_rise_time_s (s).
constexpr double k_inertial_drift_mps = 0.05;
constexpr double k_inertial_drift_time_s = 1.0;
constexpr double k_inertial_rise_m = 0.02;
constexpr double k_inertial_rise_time_s = 5.0;

/// The root drift of an inertial suit, whose root position is integrated from its sensors: per
/// frame of a clip of `frames` frames at `fps`, the offset (m, internal frame) by which the whole
/// body has wandered over the floor (x, z: the integral of a slowly changing velocity) and up or
/// down (y: a slowly changing offset). Deterministic for `seed`.
inline std::vector<Vec3> inertial_root_drift(int frames, double fps, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> unit(0.0, 1.0);
  const double dt = 1 / fps;
  const double keep = std::exp(-dt / k_inertial_drift_time_s), fresh = std::sqrt(1 - keep * keep);
  const double keep_rise = std::exp(-dt / k_inertial_rise_time_s), fresh_rise = std::sqrt(1 - keep_rise * keep_rise);
  std::vector<Vec3> out(static_cast<size_t>(std::max(frames, 0)));
  Vec3 velocity, offset;
  double rise = 0;
  for (Vec3& drift : out) {
    velocity = velocity * keep + Vec3{unit(rng), 0, unit(rng)} * (fresh * k_inertial_drift_mps / std::sqrt(2.0));
    rise = rise * keep_rise + unit(rng) * fresh_rise * k_inertial_rise_m;
    offset = offset + velocity * dt;
    drift = Vec3{offset.x, rise, offset.z};
  }
  return out;
}

/// `seconds` of `clip` from a third into it (past any reference pose and start-up), as
/// generators and video tools write short clips; the whole clip where it is not longer.
inline Clip short_cut(Clip clip, double seconds) {
  const int count = static_cast<int>(std::lround(seconds * clip.fps)) + 1;
  if (count >= clip.frame_count) return clip;
  keep_frames(clip, std::min(clip.frame_count / 3, clip.frame_count - count), count);
  return clip;
}

/// `clip` resampled to `fps` over the same duration (slerp of rotations, lerp of translations).
inline Clip resampled(const Clip& clip, double fps) {
  const double duration = (clip.frame_count - 1) / clip.fps;
  const int frames = static_cast<int>(std::floor(duration * fps + 1e-9)) + 1;
  Clip out = clip;
  out.fps = fps;
  out.frame_count = frames;
  out.rotations.assign(static_cast<size_t>(frames) * clip.joint_count(), Quat{});
  out.translations.assign(static_cast<size_t>(frames) * clip.joint_count(), Vec3{});
  for (int f = 0; f < frames; ++f) {
    const double s = std::min(f / fps * clip.fps, clip.frame_count - 1.0);
    const int a = static_cast<int>(std::floor(s));
    const int b = std::min(a + 1, clip.frame_count - 1);
    const double t = s - a;
    for (int j = 0; j < clip.joint_count(); ++j) {
      out.rotation(f, j) = slerp(clip.rotation(a, j), clip.rotation(b, j), t);
      out.translation(f, j) = lerp(clip.translation(a, j), clip.translation(b, j), t);
    }
  }
  return out;
}

}  // namespace footfix::test
