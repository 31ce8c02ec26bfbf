// "Positional" BVH: webcam and pose-estimator exporters that write each joint's world position
// into its position channels (every OFFSET 0, every rotation 0), where BVH means a position
// relative to the parent joint. Such files are read as what they hold: each joint's translation
// becomes its world position less its parent's.
#include <cmath>
#include <string>

#include "bvh_detail.h"

namespace footfix::bvh_detail {
namespace {

bool all_positions(const BvhJointLayout& layout) {
  bool axes[3] = {};
  for (BvhChannel c : layout.channels)
    if (!is_rotation(c)) axes[channel_axis(c)] = true;
  return axes[0] && axes[1] && axes[2];
}

// Whether every joint has a zero OFFSET and three position channels, and every rotation value of
// every frame is zero.
bool shaped_like_world_positions(const BvhSource& source) {
  for (size_t j = 0; j < source.joints.size(); ++j)
    if (source.raw_offsets[j] != Vec3{} || !all_positions(source.joints[j])) return false;
  const size_t row = static_cast<size_t>(source.values_per_frame);
  for (size_t j = 0; j < source.joints.size(); ++j) {
    const BvhJointLayout& layout = source.joints[j];
    for (size_t i = 0; i < layout.channels.size(); ++i) {
      if (!is_rotation(layout.channels[i])) continue;
      for (size_t at = static_cast<size_t>(layout.first_value) + i; at < source.values.size(); at += row)
        if (source.values[at] != 0) return false;
    }
  }
  return true;
}

// Sum over bones of the standard deviation of the bone's length over the frames, the joints'
// positions read as parent-relative (`world` false) or as world positions (`world` true).
double bone_length_spread(const Clip& clip, bool world) {
  double spread = 0;
  for (int j = 0; j < clip.joint_count(); ++j) {
    const int parent = clip.skeleton.parents[j];
    if (parent < 0) continue;
    double sum = 0, sum_sq = 0;
    for (int f = 0; f < clip.frame_count; ++f) {
      const Vec3 bone = world ? clip.translation(f, j) - clip.translation(f, parent) : clip.translation(f, j);
      const double l = length(bone);
      sum += l;
      sum_sq += l * l;
    }
    const double mean = sum / clip.frame_count;
    spread += std::sqrt(std::max(0.0, sum_sq / clip.frame_count - mean * mean));
  }
  return spread;
}

}  // namespace

bool read_world_positions(Clip& clip, const BvhSource& source) {
  if (clip.joint_count() < 2 || clip.frame_count < 2 || !shaped_like_world_positions(source)) return false;
  // Bones keep their lengths: the reading under which they vary less is the one the file means.
  if (!(bone_length_spread(clip, true) < bone_length_spread(clip, false))) return false;
  // A parent comes before its children in BVH order: from the last joint back, each parent is
  // still a world position when its children subtract it.
  for (int f = 0; f < clip.frame_count; ++f)
    for (int j = clip.joint_count() - 1; j >= 0; --j)
      if (const int parent = clip.skeleton.parents[j]; parent >= 0)
        clip.translation(f, j) = clip.translation(f, j) - clip.translation(f, parent);
  return true;
}

}  // namespace footfix::bvh_detail
