// Sliding-window filters against brute force over every window position, for windows from one
// frame to wider than the signal, and the Gaussian smoothing for sigmas far beyond the signal
// (an out-of-range double -> int conversion before).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <random>
#include <set>
#include <span>
#include <vector>

#include "footfix/contacts/signal_filters.h"

namespace footfix {
namespace {

std::vector<double> random_signal(int n, std::uint32_t seed, bool with_ties) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) x = with_ties ? std::round(u(rng) * 3) : u(rng);
  return v;
}

double brute_min(const std::vector<double>& v, int lo, int hi) {
  double m = v[lo];
  for (int i = lo; i <= hi; ++i) m = std::min(m, v[i]);
  return m;
}

double brute_median(std::vector<double> w) {
  std::sort(w.begin(), w.end());
  const size_t k = w.size();
  return k % 2 == 1 ? w[k / 2] : 0.5 * (w[k / 2 - 1] + w[k / 2]);
}

TEST(SignalWindows, MinimumMatchesBruteForce) {
  for (bool ties : {false, true}) {
    const std::vector<double> v = random_signal(157, 7, ties);
    const int n = static_cast<int>(v.size());
    for (int before : {0, 1, 4, 30, 200}) {
      for (int after : {0, 2, 31, 500}) {
        std::vector<double> got = window_minimum(v, before, after);
        ASSERT_EQ(got.size(), v.size());
        for (int t = 0; t < n; ++t)
          ASSERT_EQ(got[t], brute_min(v, std::max(0, t - before), std::min(n - 1, t + after)))
              << "t " << t << " before " << before << " after " << after;
      }
    }
  }
}

TEST(SignalWindows, MedianMatchesBruteForce) {
  for (bool ties : {false, true}) {
    const std::vector<double> v = random_signal(143, 11, ties);
    const int n = static_cast<int>(v.size());
    for (int half : {0, 1, 2, 7, 40, 300}) {
      std::vector<double> got = window_median(v, half);
      ASSERT_EQ(got.size(), v.size());
      for (int t = 0; t < n; ++t) {
        const int lo = std::max(0, t - half), hi = std::min(n - 1, t + half);
        std::vector<double> w(v.begin() + lo, v.begin() + hi + 1);
        ASSERT_DOUBLE_EQ(got[t], brute_median(w)) << "t " << t << " half " << half;
      }
    }
  }
}

/// The median of every window as two multisets give it (the smaller half in one, the rest in the
/// other; a value joins after its equals, erase takes the first of them): which of two equal
/// values, 0 and -0, is the median follows from that order.
std::vector<double> two_multiset_medians(const std::vector<double>& v, int half) {
  std::multiset<double> low, high;
  auto rebalance = [&] {
    while (low.size() > high.size() + 1) {
      high.insert(*std::prev(low.end()));
      low.erase(std::prev(low.end()));
    }
    while (low.size() < high.size()) {
      low.insert(*high.begin());
      high.erase(high.begin());
    }
  };
  const int n = static_cast<int>(v.size());
  std::vector<double> out;
  int lo = 0, hi = -1;
  for (int t = 0; t < n; ++t) {
    for (; hi < std::min(n - 1, t + half); rebalance()) {
      const double x = v[++hi];
      (low.empty() || x <= *low.rbegin() ? low : high).insert(x);
    }
    for (; lo < std::max(0, t - half); rebalance()) {
      const double x = v[lo++];
      auto& side = x <= *low.rbegin() ? low : high;
      side.erase(side.lower_bound(x));
    }
    out.push_back(low.size() > high.size() ? *low.rbegin() : 0.5 * (*low.rbegin() + *high.begin()));
  }
  return out;
}

TEST(SignalWindows, MedianOfZerosOfEitherSignAsTwoMultisetsGiveIt) {
  std::mt19937 rng(17);
  const double values[] = {0.0, -0.0, 1.0, -1.0};
  std::vector<double> v(300);
  for (double& x : v) x = values[rng() % 4];
  for (int half : {0, 1, 2, 5, 18, 400}) {
    const std::vector<double> got = window_median(v, half), expected = two_multiset_medians(v, half);
    ASSERT_EQ(got.size(), expected.size());
    for (size_t t = 0; t < got.size(); ++t) {
      ASSERT_EQ(got[t], expected[t]) << "t " << t << " half " << half;
      ASSERT_EQ(std::signbit(got[t]), std::signbit(expected[t])) << "t " << t << " half " << half;
    }
  }
}

