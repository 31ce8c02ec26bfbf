#include "footfix/contacts/signal_filters.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>

namespace footfix {
namespace {

// Above this kernel radius (frames) gaussian_smooth switches to three box passes, so its cost
// stays O(frames) for any sigma.
constexpr double k_max_exact_gaussian_radius = 256;

// The radius (frames) at which a Gaussian of sigma `sigma_frames` is cut: 3 sigma, at least 1;
// computed in double, so that any sigma is defined behaviour.
double gaussian_radius(double sigma_frames) { return std::max(1.0, std::ceil(3.0 * sigma_frames)); }

// That radius cut to a signal of n frames (a kernel wider than the signal adds nothing).
int gaussian_radius(double sigma_frames, int n) { return static_cast<int>(std::min(gaussian_radius(sigma_frames), static_cast<double>(n))); }

// The weight of an offset of k frames in a Gaussian of sigma `sigma_frames` (1 at 0).
double gaussian_weight(int k, double sigma_frames) {
  return std::exp(-0.5 * (static_cast<double>(k) * k) / (sigma_frames * sigma_frames));
}

// Frame t of `in` smoothed with `weight(|offset|)` over t - radius .. t + radius, the kernel cut
// at the ends and renormalised. Summed in frame order.
template <class T, class Weight>
T smoothed_at(std::span<const T> in, int t, int radius, Weight weight) {
  const int n = static_cast<int>(in.size());
  T sum{};
  double total = 0;
  for (int s = std::max(0, t - radius); s <= std::min(n - 1, t + radius); ++s) {
    const double w = weight(std::abs(s - t));
    sum += w * in[static_cast<size_t>(s)];
    total += w;
  }
  return sum / total;
}

}  // namespace

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
  if (n == 0) return {};
  if (!(sigma_frames > 0) || !std::isfinite(sigma_frames)) return {in.begin(), in.end()};
  const double wanted_radius = gaussian_radius(sigma_frames);
  if (wanted_radius > k_max_exact_gaussian_radius && wanted_radius < n) {
    // Three passes of a box filter of variance sigma^2 / 3 each: O(frames) for any sigma.
    const int box = static_cast<int>(std::floor(std::sqrt(4.0 * sigma_frames * sigma_frames + 1.0)));
    std::vector<double> out = moving_average(in, box | 1);
    for (int pass = 1; pass < 3; ++pass) out = moving_average(std::span<const double>(out), box | 1);
    return out;
  }
  const int radius = gaussian_radius(sigma_frames, n);
  std::vector<double> kernel(static_cast<size_t>(radius) + 1);
  for (int k = 0; k <= radius; ++k) kernel[static_cast<size_t>(k)] = gaussian_weight(k, sigma_frames);
  std::vector<double> out(in.size());
  for (int t = 0; t < n; ++t) out[static_cast<size_t>(t)] = smoothed_at(in, t, radius, [&kernel](int k) { return kernel[static_cast<size_t>(k)]; });
  return out;
}

Vec3 gaussian_smooth_at(std::span<const Vec3> p, int t, double sigma_frames) {
  const int radius = gaussian_radius(sigma_frames, static_cast<int>(p.size()));
  return smoothed_at(p, t, radius, [sigma_frames](int k) { return gaussian_weight(k, sigma_frames); });
}

namespace {

// Applies a scalar filter to each axis of a trajectory.
template <class Filter>
std::vector<Vec3> per_axis(std::span<const Vec3> p, Filter filter) {
  std::array<std::vector<double>, 3> axes;
  for (int a = 0; a < 3; ++a) {
    axes[a].reserve(p.size());
    for (const Vec3& q : p) axes[a].push_back(at(q, a));
    axes[a] = filter(std::span<const double>(axes[a]));
  }
  std::vector<Vec3> out(p.size());
  for (size_t t = 0; t < p.size(); ++t) out[t] = {axes[0][t], axes[1][t], axes[2][t]};
  return out;
}

}  // namespace

std::vector<Vec3> gaussian_smooth(std::span<const Vec3> p, double sigma_frames) {
  return per_axis(p, [&](std::span<const double> a) { return gaussian_smooth(a, sigma_frames); });
}

