// Clips made like video and depth capture, for tests and bench/: per-frame joint rotation noise
// and root noise, and resampling to a lower rate. Header-only, shared by tests and bench/.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/core/math.h"

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
