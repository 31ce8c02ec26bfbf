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

namespace {
double dot_range(const double* a, const double* b, int begin, int end) {
  double s = 0;
  for (int k = begin; k < end; ++k) s += a[k] * b[k];
  return s;
}
}  // namespace

bool BandedSpd::factor() {
  for (int j = 0; j < n_; ++j) {
    const int k0 = std::max(0, j - kd_);
    const double* rj = row(j);
    const double d = get(j, j) - dot_range(rj, rj, k0, j);
    if (!(d > 0)) return false;
    const double ljj = std::sqrt(d);
    at(j, j) = ljj;
    const int i_end = std::min(n_ - 1, j + kd_);
    for (int i = j + 1; i <= i_end; ++i) {
      const double* ri = row(i);
      at(i, j) = (get(i, j) - dot_range(ri, rj, std::max(k0, i - kd_), j)) / ljj;
    }
  }
  return true;
}

void BandedSpd::solve(std::vector<double>& b) const {
  assert(static_cast<int>(b.size()) == n_);
  for (int i = 0; i < n_; ++i) {  // L y = b
    const int k0 = std::max(0, i - kd_);
    b[i] = (b[i] - dot_range(row(i), b.data(), k0, i)) / get(i, i);
  }
  for (int i = n_ - 1; i >= 0; --i) {  // L^T x = y
    double v = b[i];
    const int k_end = std::min(n_ - 1, i + kd_);
    for (int k = i + 1; k <= k_end; ++k) v -= get(k, i) * b[k];
    b[i] = v / get(i, i);
  }
}

}  // namespace footfix::detail
