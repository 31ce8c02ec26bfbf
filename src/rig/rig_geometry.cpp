#include "rig_geometry.h"

#include <algorithm>
#include <cmath>

#include "footfix/core/fk.h"

namespace footfix::rig_detail {

SampledPoses sample_poses(const Clip& clip, int max_samples) {
  SampledPoses out;
  int n = std::max(1, std::min(clip.frame_count, max_samples));
  for (int s = 0; s < n && clip.frame_count > 0; ++s) {
    int frame = n == 1 ? 0 : static_cast<int>((static_cast<long long>(s) * (clip.frame_count - 1)) / (n - 1));
    out.frames.push_back(frame);
    out.world.emplace_back(clip.joint_count());
    world_pose(clip, frame, out.world.back());
  }
  return out;
}

Vec3 body_up_sum(const SampledPoses& poses, int pelvis, int foot_a, int foot_b) {
  Vec3 sum;
  for (const auto& w : poses.world)
    sum += w[pelvis].translation - (w[foot_a].translation + w[foot_b].translation) * 0.5;
  return sum;
}

Vec3 dominant_up(const SampledPoses& poses, int pelvis, int foot_a, int foot_b) {
  return nearest_axis(body_up_sum(poses, pelvis, foot_a, foot_b));
}

Vec3 nearest_axis(Vec3 sum) {
  int best = 1;
  for (int axis = 0; axis < 3; ++axis)
    if (std::abs(at(sum, axis)) > std::abs(at(sum, best))) best = axis;
  Vec3 up;
  at(up, best) = at(sum, best) >= 0 ? 1.0 : -1.0;
  return up;
}

}  // namespace footfix::rig_detail
