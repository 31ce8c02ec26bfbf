// Capture-noise tools of contacts/signal_filters.h: the white-noise estimate and the smoothing
// it calls for.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "footfix/contacts/signal_filters.h"

namespace footfix {
namespace {

/// A foot-like path at `fps` over 6 s: steps forward with a swing arc, still in between.
std::vector<Vec3> stepping_path(double fps) {
  std::vector<Vec3> p;
  for (int f = 0; f < static_cast<int>(6 * fps); ++f) {
    const double t = f / fps, phase = std::fmod(t, 1.0);
    const double swing = phase < 0.4 ? 0.5 - 0.5 * std::cos(M_PI * phase / 0.4) : 1.0;
    p.push_back({0.0, phase < 0.4 ? 0.1 * std::sin(M_PI * phase / 0.4) : 0.0, 0.7 * (std::floor(t) + swing)});
  }
  return p;
}

std::vector<Vec3> with_noise(std::vector<Vec3> p, double rms, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0.0, rms);
  for (Vec3& q : p) q += Vec3{n(rng), n(rng), n(rng)};
  return p;
}

TEST(WhiteNoiseRms, ReadsTheNoiseAndNotTheMotion) {
  for (NoiseDifference order : {NoiseDifference::third, NoiseDifference::fourth})
    for (double fps : {20.0, 30.0, 120.0}) {
      const std::vector<Vec3> path = stepping_path(fps);
      EXPECT_LT(white_noise_rms(path, order), 0.001) << fps << " Hz";
      for (double rms : {0.005, 0.02})
        EXPECT_NEAR(white_noise_rms(with_noise(path, rms, 3), order), rms, 0.2 * rms) << fps << " Hz";
    }
  EXPECT_EQ(white_noise_rms(std::vector<Vec3>(3)), 0.0);
  EXPECT_EQ(white_noise_rms(std::vector<Vec3>(4), NoiseDifference::fourth), 0.0);
}

TEST(NoiseSmoothingSigma, LeavesTheAskedVelocityNoise) {
  // White noise alone, smoothed with the sigma asked for 0.04 m/s: the frame-to-frame velocity
  // noise left is about that.
  const double fps = 60, rms = 0.01, wanted = 0.04;
  const double sigma = noise_smoothing_sigma(rms, fps, wanted);
  const std::vector<Vec3> smoothed = gaussian_smooth(with_noise(std::vector<Vec3>(20000), rms, 9), sigma);
  double sum = 0;
  for (size_t t = 1; t < smoothed.size(); ++t) sum += std::pow((smoothed[t].x - smoothed[t - 1].x) * fps, 2);
  EXPECT_NEAR(std::sqrt(sum / (smoothed.size() - 1)), wanted, 0.15 * wanted);
  EXPECT_EQ(noise_smoothing_sigma(0, fps, wanted), 0.0);
}

TEST(LocalQuadraticSmooth, KeepsAParabolaAndItsEnds) {
  // A parabola passes unchanged, its ends too, where a Gaussian pulls the curve towards its mean.
  std::vector<double> parabola;
  for (int t = 0; t < 60; ++t) parabola.push_back(0.01 * (t - 20) * (t - 20) - 0.3 * t + 2);
  const std::vector<double> kept = local_quadratic_smooth(parabola, 6);
  for (size_t t = 0; t < parabola.size(); ++t) EXPECT_NEAR(kept[t], parabola[t], 1e-9) << t;
  EXPECT_GT(std::abs(gaussian_smooth(parabola, 6).front() - parabola.front()), 0.5);
  EXPECT_EQ(local_quadratic_smooth(std::vector<double>{1, 5, 2}, 6), (std::vector<double>{1, 5, 2}));
}

TEST(LocalQuadraticSmooth, PassesASineWithTheDocumentedGain) {
  for (double w_sigma : {0.5, 1.0}) {
    const double sigma = 8, w = w_sigma / sigma;
    std::vector<double> sine;
    for (int t = 0; t < 2000; ++t) sine.push_back(std::sin(w * t));
    const std::vector<double> out = local_quadratic_smooth(sine, sigma);
    const double gain = (1 + w_sigma * w_sigma / 2) * std::exp(-w_sigma * w_sigma / 2);
    const std::vector<double> gaussian = gaussian_smooth(sine, sigma);
    for (int t = 500; t < 1500; t += 37) {
      EXPECT_NEAR(out[t], gain * sine[t], 0.02) << w_sigma << " at " << t;
      if (std::abs(sine[t]) > 0.5) {
        EXPECT_GT(std::abs(out[t]), std::abs(gaussian[t]) + 0.05) << w_sigma << " at " << t;
      }
    }
  }
}

TEST(PositionSmoothingSigma, LeavesTheAskedPositionNoise) {
  const double rms = 0.01, wanted = 0.002;
  const double sigma = position_smoothing_sigma(rms, wanted);
  const std::vector<Vec3> smoothed = local_quadratic_smooth(with_noise(std::vector<Vec3>(20000), rms, 4), sigma);
  double sum = 0;
  for (const Vec3& q : smoothed) sum += q.y * q.y;
  EXPECT_NEAR(std::sqrt(sum / smoothed.size()), wanted, 0.15 * wanted);
  EXPECT_EQ(position_smoothing_sigma(0.001, wanted), 0.0);
}

}  // namespace
}  // namespace footfix
