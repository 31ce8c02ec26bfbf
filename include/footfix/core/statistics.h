// Order statistics shared by every module, so that a percentile ("p95", the 5th-percentile
// floor, a median) means the same thing everywhere.
#pragma once

#include <vector>

namespace footfix {

/// The q-quantile (q in 0..1, clamped) of the values by linear interpolation between the two
/// nearest order statistics: sorted v, position q * (n - 1). 0 for an empty input. q = 0.5 is
/// the median (the mean of the two middle values for an even count).
double quantile(std::vector<double> values, double q);

}  // namespace footfix
