#include "footfix/solve/pinned_root.h"

#include <algorithm>
#include <cmath>

#include "footfix/contacts/signal_filters.h"
#include "footfix/core/fk.h"
#include "footfix/solve/treadmill.h"

namespace footfix {
namespace {

// The body's velocity from its planted feet changes at once where the foot it stands on
// changes; smoothed over this (s, Gaussian sigma) it carries the legs without a jolt.
constexpr double k_travel_smoothing_s = 0.15;

}  // namespace

bool root_is_pinned(const std::vector<Vec3>& root_ws) {
  if (root_ws.size() < 2) return false;
  double min_x = root_ws[0].x, max_x = min_x, min_z = root_ws[0].z, max_z = min_z;
  for (const Vec3& p : root_ws) {
    min_x = std::min(min_x, p.x);
    max_x = std::max(max_x, p.x);
    min_z = std::min(min_z, p.z);
    max_z = std::max(max_z, p.z);
  }
  return std::hypot(max_x - min_x, max_z - min_z) <= k_pinned_root_range_m;
}

std::vector<Vec3> travel_from_planted_feet(const std::array<std::vector<Vec3>, 2>& toe_ws,
                                           const std::array<std::vector<std::uint8_t>, 2>& contact, double fps) {
  const std::vector<Vec3> steps =
      gaussian_smooth(std::span<const Vec3>(ground_steps(toe_ws, contact)), k_travel_smoothing_s * fps);
  std::vector<Vec3> travel(steps.size());
  for (size_t f = 1; f < steps.size(); ++f) travel[f] = travel[f - 1] - steps[f];
  return travel;
}

void move_body(Clip& clip, int frame, int translation_joint, Vec3 offset_ws) {
  const int parent = clip.skeleton.parents[translation_joint];
  const Quat parent_rot = parent >= 0 ? joint_world(clip, frame, parent).rotation : Quat{};
  clip.translation(frame, translation_joint) += rotate(inverse(parent_rot), offset_ws);
}

}  // namespace footfix
