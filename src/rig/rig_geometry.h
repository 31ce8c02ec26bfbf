// Internal helpers shared by rig detection steps: sampled world poses and body directions.
#pragma once

#include <vector>

#include "footfix/core/clip.h"

namespace footfix::rig_detail {

/// World transforms of every joint at up to `max_samples` evenly spaced frames.
struct SampledPoses {
  std::vector<int> frames;
  std::vector<std::vector<Transform>> world;  ///< [sample][joint]
};
SampledPoses sample_poses(const Clip& clip, int max_samples);

/// Sum over the samples of the pelvis minus the mean of the feet: the body's up, unnormalised.
Vec3 body_up_sum(const SampledPoses& poses, int pelvis, int foot_a, int foot_b);

/// Unit axis (one of +-x, +-y, +-z) closest to `direction`.
Vec3 nearest_axis(Vec3 direction);

/// Unit axis (one of +-x, +-y, +-z) closest to the mean of pelvis minus the mean of the feet.
Vec3 dominant_up(const SampledPoses& poses, int pelvis, int foot_a, int foot_b);

/// Projects v onto the plane perpendicular to unit `up`.
inline Vec3 horizontal(Vec3 v, Vec3 up) { return v - up * dot(v, up); }

}  // namespace footfix::rig_detail
