#include "footfix/core/statistics.h"

#include <algorithm>
#include <cstddef>

namespace footfix {

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  // The two order statistics the interpolation reads (the sorted values' i-th and next), without
  // sorting the rest.
  const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
  const std::size_t i = static_cast<std::size_t>(pos);
  const auto at_i = values.begin() + static_cast<std::ptrdiff_t>(std::min(i, values.size() - 1));
  std::nth_element(values.begin(), at_i, values.end());
  if (i + 1 >= values.size()) return *at_i;
  const double next = *std::min_element(at_i + 1, values.end());
  const double f = pos - static_cast<double>(i);
  return *at_i * (1.0 - f) + next * f;
}

}  // namespace footfix
