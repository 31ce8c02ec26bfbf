#include "footfix/core/statistics.h"

#include <algorithm>
#include <cstddef>

namespace footfix {

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
  const std::size_t i = static_cast<std::size_t>(pos);
  if (i + 1 >= values.size()) return values.back();
  const double f = pos - static_cast<double>(i);
  return values[i] * (1.0 - f) + values[i + 1] * f;
}

}  // namespace footfix
