// Signal tools and settings of contact annotation.
#include <gtest/gtest.h>

#include <cmath>
#include <span>
#include <vector>
#include <nlohmann/json.hpp>

#include "footfix/contacts/contact_settings.h"
#include "contacts/contact_settings_json.h"
#include "footfix/contacts/signal_filters.h"
#include "footfix/core/error.h"

namespace footfix {
namespace {

TEST(ContactFilters, WindowsInSecondsBecomeOddFrameCounts) {
  const double k_majority_s = 5.0 / 60.0;
  EXPECT_EQ(odd_window_frames(k_majority_s, 60), 5);
  EXPECT_EQ(odd_window_frames(k_majority_s, 30), 3);    // 2.5 -> 3
  EXPECT_EQ(odd_window_frames(k_majority_s, 120), 11);  // 10 -> 11
  EXPECT_EQ(odd_window_frames(k_majority_s, 100), 9);   // 8.3 -> 8 -> 9
  EXPECT_EQ(odd_window_frames(0.001, 30), 1);
}

TEST(ContactFilters, MajorityVoteRemovesSingleFrameFlickers) {
  std::vector<std::uint8_t> in{1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0};
  std::vector<std::uint8_t> want{1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(majority_filter(in, 5), want);
  EXPECT_EQ(majority_filter(in, 1), in);
}

TEST(ContactFilters, GaussianKeepsConstantsAndCentresSteps) {
  std::vector<double> ones(20, 1.0);
  for (double v : gaussian_smooth(ones, 1.5)) EXPECT_NEAR(v, 1.0, 1e-12);
  std::vector<double> step(40, 0.0);
  for (size_t i = 20; i < 40; ++i) step[i] = 1.0;
  auto s = gaussian_smooth(step, 1.5);
  // Symmetric about the step at 19.5: s[19] + s[20] = 1; s[20] = Phi(0.5 / 1.5) ~ 0.63.
  EXPECT_NEAR(s[19] + s[20], 1.0, 1e-12);
  EXPECT_NEAR(s[20], 0.6305, 0.005);
  EXPECT_LT(s[10], 1e-6);
}

// One frame smoothed alone is that frame of the whole signal smoothed, bit for bit (ends
// included); past the box passes' radius it is the Gaussian itself, cut at 3 sigma.
TEST(ContactFilters, GaussianAtOneFrameIsTheWholeSmoothsFrame) {
  std::vector<Vec3> p(400);
  for (size_t i = 0; i < p.size(); ++i) {
    const double t = static_cast<double>(i);
    p[i] = {std::sin(0.1 * t) + 0.01 * t, std::cos(0.37 * t), (i % 7) * 0.3};
  }
  for (double sigma : {0.4, 1.0, 2.5, 9.0, 60.0}) {
    const std::vector<Vec3> all = gaussian_smooth(std::span<const Vec3>(p), sigma);
    for (int t = 0; t < static_cast<int>(p.size()); ++t) {
      const Vec3 one = gaussian_smooth_at(std::span<const Vec3>(p), t, sigma);
      ASSERT_TRUE(one.x == all[t].x && one.y == all[t].y && one.z == all[t].z) << "sigma " << sigma << " frame " << t;
    }
  }
  const double wide = 100;  // a 300-frame radius: gaussian_smooth would use box passes
  const int t = 200;
  double sum = 0, weight = 0;
  for (int k = t - 300; k <= t + 300; ++k) {
    if (k < 0 || k >= static_cast<int>(p.size())) continue;
    const double w = std::exp(-0.5 * (k - t) * (k - t) / (wide * wide));
    sum += w * p[static_cast<size_t>(k)].x;
    weight += w;
  }
  EXPECT_NEAR(gaussian_smooth_at(std::span<const Vec3>(p), t, wide).x, sum / weight, 1e-12);
}

TEST(ContactFilters, HysteresisKeepsRunsThatReachTheHighThreshold) {
  std::vector<double> in{0.6, 0.8, 0.6, 0.4, 0.6, 0.7, 0.6, 0.2, 0.9};
  std::vector<std::uint8_t> want{1, 1, 1, 0, 0, 0, 0, 0, 1};
  EXPECT_EQ(hysteresis_threshold(in, 0.75, 0.5), want);
}

TEST(ContactFilters, SpeedsAreZeroExactlyWhereAPointHoldsStill) {
  std::vector<Vec3> p{{0, 0, 0}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 3}};
  std::vector<double> want{30, 0, 0, 0, 60};
  EXPECT_EQ(point_speeds(p, 30), want);
  EXPECT_EQ(point_speeds(std::vector<Vec3>{{1, 2, 3}}, 30), std::vector<double>{0});
}

TEST(ContactFilters, CatmullRomKeepsSamplesAndReproducesLines) {
  std::vector<Vec3> line{{0, 0, 0}, {1, 2, 0}, {2, 4, 0}, {3, 6, 0}};
  auto up = upsample_catmull_rom(line, 3);
  ASSERT_EQ(up.size(), 10u);
  for (size_t i = 0; i < up.size(); ++i) {
    EXPECT_NEAR(up[i].x, i / 3.0, 1e-12) << i;
    EXPECT_NEAR(up[i].y, 2 * i / 3.0, 1e-12) << i;
  }
  std::vector<Vec3> curve{{0, 0, 0}, {1, 1, 0}, {2, 0, 0}, {3, -1, 0}};
  auto c = upsample_catmull_rom(curve, 2);
  for (size_t i = 0; i < curve.size(); ++i) EXPECT_EQ(c[2 * i], curve[i]);
  // Midpoint of the middle segment: (p1 + p2) / 2 + (p1 - p0 + p2 - p3) / 16 = (1.5, 0.625).
  EXPECT_NEAR(c[3].y, 0.5 * 1 + 0.5 * 0 + (1 - 0 + 0 - (-1)) / 8.0 * 0.5, 1e-12);
}

TEST(ContactFilters, MovingWindowsAndQuantile) {
  std::vector<double> v{5, 1, 4, 2, 8};
  EXPECT_EQ(window_minimum(v, 1, 1), (std::vector<double>{1, 1, 1, 2, 2}));
  EXPECT_EQ(window_minimum(v, 2, 0), (std::vector<double>{5, 1, 1, 1, 2}));
  EXPECT_EQ(window_minimum(v, 0, 1), (std::vector<double>{1, 1, 2, 2, 8}));
  auto avg = moving_average(v, 3);
  EXPECT_NEAR(avg[0], 3.0, 1e-12);
  EXPECT_NEAR(avg[2], 7.0 / 3.0, 1e-12);
  EXPECT_EQ(window_median(v, 1), (std::vector<double>{3, 4, 2, 4, 5}));  // ends: median of 2 = mean
  EXPECT_NEAR(quantile(v, 0.5), 4.0, 1e-12);
  EXPECT_NEAR(quantile(v, 0.25), 2.0, 1e-12);
  EXPECT_EQ(quantile({}, 0.5), 0.0);
}

void expect_usage_error(const ContactSettings& s, const std::string& field) {
  try {
    s.validate();
    FAIL() << "no error for " << field;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
  }
}

TEST(ContactSettings, DefaultsAreValidAndBadValuesAreRejectedByName) {
  EXPECT_NO_THROW(ContactSettings{}.validate());
  ContactSettings s;
  s.speed_threshold_mps = -0.1;
  expect_usage_error(s, "speed_threshold_mps");
  s = {};
  s.height_threshold_m = 0;
  expect_usage_error(s, "height_threshold_m");
  s = {};
  s.majority_window_s = 0;
  expect_usage_error(s, "majority_window_s");
  s = {};
  s.smoothing_sigma_s = -1;
  expect_usage_error(s, "smoothing_sigma_s");
  s = {};
  s.contact_threshold = 1.5;
  expect_usage_error(s, "contact_threshold");
  s = {};
  s.release_threshold = 0.9;  // above contact_threshold
  expect_usage_error(s, "release_threshold");
  s = {};
  s.body_speed_fraction = std::nan("");
  expect_usage_error(s, "body_speed_fraction");
}

TEST(ContactSettings, JsonRoundTripsAndRejectsUnknownKeys) {
  ContactSettings s;
  s.speed_threshold_mps = 0.4;
  s.upsample_low_fps = false;
  nlohmann::ordered_json written = contact_settings_to_json(s);
  EXPECT_EQ(written.size(), contact_setting_fields().size());
  EXPECT_EQ(written.begin().key(), "speed_threshold_mps");  // declaration order
  ContactSettings back = contact_settings_from_json(nlohmann::json::parse(written.dump()));
  EXPECT_EQ(back.speed_threshold_mps, 0.4);
  EXPECT_FALSE(back.upsample_low_fps);

  ContactSettings partial = contact_settings_from_json(nlohmann::json{{"height_threshold_m", 0.2}});
  EXPECT_EQ(partial.height_threshold_m, 0.2);
  EXPECT_EQ(partial.speed_threshold_mps, ContactSettings{}.speed_threshold_mps);

  auto message_of = [](const nlohmann::json& bad) {
    try {
      contact_settings_from_json(bad, {}, "my.json");
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::usage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message_of({{"speed_treshold_mps", 1}}),
            "my.json: unknown contact setting 'speed_treshold_mps' (did you mean 'speed_threshold_mps'?)");
  EXPECT_EQ(message_of({{"speed_threshold_mps", "fast"}}), "my.json: 'speed_threshold_mps' must be a number");
  EXPECT_EQ(message_of({{"upsample_low_fps", 1}}), "my.json: 'upsample_low_fps' must be true or false");
  EXPECT_NE(message_of({{"majority_window_s", 0}}).find("my.json: contacts: majority_window_s must be > 0"),
            std::string::npos);
  EXPECT_NE(message_of(nlohmann::json::array()).find("must be a JSON object"), std::string::npos);
}

}  // namespace
}  // namespace footfix