TEST(SignalWindows, EmptyAndHugeWindows) {
  EXPECT_TRUE(window_minimum({}, 3, 3).empty());
  EXPECT_TRUE(window_median({}, 3).empty());
  // A window of a million frames on 20000 frames: every output is the global minimum / median.
  const std::vector<double> v = random_signal(20000, 3, false);
  std::vector<double> lows = window_minimum(v, 1000000, 1000000);
  const double lowest = *std::min_element(v.begin(), v.end());
  for (double x : lows) ASSERT_EQ(x, lowest);
  std::vector<double> medians = window_median(v, 1000000);
  const double whole = brute_median(v);
  for (double x : medians) ASSERT_DOUBLE_EQ(x, whole);
}

TEST(SignalWindows, PerAxisMedianKeepsAStanceBetweenSwingsFlat) {
  // A foot's path: a swing at 0.3 m a frame along X, 4 still frames, another swing; a shake in Y
  // on the stance, alternating sign. The per-axis median keeps the stance at its place up to
  // its ends and the ramps as they are; a Gaussian of the same width pulls the ends into the
  // swings.
  std::vector<Vec3> p;
  for (int f = 0; f < 6; ++f) p.push_back({0.3 * (f - 6), 0, 1});
  for (int f = 0; f < 4; ++f) p.push_back({0, f % 2 ? 0.01 : -0.01, 1});
  for (int f = 1; f <= 6; ++f) p.push_back({0.3 * f, 0, 1});
  const std::vector<Vec3> m = window_median_per_axis(p, 2);
  ASSERT_EQ(m.size(), p.size());
  for (int f = 6; f < 10; ++f) {
    EXPECT_DOUBLE_EQ(m[f].x, 0.0) << f;
    EXPECT_LE(std::abs(m[f].y), 0.01) << f;
    EXPECT_DOUBLE_EQ(m[f].z, 1.0) << f;
  }
  for (int f : {2, 3, 12, 13}) EXPECT_DOUBLE_EQ(m[f].x, p[f].x) << f;
  EXPECT_GT(std::abs(gaussian_smooth(std::span<const Vec3>(p), 1.0)[6].x), 0.02);
}

TEST(SignalWindows, GaussianOfAHugeSigmaIsTheMean) {
  std::vector<double> v(200);
  for (size_t i = 0; i < v.size(); ++i) v[i] = i % 3 == 0 ? 1.0 : 0.0;
  double mean = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  for (double sigma : {1e8, 1e9, 1e12, 1e300}) {
    std::vector<double> out = gaussian_smooth(v, sigma);
    ASSERT_EQ(out.size(), v.size());
    for (double x : out) ASSERT_NEAR(x, mean, 1e-9) << "sigma " << sigma;
  }
}

TEST(SignalWindows, WideGaussianKeepsItsVariance) {
  // Above the exact kernel's radius the smoothing is three box passes: an impulse in a long
  // signal still spreads with the requested standard deviation and keeps its mass.
  const int n = 20001, centre = n / 2;
  std::vector<double> impulse(static_cast<size_t>(n), 0.0);
  impulse[centre] = 1.0;
  const double sigma = 800;  // radius 2400 > the exact kernel's bound
  std::vector<double> out = gaussian_smooth(impulse, sigma);
  double mass = 0, variance = 0;
  for (int i = 0; i < n; ++i) {
    mass += out[i];
    variance += out[i] * (i - centre) * (i - centre);
  }
  EXPECT_NEAR(mass, 1.0, 1e-9);
  EXPECT_NEAR(std::sqrt(variance), sigma, 0.01 * sigma);
  EXPECT_NEAR(out[centre], 1.0 / (sigma * std::sqrt(2 * 3.14159265358979)), 0.05 / sigma);
}

TEST(SignalWindows, NonPositiveSigmaLeavesTheSignal) {
  const std::vector<double> v{0, 1, 0, 1, 1};
  EXPECT_EQ(gaussian_smooth(v, 0), v);
  EXPECT_EQ(gaussian_smooth(v, std::nan("")), v);
}

}  // namespace
}  // namespace footfix
