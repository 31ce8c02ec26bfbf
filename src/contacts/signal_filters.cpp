#include "footfix/contacts/signal_filters.h"

#include <algorithm>
#include <cmath>

namespace footfix {

int odd_window_frames(double seconds, double fps) {
  double frames = std::round(seconds * fps);
  if (!(frames >= 1)) return 1;
  int n = frames > 1e6 ? 1000001 : static_cast<int>(frames);
  return n % 2 == 1 ? n : n + 1;
}

std::vector<std::uint8_t> majority_filter(std::span<const std::uint8_t> in, int window) {
  const int n = static_cast<int>(in.size());
  const int half = std::max(window, 1) / 2;
  std::vector<std::uint8_t> out(in.size());
  // Running count of ones in [t - half, t + half].
  int ones = 0, lo = 0, hi = -1;
  for (int t = 0; t < n; ++t) {
    int want_lo = std::max(0, t - half), want_hi = std::min(n - 1, t + half);
    while (hi < want_hi) ones += in[++hi] ? 1 : 0;
    while (lo < want_lo) ones -= in[lo++] ? 1 : 0;
    int count = hi - lo + 1;
    out[t] = 2 * ones > count ? 1 : 2 * ones < count ? 0 : in[t];
  }
  return out;
}

std::vector<double> gaussian_smooth(std::span<const double> in, double sigma_frames) {
  const int n = static_cast<int>(in.size());
  const int radius = std::max(1, static_cast<int>(std::ceil(3.0 * sigma_frames)));
  std::vector<double> kernel(static_cast<size_t>(radius) + 1);
  for (int k = 0; k <= radius; ++k) kernel[k] = std::exp(-0.5 * (k * k) / (sigma_frames * sigma_frames));
  std::vector<double> out(in.size());
  for (int t = 0; t < n; ++t) {
    double sum = 0, weight = 0;
    for (int k = -radius; k <= radius; ++k) {
      int s = t + k;
      if (s < 0 || s >= n) continue;
      double w = kernel[static_cast<size_t>(std::abs(k))];
      sum += w * in[s];
      weight += w;
    }
    out[t] = sum / weight;
  }
  return out;
}

std::vector<std::uint8_t> hysteresis_threshold(std::span<const double> in, double high, double low) {
  const size_t n = in.size();
  std::vector<std::uint8_t> out(n, 0);
  size_t t = 0;
  while (t < n) {
    if (in[t] < low) {
      ++t;
      continue;
    }
    size_t end = t;
    bool reaches_high = false;
    while (end < n && in[end] >= low) reaches_high |= in[end++] >= high;
    if (reaches_high) std::fill(out.begin() + static_cast<std::ptrdiff_t>(t), out.begin() + static_cast<std::ptrdiff_t>(end), 1);
    t = end;
  }
  return out;
}

std::vector<Vec3> point_velocities(std::span<const Vec3> p, double fps) {
  const size_t n = p.size();
  std::vector<Vec3> out(n);
  if (n < 2) return out;
  std::vector<Vec3> step(n - 1);  // step[t] = (p[t+1] - p[t]) * fps
  for (size_t t = 0; t + 1 < n; ++t) step[t] = (p[t + 1] - p[t]) * fps;
  out[0] = step[0];
  out[n - 1] = step[n - 2];
  for (size_t t = 1; t + 1 < n; ++t)
    out[t] = length_sq(step[t - 1]) <= length_sq(step[t]) ? step[t - 1] : step[t];
  return out;
}

std::vector<double> point_speeds(std::span<const Vec3> p, double fps) {
  std::vector<double> out;
  out.reserve(p.size());
  for (const Vec3& v : point_velocities(p, fps)) out.push_back(length(v));
  return out;
}

std::vector<Vec3> upsample_catmull_rom(std::span<const Vec3> p, int factor) {
  const int n = static_cast<int>(p.size());
  if (factor <= 1 || n < 2) return {p.begin(), p.end()};
  auto at = [&](int i) {  // mirrored (linearly extrapolated) beyond the ends
    if (i < 0) return p[0] * 2.0 - p[1];
    if (i >= n) return p[n - 1] * 2.0 - p[n - 2];
    return p[i];
  };
  std::vector<Vec3> out;
  out.reserve(static_cast<size_t>((n - 1) * factor + 1));
  for (int i = 0; i + 1 < n; ++i) {
    Vec3 p0 = at(i - 1), p1 = at(i), p2 = at(i + 1), p3 = at(i + 2);
    for (int s = 0; s < factor; ++s) {
      double u = static_cast<double>(s) / factor, u2 = u * u, u3 = u2 * u;
      out.push_back(0.5 * (p1 * 2.0 + (p2 - p0) * u + (p0 * 2.0 - p1 * 5.0 + p2 * 4.0 - p3) * u2 +
                           (p1 * 3.0 - p0 - p2 * 3.0 + p3) * u3));
    }
  }
  out.push_back(p[n - 1]);
  return out;
}

namespace {

template <typename T>
std::vector<T> moving_average_of(std::span<const T> in, int window) {
  const int n = static_cast<int>(in.size());
  const int half = std::max(window, 1) / 2;
  std::vector<T> prefix(in.size() + 1, T{});
  for (int t = 0; t < n; ++t) prefix[t + 1] = prefix[t] + in[t];
  std::vector<T> out(in.size());
  for (int t = 0; t < n; ++t) {
    int lo = std::max(0, t - half), hi = std::min(n - 1, t + half);
    out[t] = (prefix[hi + 1] - prefix[lo]) / static_cast<double>(hi - lo + 1);
  }
  return out;
}

}  // namespace

std::vector<double> moving_average(std::span<const double> in, int window) { return moving_average_of(in, window); }
std::vector<Vec3> moving_average(std::span<const Vec3> in, int window) { return moving_average_of(in, window); }

std::vector<double> window_minimum(std::span<const double> in, int before, int after) {
  const int n = static_cast<int>(in.size());
  std::vector<double> out(in.size());
  for (int t = 0; t < n; ++t) {
    int lo = std::max(0, t - before), hi = std::min(n - 1, t + after);
    out[t] = *std::min_element(in.begin() + lo, in.begin() + hi + 1);
  }
  return out;
}

std::vector<double> window_median(std::span<const double> in, int half) {
  const int n = static_cast<int>(in.size());
  std::vector<double> out(in.size()), window;
  for (int t = 0; t < n; ++t) {
    int lo = std::max(0, t - half), hi = std::min(n - 1, t + half);
    window.assign(in.begin() + lo, in.begin() + hi + 1);
    auto mid = window.begin() + static_cast<std::ptrdiff_t>(window.size() / 2);
    std::nth_element(window.begin(), mid, window.end());
    double m = *mid;
    if (window.size() % 2 == 0) m = 0.5 * (m + *std::max_element(window.begin(), mid));
    out[t] = m;
  }
  return out;
}

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
  size_t i = static_cast<size_t>(pos);
  if (i + 1 >= values.size()) return values.back();
  double f = pos - static_cast<double>(i);
  return values[i] * (1.0 - f) + values[i + 1] * f;
}

}  // namespace footfix