std::vector<double> local_quadratic_smooth(std::span<const double> in, double sigma_frames) {
  const int n = static_cast<int>(in.size());
  if (!(sigma_frames > 0) || !std::isfinite(sigma_frames)) return {in.begin(), in.end()};
  const int radius = static_cast<int>(std::min(std::ceil(3.0 * sigma_frames), static_cast<double>(n)));
  std::vector<double> kernel(static_cast<size_t>(radius) + 1);
  for (int k = 0; k <= radius; ++k) kernel[k] = std::exp(-0.5 * (static_cast<double>(k) * k) / (sigma_frames * sigma_frames));
  std::vector<double> out(in.size());
  for (int t = 0; t < n; ++t) {
    // Weighted moments of the offsets u = s - t (scaled by the radius for conditioning) and of
    // the values; the parabola's value at u = 0 from the 3x3 normal equations (Cramer's rule).
    double m0 = 0, m1 = 0, m2 = 0, m3 = 0, m4 = 0, y0 = 0, y1 = 0, y2 = 0;
    const int lo = std::max(0, t - radius), hi = std::min(n - 1, t + radius);
    for (int s = lo; s <= hi; ++s) {
      const double w = kernel[static_cast<size_t>(std::abs(s - t))];
      const double u = static_cast<double>(s - t) / radius, wu = w * u, wu2 = wu * u;
      m0 += w, m1 += wu, m2 += wu2, m3 += wu2 * u, m4 += wu2 * u * u;
      y0 += w * in[s], y1 += wu * in[s], y2 += wu2 * in[s];
    }
    if (hi - lo + 1 < 5) {  // too few samples to smooth with a parabola (a clip's few frames)
      out[t] = in[t];
      continue;
    }
    const double det = m0 * (m2 * m4 - m3 * m3) - m1 * (m1 * m4 - m2 * m3) + m2 * (m1 * m3 - m2 * m2);
    const double num = y0 * (m2 * m4 - m3 * m3) - m1 * (y1 * m4 - y2 * m3) + m2 * (y1 * m3 - y2 * m2);
    out[t] = num / det;
  }
  return out;
}

std::vector<Vec3> local_quadratic_smooth(std::span<const Vec3> p, double sigma_frames) {
  return per_axis(p, [&](std::span<const double> a) { return local_quadratic_smooth(a, sigma_frames); });
}

double position_smoothing_sigma(double noise_rms, double max_noise) {
  if (!(noise_rms > max_noise) || !(max_noise > 0)) return 0;
  // A Gaussian of sigma s leaves noise_rms / sqrt(2 sqrt(pi) s); the local parabola's equivalent
  // kernel (3 - u^2) / 2 x the Gaussian leaves 27/16 times that variance.
  const double ratio = noise_rms / max_noise;
  return 27.0 / 16.0 * ratio * ratio / (2.0 * std::sqrt(M_PI));
}

double white_noise_rms(std::span<const Vec3> p, NoiseDifference order) {
  // Binomial weights of the difference, and the noise's rms on it: sqrt of their squares' sum.
  static constexpr double k_third[] = {-1, 3, -3, 1}, k_fourth[] = {1, -4, 6, -4, 1};
  const bool fourth = order == NoiseDifference::fourth;
  const std::span<const double> weights = fourth ? std::span<const double>(k_fourth) : std::span<const double>(k_third);
  const double gain = std::sqrt(fourth ? 70.0 : 20.0);
  if (p.size() < weights.size()) return 0;
  std::vector<double> differences;
  differences.reserve(3 * (p.size() - weights.size() + 1));
  for (size_t t = weights.size() - 1; t < p.size(); ++t) {
    Vec3 d;
    for (size_t k = 0; k < weights.size(); ++k) d += p[t - k] * weights[k];
    for (int a = 0; a < 3; ++a) differences.push_back(std::abs(at(d, a)));
  }
  return 1.4826 * quantile(std::move(differences), 0.5) / gain;
}

