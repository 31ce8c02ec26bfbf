#include "footfix/solve/treadmill.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "footfix/contacts/signal_filters.h"
#include "footfix/core/error.h"
#include "footfix/core/fk.h"

namespace footfix {

void TreadmillSettings::validate() const {
  if (ground_velocity_mps && !is_finite(*ground_velocity_mps))
    fail(ErrorKind::usage, "treadmill: ground_velocity_mps must be finite");
}

Vec3 estimate_ground_velocity(const std::array<std::vector<Vec3>, 2>& toe_ws,
                              const std::array<std::vector<std::uint8_t>, 2>& contact, double fps) {
  std::vector<Vec3> velocities;
  for (int leg = 0; leg < 2; ++leg) {
    const auto& p = toe_ws[leg];
    const auto& c = contact[leg];
    for (size_t f = 1; f < p.size() && f < c.size(); ++f)
      if (c[f] && c[f - 1]) velocities.push_back((p[f] - p[f - 1]) * fps);
  }
  if (velocities.empty()) return {};
  // Medians along the velocities' principal axes: the estimate turns with the clip.
  const HorizontalAxes axes = principal_horizontal_axes(velocities);
  HorizontalComponents local = horizontal_components(velocities, axes);
  return axes.to_world({quantile(std::move(local.along), 0.5), 0.0, quantile(std::move(local.across), 0.5)});
}

double root_travel_speed(const std::vector<Vec3>& pelvis_ws, double fps) {
  const int n = static_cast<int>(pelvis_ws.size());
  if (n < 2) return 0;
  const int window = std::clamp(static_cast<int>(std::lround(0.5 * fps)), 1, n - 1);
  double sum = 0;
  int count = 0;
  for (int f = 0; f + window < n; ++f, ++count) {
    const Vec3 d = pelvis_ws[f + window] - pelvis_ws[f];
    sum += std::hypot(d.x, d.z);
  }
  return sum / count * fps / window;
}

double root_net_speed(const std::vector<Vec3>& pelvis_ws, double fps) {
  const size_t n = pelvis_ws.size();
  if (n < 2) return 0;
  const Vec3 d = pelvis_ws.back() - pelvis_ws.front();
  return std::hypot(d.x, d.z) * fps / static_cast<double>(n - 1);
}

TreadmillDecision decide_treadmill(const OfflineSolveInput& input, const TreadmillSettings& settings) {
  TreadmillDecision d;
  if (settings.mode == TreadmillMode::off && !settings.ground_velocity_mps) return d;
  if (settings.ground_velocity_mps) {
    d.on = true;
    d.ground_velocity_mps = {settings.ground_velocity_mps->x, 0.0, settings.ground_velocity_mps->z};
    return d;
  }
  const Vec3 g = estimate_ground_velocity(input.toe_ws, input.contact, input.fps);
  const double speed = length(g);
  // The root's travel: over half-second windows, or from end to end for a root that wanders
  // and comes back.
  const double root_speed =
      std::min(root_travel_speed(input.pelvis_ws, input.fps), root_net_speed(input.pelvis_ws, input.fps));
  d.on = settings.mode == TreadmillMode::on ||
         (speed >= k_treadmill_min_speed_mps && root_speed < k_treadmill_max_root_fraction * speed);
  if (d.on) d.ground_velocity_mps = g;
  return d;
}

void shift_by_ground(std::vector<Vec3>& pelvis_ws, std::array<std::vector<Vec3>, 2>& toe_ws, Vec3 g,
                     double fps, double sign) {
  const Vec3 step = Vec3{g.x, 0.0, g.z} * (sign / fps);
  for (size_t f = 0; f < pelvis_ws.size(); ++f) pelvis_ws[f] += step * static_cast<double>(f);
  for (auto& toes : toe_ws)
    for (size_t f = 0; f < toes.size(); ++f) toes[f] += step * static_cast<double>(f);
}

Clip shift_clip_by_ground(const Clip& clip, int translation_joint, Vec3 g, double sign) {
  Clip out = clip;
  shift_clip_by_ground_in_place(out, translation_joint, g, sign);
  return out;
}

void shift_clip_by_ground_in_place(Clip& clip, int translation_joint, Vec3 g, double sign) {
  for (int f = 0; f < clip.frame_count; ++f) shift_frame_by_ground(clip, f, f, translation_joint, g, sign);
}

void shift_frame_by_ground(Clip& clip, int frame, int time_frame, int translation_joint, Vec3 g, double sign) {
  // The joint's parent is above it: its world rotation does not change with the shift.
  const int parent = clip.skeleton.parents[translation_joint];
  const Vec3 step = Vec3{g.x, 0.0, g.z} * (sign / clip.fps);
  const Quat parent_rot = parent >= 0 ? joint_world(clip, frame, parent).rotation : Quat{};
  clip.translation(frame, translation_joint) += rotate(inverse(parent_rot), step * static_cast<double>(time_frame));
}

}  // namespace footfix
