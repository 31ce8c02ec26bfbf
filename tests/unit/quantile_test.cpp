// quantile interpolates between the two sorted values around q (n - 1), whatever the order the
// values come in: checked against a sort done here, on unsorted values with repeats.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "footfix/core/statistics.h"

namespace footfix {
namespace {

TEST(Quantile, InterpolatesTheSortedValuesAroundItsPosition) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> pick(-50, 50);
  for (int n : {1, 2, 3, 10, 101}) {
    std::vector<double> values;
    for (int i = 0; i < n; ++i) values.push_back(0.25 * pick(rng));  // repeats likely
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    for (double q : {-0.5, 0.0, 0.05, 0.3, 0.5, 0.77, 0.95, 1.0, 2.0}) {
      const double pos = std::clamp(q, 0.0, 1.0) * (n - 1);
      const int i = static_cast<int>(pos);
      const double f = pos - i;
      const double expected = i + 1 < n ? sorted[i] * (1 - f) + sorted[i + 1] * f : sorted.back();
      EXPECT_EQ(quantile(values, q), expected) << "n " << n << " q " << q;
    }
  }
  // Between two values: 0.25 of the way from 2 to 10.
  EXPECT_DOUBLE_EQ(quantile({10, 2, 30}, 0.125), 4.0);
}

}  // namespace
}  // namespace footfix
