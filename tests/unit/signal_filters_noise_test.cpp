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
  for (double fps : {30.0, 120.0}) {
    const std::vector<Vec3> path = stepping_path(fps);
    EXPECT_LT(white_noise_rms(path), 0.001) << fps << " Hz";
    for (double rms : {0.005, 0.02}) EXPECT_NEAR(white_noise_rms(with_noise(path, rms, 3)), rms, 0.2 * rms) << fps << " Hz";
  }
  EXPECT_EQ(white_noise_rms(std::vector<Vec3>(3)), 0.0);
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

}  // namespace
}  // namespace footfix