double noise_smoothing_sigma(double noise_rms, double fps, double max_velocity_noise) {
  if (!(noise_rms > 0) || !(max_velocity_noise > 0)) return 0;
  const double ratio = noise_rms * fps / max_velocity_noise;
  return std::cbrt(ratio * ratio / (4.0 * std::sqrt(M_PI)));
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
  before = std::max(before, 0);
  after = std::max(after, 0);
  std::vector<double> out(in.size());
  // Monotonic deque of indices whose values increase from front to back: the front is the
  // minimum of the window; each index enters and leaves once, so O(frames) for any window.
  std::deque<int> rising;
  int next = 0;  // first index not yet pushed
  for (int t = 0; t < n; ++t) {
    const int hi = t + std::min(after, n - 1 - t);
    for (; next <= hi; ++next) {
      while (!rising.empty() && in[rising.back()] >= in[next]) rising.pop_back();
      rising.push_back(next);
    }
    while (rising.front() < t - before) rising.pop_front();
    out[t] = in[rising.front()];
  }
  return out;
}

namespace {

/// Median of a sliding window of values: `low` holds the smaller half (one more when the count
/// is odd), `high` the rest, each a sorted vector (windows are short: moving a few values costs
/// less than a tree node per value). Equal values keep a multiset's order (a new one after its
/// equals, erase takes the first), so which of two equal values (0 and -0) is the median is as
/// it has always been.
class SlidingMedian {
 public:
  void insert(double v) {
    if (low_.empty() || v <= low_.back())
      add(low_, v);
    else
      add(high_, v);
    rebalance();
  }
  void erase(double v) {
    if (v <= low_.back())
      remove(low_, v);
    else
      remove(high_, v);
    rebalance();
  }
  /// Middle value, or the mean of the two middle values for an even count.
  double median() const {
    if (low_.size() > high_.size()) return low_.back();
    return 0.5 * (low_.back() + high_.front());
  }

 private:
  static void add(std::vector<double>& sorted, double v) {
    sorted.insert(std::upper_bound(sorted.begin(), sorted.end(), v), v);
  }
  static void remove(std::vector<double>& sorted, double v) {
    sorted.erase(std::lower_bound(sorted.begin(), sorted.end(), v));
  }
  void rebalance() {
    while (low_.size() > high_.size() + 1) {
      add(high_, low_.back());
      low_.pop_back();
    }
    while (low_.size() < high_.size()) {
      add(low_, high_.front());
      high_.erase(high_.begin());
    }
  }
  std::vector<double> low_, high_;
};

}  // namespace

std::vector<double> window_median(std::span<const double> in, int half) {
  const int n = static_cast<int>(in.size());
  half = std::max(half, 0);
  std::vector<double> out(in.size());
  SlidingMedian window;
  int lo = 0, hi = -1;  // the window holds in[lo..hi]
  for (int t = 0; t < n; ++t) {
    const int want_hi = t + std::min(half, n - 1 - t), want_lo = std::max(0, t - half);
    while (hi < want_hi) window.insert(in[++hi]);
    while (lo < want_lo) window.erase(in[lo++]);
    out[t] = window.median();
  }
  return out;
}

std::vector<Vec3> window_median_per_axis(std::span<const Vec3> in, int half) {
  std::vector<double> x(in.size()), y(in.size()), z(in.size());
  for (size_t t = 0; t < in.size(); ++t) x[t] = in[t].x, y[t] = in[t].y, z[t] = in[t].z;
  x = window_median(x, half), y = window_median(y, half), z = window_median(z, half);
  std::vector<Vec3> out(in.size());
  for (size_t t = 0; t < in.size(); ++t) out[t] = Vec3{x[t], y[t], z[t]};
  return out;
}

HorizontalAxes principal_horizontal_axes(std::span<const Vec3> v) {
  double xx = 0, xz = 0, zz = 0;
  for (const Vec3& p : v) {
    xx += p.x * p.x;
    xz += p.x * p.z;
    zz += p.z * p.z;
  }
  HorizontalAxes axes;
  if (xz == 0 && xx == zz) return axes;
  const double angle = 0.5 * std::atan2(2 * xz, xx - zz);
  axes.cos_a = std::cos(angle);
  axes.sin_a = std::sin(angle);
  return axes;
}

HorizontalComponents horizontal_components(std::span<const Vec3> v, const HorizontalAxes& axes) {
  HorizontalComponents out;
  out.along.reserve(v.size());
  out.across.reserve(v.size());
  for (const Vec3& p : v) {
    const Vec3 local = axes.to_local(p);
    out.along.push_back(local.x);
    out.across.push_back(local.z);
  }
  return out;
}

}  // namespace footfix
