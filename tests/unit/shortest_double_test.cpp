// write_shortest against std::to_chars, the text they must reproduce
// byte for byte: hand-picked edge cases, random decimals of every length and scale, random bit
// patterns, random computed values (16-17 digits), and every number in the bundled clips.
// write_decimals and write_round_trip (any text, as long as it reads back bit-identical): read
// back with std::from_chars over random decimals, random computed values and the bundled clips.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "core/shortest_double.h"  // internal to core, not installed
#include "footfix/core/read_file.h"
#include "support/paths.h"

namespace footfix {
namespace {

std::string shortest(double v) {
  char buf[k_shortest_double_chars];
  return {buf, write_shortest(buf, v)};
}

std::string reference(double v) {
  char buf[64];
  return {buf, std::to_chars(buf, buf + sizeof buf, v).ptr};
}

std::string decimals(double v, int k) {
  char buf[k_shortest_double_chars];
  return {buf, write_decimals(buf, v, k)};
}

std::string round_trip(double v) {
  char buf[k_shortest_double_chars];
  return {buf, write_round_trip(buf, v)};
}

double read_back(const std::string& text) {
  double v = std::nan("");
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  EXPECT_TRUE(ec == std::errc() && ptr == text.data() + text.size()) << text;
  return v;
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

TEST(ShortestDouble, HandPickedValues) {
  EXPECT_EQ(shortest(0.0), "0");
  EXPECT_EQ(shortest(-0.0), "-0");
  EXPECT_EQ(shortest(-17.3198), "-17.3198");
  EXPECT_EQ(shortest(90.0), "90");
  EXPECT_EQ(shortest(1000.0), "1000");
  EXPECT_EQ(shortest(100000.0), "1e+05");      // shorter than "100000"
  EXPECT_EQ(shortest(0.001), "0.001");         // a tie with "1e-03": fixed
  EXPECT_EQ(shortest(0.0001), "1e-04");
  EXPECT_EQ(shortest(5.1072e-06), "5.1072e-06");
  EXPECT_EQ(shortest(0.008333333), "0.008333333");
  EXPECT_EQ(shortest(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(shortest(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(shortest(1e300), "1e+300");
  EXPECT_EQ(shortest(-std::numeric_limits<double>::denorm_min()), "-5e-324");
  EXPECT_EQ(shortest(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(shortest(std::nan("")), "nan");
  for (double v : {0x1p50, 0x1p50 - 1, 0x1p50 + 2, 0x1p49 + 0.5, 1e15, 9.999999999999999e14, 1e-22, 1.5e-22, 1e-23,
                   123456789012345.6, 0.1234567890123456, std::numeric_limits<double>::min(),
                   std::numeric_limits<double>::max()})
    EXPECT_EQ(shortest(v), reference(v)) << reference(v);
}

TEST(ShortestDouble, RandomDecimalsAndBitPatternsMatchToChars) {
  std::mt19937_64 rng(20261130);
  int mismatches = 0;
  auto check = [&](double v) {
    if (shortest(v) != reference(v) && ++mismatches <= 10)
      ADD_FAILURE() << "to_chars writes " << reference(v) << ", write_shortest " << shortest(v);
  };
  for (int i = 0; i < 200000; ++i) {
    // A decimal of 1 to 17 digits scaled by 10^-25 .. 10^20, read as a file would be.
    const int digits = 1 + static_cast<int>(rng() % 17);
    const int exponent = -25 + static_cast<int>(rng() % 46);
    const std::uint64_t mantissa = rng() % static_cast<std::uint64_t>(std::pow(10.0, digits));
    const std::string text = std::to_string(mantissa) + "e" + std::to_string(exponent);
    double v = 0;
    std::from_chars(text.data(), text.data() + text.size(), v);
    check(v);
    check(-v);
    check(std::nextafter(v, 1e300));
    check(std::bit_cast<double>(rng()));
    // Computed angles and positions: 16 and 17 significant digits.
    check(std::uniform_real_distribution<double>(-360, 360)(rng));
    check(std::uniform_real_distribution<double>(-1, 1)(rng));
  }
  for (int i = -100000; i <= 100000; ++i) {
    check(i);
    check(i * 1000.0);
    check(i / 1e4);
    check(i * 0.1);
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(ShortestDouble, BundledClipNumbersMatchToCharsAndReadBack) {
  int numbers = 0, mismatches = 0;
  for (const char* name : {"cmu_07_01_walk.bvh", "cmu3dsmax_131_03_start_hop_stop_meters.bvh"}) {
    const std::string text = read_file(test::data_clip(name));
    const char* p = text.data();
    const char* end = p + text.size();
    while (p != end) {
      double v = 0;
      auto [next, ec] = std::from_chars(p, end, v);
      if (ec == std::errc() && next != p) {
        ++numbers;
        if (shortest(v) != reference(v) && ++mismatches <= 10)
          ADD_FAILURE() << name << ": to_chars writes " << reference(v) << ", write_shortest " << shortest(v);
        // With the number's own count of fraction digits, write_decimals reads back the same.
        const std::string token(p, next);
        const size_t point = token.find('.');
        const int k = point == std::string::npos ? 0 : static_cast<int>(token.size() - point - 1);
        const std::string written = decimals(v, k);
        if (!same_bits(read_back(written), v) && ++mismatches <= 10)
          ADD_FAILURE() << name << ": " << token << " written with " << k << " decimals as " << written;
        p = next;
      } else {
        ++p;
      }
    }
  }
  EXPECT_GT(numbers, 50000);
  EXPECT_EQ(mismatches, 0);
}

TEST(WriteDecimals, HandPickedValues) {
  EXPECT_EQ(decimals(-17.3198, 4), "-17.3198");
  EXPECT_EQ(decimals(-17.3198, 6), "-17.3198");  // trailing zeros dropped
  EXPECT_EQ(decimals(90.0, 6), "90");
  EXPECT_EQ(decimals(0.0, 3), "0");
  EXPECT_EQ(decimals(-0.0, 3), "-0");
  EXPECT_EQ(decimals(0.000005, 6), "0.000005");  // plain, not "5e-06"
  EXPECT_EQ(decimals(100000.0, 0), "100000");
  EXPECT_EQ(decimals(0.9999996, 6), "1");       // rounds up into the whole part
  EXPECT_EQ(decimals(-2.5, 0), "-3");           // fewer decimals than the value has: rounded
  EXPECT_EQ(decimals(5.1072e-06, 127), "5.1072e-06");  // not a plain decimal: write_shortest
  EXPECT_EQ(decimals(1e14, 1), "1e+14");        // past 15 digits: write_shortest
}

// Every plain decimal of at most 15 digits with at most k fraction digits, written with k (or
// more) decimals, reads back to the same double; so does anything written by the fallback.
TEST(WriteDecimals, PlainDecimalsReadBackBitIdentical) {
  std::mt19937_64 rng(20261201);
  int failures = 0;
  for (int i = 0; i < 300000; ++i) {
    const int fraction = static_cast<int>(rng() % 15);        // 0 .. 14 fraction digits
    const int whole = 1 + static_cast<int>(rng() % (15 - fraction));  // at most 15 digits in all
    std::string text = (rng() & 1) ? "-" : "";
    for (int d = 0; d < whole; ++d) text += static_cast<char>('0' + (d == 0 && whole > 1 ? 1 + rng() % 9 : rng() % 10));
    if (fraction > 0) {
      text += '.';
      for (int d = 0; d < fraction; ++d) text += static_cast<char>('0' + rng() % 10);
    }
    const double v = read_back(text);
    const int k = fraction + static_cast<int>(rng() % 3);
    const std::string written = decimals(v, k);
    if (!same_bits(read_back(written), v) && ++failures <= 10)
      ADD_FAILURE() << text << " written with " << k << " decimals as " << written;
  }
  for (double v : {0x1p50, 1e14 - 1, 99999999999999.9, 3.0e300}) {
    const std::string written = decimals(v, 3);
    EXPECT_TRUE(same_bits(read_back(written), v)) << written;
  }
  EXPECT_EQ(failures, 0);
}

TEST(WriteRoundTrip, ComputedValuesReadBackBitIdentical) {
  std::mt19937_64 rng(20261202);
  int failures = 0, longer = 0;
  auto check = [&](double v) {
    const std::string written = round_trip(v);
    if (!same_bits(read_back(written), v) && ++failures <= 10) ADD_FAILURE() << reference(v) << " written as " << written;
    // Not always the shortest (17 significant digits where a shorter text exists).
    if (written.size() > std::max<size_t>(reference(v).size(), 25) && ++longer <= 10)
      ADD_FAILURE() << reference(v) << " written as " << written;
  };
  for (int i = 0; i < 200000; ++i) {
    check(std::uniform_real_distribution<double>(-360, 360)(rng));
    check(std::uniform_real_distribution<double>(-1, 1)(rng) * std::pow(10.0, static_cast<int>(rng() % 30) - 14));
    const double bits = std::bit_cast<double>(rng());
    if (std::isfinite(bits)) check(bits);
  }
  for (double v : {0.0, -0.0, 1.0, -90.0, 0.1, 1e-10, 9.999999999999999e14, 1e15, 0x1p-40, 5e-324})
    check(v);
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(longer, 0);
}

}  // namespace
}  // namespace footfix
