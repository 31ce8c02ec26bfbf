#include "footfix/walk/pelvis_motion.h"

#include <algorithm>
#include <cmath>

namespace footfix {
namespace {

constexpr double k_sway_m = 0.02;
constexpr double k_rotation_rad = 4 * k_deg_to_rad;
constexpr double k_list_rad = 3.5 * k_deg_to_rad;
/// How far the pelvis leads the feet's midpoint while walking. The heel strike's reach sets how
/// deep the pelvis dips around it, and the bounded pelvis acceleration starts that dip early
/// enough to bend the other, mid-stance, knee; leading shortens that reach. More lead extends the
/// trailing hip further at toe off and jolts the knee there (docs/tuning.md).
constexpr double k_lead_m = 0.01;
/// Further lead (m) around each heel strike, largest this share of a cycle before it: in
/// terminal swing and at heel strike the pelvis stands nearer the leading foot, whose reach sets
/// how deep the pelvis dips there, and it falls back over the loading response, after the
/// trailing foot has left the ground. Peaking at the heel strike itself, the lead would push the
/// trailing hip forward at toe off and jolt that knee (docs/tuning.md). Not on stairs: ahead of a
/// foot stepping down a flight onto its landing, the pelvis sinks that sole into a tread.
constexpr double k_strike_lead_m = 0.04;
constexpr double k_strike_lead_advance = 0.1;

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

PelvisSway pelvis_sway(const GaitPlan& plan, const GaitPhase& phase, bool stairs) {
  const double a = 2 * k_pi * phase.cycle;
  const double size = std::clamp(plan.step_length_m / 0.7, 0.5, 1.3);
  PelvisSway s;
  s.lateral_m = phase.weight * k_sway_m * std::sin(a);
  s.rotation_rad = -phase.weight * k_rotation_rad * size * std::cos(a);
  s.list_rad = phase.weight * k_list_rad * std::sin(a + 2 * k_pi * 0.05);
  // cos^2 of the phase doubled: peaks once per step, continuous in every derivative.
  const double strike = 0.5 + 0.5 * std::cos(4 * k_pi * (phase.cycle + k_strike_lead_advance));
  s.forward_m = phase.weight * (k_lead_m + (stairs ? 0.0 : k_strike_lead_m * strike * strike));
  return s;
}

std::vector<double> pelvis_heights(const std::vector<double>& cap, double fps, double max_up_mps2, double max_down_mps2) {
  const int n = static_cast<int>(cap.size());
  if (n == 0) return {};
  const double dt = 1.0 / fps;
  // Parabolic erosion: e(t) = min over s of cap(s) + a/2 (t - s)^2. Never above cap; where cap
  // bends upward faster than a (the two legs' reach meeting in a V at each heel strike) a parabola
  // of curvature a passes under it. Beyond a second the parabola term exceeds any step's dip.
  const int window = std::min(n, static_cast<int>(std::ceil(fps)));
  std::vector<double> e(n);
  for (int i = 0; i < n; ++i) {
    double m = cap[i];
    for (int j = std::max(0, i - window); j <= std::min(n - 1, i + window); ++j) {
      const double d = (i - j) * dt;
      m = std::min(m, cap[j] + 0.5 * max_up_mps2 * d * d);
    }
    e[i] = m;
  }
  // Lower convex envelope of e + b/2 t^2, less b/2 t^2: the highest curve under e whose downward
  // curvature is at most b (it bridges the sharp peaks where the reach changes legs).
  const double b = max_down_mps2;
  std::vector<double> g(n);
  for (int i = 0; i < n; ++i) g[i] = e[i] + 0.5 * b * (i * dt) * (i * dt);
  std::vector<int> hull;
  for (int i = 0; i < n; ++i) {
    while (hull.size() >= 2) {
      const int p = hull[hull.size() - 2], q = hull.back();
      // q lies on or above the chord p-i: not on the lower hull.
      if ((g[q] - g[p]) * (i - p) >= (g[i] - g[p]) * (q - p)) hull.pop_back();
      else break;
    }
    hull.push_back(i);
  }
  std::vector<double> h(n);
  for (size_t k = 0; k + 1 < hull.size(); ++k) {
    const int p = hull[k], q = hull[k + 1];
    for (int i = p; i <= q; ++i) {
      const double u = static_cast<double>(i - p) / (q - p);
      h[i] = g[p] + (g[q] - g[p]) * u - 0.5 * b * (i * dt) * (i * dt);
    }
  }
  if (hull.size() == 1) h[0] = e[0];
  return h;
}

}  // namespace footfix
