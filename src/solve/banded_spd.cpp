#include "banded_spd.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace footfix::detail {

BandedSpd::BandedSpd(int size, int half_bandwidth)
    : n_(size),
      kd_(half_bandwidth),
      band_(static_cast<size_t>(size) * static_cast<size_t>(half_bandwidth + 1), 0.0) {
  assert(size >= 0 && half_bandwidth >= 0);
}

void BandedSpd::clear() { std::fill(band_.begin(), band_.end(), 0.0); }

// Left-looking Cholesky. Column j of L: L(i, j) = (A(i, j) - sum_k L(i, k) L(j, k)) / L(j, j)
// for i = j .. j + kd, each sum taken over k in increasing order from the first k in the band.
// The sums of all rows i are accumulated together, one k at a time (a contiguous run of column
// k times the scalar L(j, k)): the rows are independent, so this vectorises, and each row's sum
// sees the same terms in the same order as a row-by-row dot product (same rounding).
bool BandedSpd::factor() {
  std::vector<double> sum(static_cast<size_t>(kd_) + 1);
  for (int j = 0; j < n_; ++j) {
    const int rows = std::min(kd_, n_ - 1 - j) + 1;  // i = j + t, t < rows
    std::fill(sum.begin(), sum.begin() + rows, 0.0);
    double* s = sum.data();
    for (int k = std::max(0, j - kd_); k < j; ++k) {
      const double* ck = column(k) + (j - k);  // ck[t] = L(j + t, k)
      const double ljk = ck[0];
      const int t_end = std::min(rows, k + kd_ - j + 1);  // L(j + t, k) is in the band
      for (int t = 0; t < t_end; ++t) s[t] += ck[t] * ljk;
    }
    double* cj = column(j);
    const double d = cj[0] - s[0];
    if (!(d > 0)) return false;
    const double ljj = std::sqrt(d);
    cj[0] = ljj;
    for (int t = 1; t < rows; ++t) cj[t] = (cj[t] - s[t]) / ljj;
  }
  return true;
}

void BandedSpd::solve(std::vector<double>& b) const {
  assert(static_cast<int>(b.size()) == n_);
  // L y = b: y_i = (b_i - sum_{k < i} L(i, k) y_k) / L(i, i), each sum accumulated in increasing
  // k as soon as y_k is known (a ring of the kd sums still open).
  const int ring = kd_ + 1;
  std::vector<double> sum(static_cast<size_t>(ring), 0.0);
  for (int i = 0; i < n_; ++i) {
    const int slot = i % ring;
    const double* ci = column(i);
    const double y = (b[i] - sum[slot]) / ci[0];
    b[i] = y;
    sum[slot] = 0.0;
    const int t_end = std::min(kd_, n_ - 1 - i);
    for (int t = 1, r = slot + 1; t <= t_end; ++t, ++r) sum[r < ring ? r : r - ring] += ci[t] * y;
  }
  for (int i = n_ - 1; i >= 0; --i) {  // L^T x = y
    const double* ci = column(i);
    double v = b[i];
    const int t_end = std::min(kd_, n_ - 1 - i);
    for (int t = 1; t <= t_end; ++t) v -= ci[t] * b[i + t];
    b[i] = v / ci[0];
  }
}

}  // namespace footfix::detail
