#include "footfix/walk/pelvis_motion.h"

#include <algorithm>
#include <cmath>

namespace footfix {
namespace {

constexpr double k_sway_m = 0.02;
constexpr double k_rotation_rad = 4 * k_deg_to_rad;
constexpr double k_list_rad = 3.5 * k_deg_to_rad;
/// Cycle phase of the lowest pelvis, relative to a heel strike: the end of swing, when the leading
/// leg reaches forward and the trailing foot is still flat.
constexpr double k_dip_phase = 0.04;
constexpr double k_max_dip_m = 0.12;
/// The dip is sized where it is at least this deep a part of the step; elsewhere the legs' reach
/// (the stance leg's arc at mid-stance) shapes the height.
constexpr double k_dip_shape_min = 0.3;
/// Smoothness of the soft minimum between the dip and the reach (m).
constexpr double k_soft_min_m = 0.003;
/// The dip starts this far above the reach at mid-stance, so the stance leg straightens there.
constexpr double k_top_above_reach_m = 0.01;

/// Smooth minimum of a and b, never above either: min - k ln(e^(-(a-min)/k) + e^(-(b-min)/k)).
double soft_min(double a, double b, double k) {
  const double m = std::min(a, b);
  return m - k * std::log(std::exp(-(a - m) / k) + std::exp(-(b - m) / k));
}

std::vector<double> gaussian(const std::vector<double>& y, int half, double sigma) {
  const int n = static_cast<int>(y.size());
  std::vector<double> out(n);
  for (int i = 0; i < n; ++i) {
    double s = 0, w = 0;
    for (int j = -half; j <= half; ++j) {
      const int k = std::clamp(i + j, 0, n - 1);
      const double g = std::exp(-0.5 * j * j / (sigma * sigma));
      s += g * y[k];
      w += g;
    }
    out[i] = s / w;
  }
  return out;
}

}  // namespace

void smooth_body_path(std::vector<BodyKnot>& per_frame, double sigma_frames) {
  const size_t n = per_frame.size();
  std::vector<double> x(n), z(n), yaw(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = per_frame[i].center.x;
    z[i] = per_frame[i].center.z;
    yaw[i] = per_frame[i].yaw_rad;
  }
  const int half = static_cast<int>(std::ceil(3 * sigma_frames));
  x = gaussian(x, half, sigma_frames);
  z = gaussian(z, half, sigma_frames);
  yaw = gaussian(yaw, half, sigma_frames);
  for (size_t i = 0; i < n; ++i) {
    per_frame[i].center.x = x[i];
    per_frame[i].center.z = z[i];
    per_frame[i].yaw_rad = yaw[i];
  }
}

PelvisSway pelvis_sway(const GaitPlan& plan, const GaitPhase& phase) {
  const double a = 2 * k_pi * phase.cycle;
  const double size = std::clamp(plan.step_length_m / 0.7, 0.5, 1.3);
  PelvisSway s;
  s.lateral_m = phase.weight * k_sway_m * std::sin(a);
  s.rotation_rad = -phase.weight * k_rotation_rad * size * std::cos(a);
  s.list_rad = phase.weight * k_list_rad * std::sin(a + 2 * k_pi * 0.05);
  return s;
}

std::vector<double> pelvis_heights(const std::vector<double>& top, const std::vector<double>& cap,
                                   const std::vector<GaitPhase>& phase, int step_frames) {
  const int n = static_cast<int>(top.size());
  std::vector<double> shape(n), need(n), depth(n);
  for (int i = 0; i < n; ++i) {
    shape[i] = phase[i].weight * 0.5 * (1 + std::cos(4 * k_pi * (phase[i].cycle - k_dip_phase)));
    const double excess = top[i] + k_top_above_reach_m - cap[i];
    need[i] = shape[i] < k_dip_shape_min ? 0.0 : std::min(k_max_dip_m, std::max(0.0, excess) / shape[i]);
  }
  // The dip each step needs: the largest need within a step and a half, smoothed over a step.
  const int reach = std::max(1, 3 * step_frames / 2);
  for (int i = 0; i < n; ++i) {
    double m = 0;
    for (int j = std::max(0, i - reach); j <= std::min(n - 1, i + reach); ++j) m = std::max(m, need[j]);
    depth[i] = m;
  }
  depth = gaussian(depth, step_frames, std::max(1.0, step_frames / 2.0));
  std::vector<double> h(n);
  for (int i = 0; i < n; ++i) h[i] = soft_min(cap[i], top[i] + k_top_above_reach_m - depth[i] * shape[i], k_soft_min_m);
  return h;
}

}  // namespace footfix
