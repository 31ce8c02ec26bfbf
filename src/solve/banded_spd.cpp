#include "banded_spd.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>

namespace footfix::detail {

BandedSpd::BandedSpd(int size, int half_bandwidth)
    : n_(size),
      kd_(half_bandwidth),
      band_(static_cast<size_t>(size) * static_cast<size_t>(half_bandwidth + 1), 0.0) {
  assert(size >= 0 && half_bandwidth >= 0);
}

void BandedSpd::clear() { std::fill(band_.begin(), band_.end(), 0.0); }

namespace {

// Two doubles operated on lane by lane (SSE2 on x86-64): each lane rounds as the scalar code
// would, so results do not depend on the vector width.
typedef double Pair __attribute__((vector_size(16)));
Pair load(const double* p) {
  Pair v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
void store(double* p, Pair v) { std::memcpy(p, &v, sizeof v); }

// s[t] += c[t] * x for t < count.
void add_scaled(double* s, const double* c, double x, int count) {
  const Pair xx = {x, x};
  int t = 0;
  for (; t + 1 < count; t += 2) store(s + t, load(s + t) + load(c + t) * xx);
  if (t < count) s[t] += c[t] * x;
}

// The sums of column j (add_scaled over k = j - kd .. j - 1) for a half-bandwidth known at compile
// time and a column j with kd full columns before it and kd rows below it: unrolled, with the
// sums held in registers. Same terms in the same order as the general loop.
template <int KD>
void interior_sums(const double* band, int j, double* s) {
  constexpr int pairs = (KD + 2) / 2;
  Pair acc[pairs] = {};
#pragma GCC unroll 64
  for (int m = KD; m >= 1; --m) {  // k = j - m, increasing
    const double* ck = band + static_cast<size_t>(j - m) * (KD + 1) + m;
    const double x = ck[0];
    const Pair xx = {x, x};
    const int lanes = KD + 1 - m;
#pragma GCC unroll 64
    for (int p = 0; p < pairs; ++p) {
      if (2 * p + 1 < lanes)
        acc[p] += load(ck + 2 * p) * xx;
      else if (2 * p < lanes)
        acc[p][0] += ck[2 * p] * x;
    }
  }
  for (int p = 0; p < pairs; ++p) store(s + 2 * p, acc[p]);
}

// The half-bandwidth of the fast offline solve (second differences over 9 unknowns per frame).
constexpr int k_unrolled_bandwidth = 18;

}  // namespace

// Left-looking Cholesky. Column j of L: L(i, j) = (A(i, j) - sum_k L(i, k) L(j, k)) / L(j, j)
// for i = j .. j + kd, each sum taken over k in increasing order from the first k in the band.
// The sums of all rows i are accumulated together, one k at a time (a contiguous run of column
// k times the scalar L(j, k)): the rows are independent, so this vectorises, and each row's sum
// sees the same terms in the same order as a row-by-row dot product (same rounding).
bool BandedSpd::factor() {
  std::vector<double> sum(static_cast<size_t>(kd_) + 2);
  for (int j = 0; j < n_; ++j) {
    const int rows = std::min(kd_, n_ - 1 - j) + 1;  // i = j + t, t < rows
    double* s = sum.data();
    if (kd_ == k_unrolled_bandwidth && j >= kd_ && rows == kd_ + 1) {
      interior_sums<k_unrolled_bandwidth>(band_.data(), j, s);
    } else {
      std::fill(sum.begin(), sum.begin() + rows, 0.0);
      for (int k = std::max(0, j - kd_); k < j; ++k) {
        const double* ck = column(k) + (j - k);  // ck[t] = L(j + t, k)
        const int t_end = std::min(rows, k + kd_ - j + 1);  // L(j + t, k) is in the band
        add_scaled(s, ck, ck[0], t_end);
      }
    }
    double* cj = column(j);
    const double d = cj[0] - s[0];
    if (!(d > 0)) return false;
    const double ljj = std::sqrt(d);
    cj[0] = ljj;
    const Pair pivot = {ljj, ljj};
    int t = 1;
    for (; t + 1 < rows; t += 2) store(cj + t, (load(cj + t) - load(s + t)) / pivot);
    if (t < rows) cj[t] = (cj[t] - s[t]) / ljj;
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
