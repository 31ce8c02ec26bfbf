#include "banded_spd.h"

#include "../core/prefault.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FOOTFIX_BANDED_AVX512 1
#include <immintrin.h>
#else
#define FOOTFIX_BANDED_AVX512 0
#endif

namespace footfix::detail {

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

#if FOOTFIX_BANDED_AVX512
// Columns of L for the half-bandwidth k_unrolled_bandwidth, k_block at a time, for columns with
// kd full columns before and kd rows below (dense band, AVX-512): one lane per row of a column,
// each row's sum accumulated over the columns k before it in increasing k, as finish_column
// does. Each addition and product rounds as the scalar one (masked lanes are left untouched;
// the file is compiled without floating-point contraction): the same result to the bit.
//
// A column's last terms need the columns just before it, and its pivot's square root and
// reciprocal then hold up the next: a chain through the block. Beside it, the next block's terms
// from the columns before this block (independent work) are accumulated a slice at a time, so
// the processor overlaps both; the next block then takes this block's columns from registers.
constexpr int k_block = 2;
constexpr int k_vectors = (k_unrolled_bandwidth + 8) / 8;  // 8-lane vectors per column

// Lanes [8 v, 8 v + 8) of the first `lanes`.
constexpr unsigned lane_mask(int lanes, int v) { return (1u << std::clamp(lanes - 8 * v, 0, 8)) - 1; }

using Sums = __m512d[k_block][k_vectors];  // a block's sums: column b's rows, 8 per vector

// acc[t] += L(row + t, k) L(row, k) for the rows of column k (`ck`) from offset r = row - k on.
__attribute__((target("avx512f"), always_inline)) inline void add_column(__m512d* acc, const double* ck, int r) {
  const __m512d x = _mm512_set1_pd(ck[r]);
#pragma GCC unroll 4
  for (int v = 0; v < k_vectors; ++v) {
    const auto m = static_cast<__mmask8>(lane_mask(k_unrolled_bandwidth + 1 - r, v));
    if (m == 0) continue;
    const __m512d c = _mm512_maskz_loadu_pd(m, ck + r + 8 * v);
    acc[v] = _mm512_mask_add_pd(acc[v], m, acc[v], _mm512_mul_pd(c, x));
  }
}

// The same for a column held in registers (`col`: its rows from its diagonal on), r < 8.
__attribute__((target("avx512f"), always_inline)) inline void add_finished(__m512d* acc, const __m512d* col, int r) {
  const __m512i shift = _mm512_add_epi64(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi64(r));
  const __m512d x = _mm512_permutex2var_pd(col[0], _mm512_set1_epi64(r), col[0]);  // lane r everywhere
#pragma GCC unroll 4
  for (int v = 0; v < k_vectors; ++v) {
    const auto m = static_cast<__mmask8>(lane_mask(k_unrolled_bandwidth + 1 - r, v));
    if (m == 0) continue;
    const __m512d c = _mm512_permutex2var_pd(col[v], shift, v + 1 < k_vectors ? col[v + 1] : _mm512_setzero_pd());
    acc[v] = _mm512_mask_add_pd(acc[v], m, acc[v], _mm512_mul_pd(c, x));
  }
}

// The terms of the block at column j from columns k = j - m, m from `high` down to `low` (k
// increasing), read from the band.
__attribute__((target("avx512f"), always_inline)) inline void add_earlier(Sums& acc, const double* band, int j,
                                                                          int high, int low) {
  constexpr int kd = k_unrolled_bandwidth;
#pragma GCC unroll 64
  for (int m = kd; m >= 1; --m) {
    if (m > high || m < low) continue;
    const double* ck = band + static_cast<size_t>(j - m) * (kd + 1);
#pragma GCC unroll 8
    for (int b = 0; b < k_block; ++b)
      if (m + b <= kd) add_column(acc[b], ck, m + b);
  }
}

__attribute__((target("avx512f"), always_inline)) inline void zero(Sums& s) {
  for (auto& column : s)
    for (auto& v : column) v = _mm512_setzero_pd();
}

// Columns [j, end) in blocks (end - j a multiple of k_block, every column interior); after each
// block, done(first column after it). False on a pivot that is not positive.
template <typename Done>
__attribute__((target("avx512f"))) bool interior_blocks_avx512(double* band, int j, int end, Done&& done) {
  constexpr int kd = k_unrolled_bandwidth, w = kd + 1;
  // The next block's terms from before this block: m = kd .. k_block + 1, in k_block slices.
  constexpr int slice = (kd - k_block + k_block - 1) / k_block;
  Sums acc, next;
  __m512d col[k_block][k_vectors];
  if (j >= end) return true;
  zero(acc);
  add_earlier(acc, band, j, kd, 1);
  for (; j < end; j += k_block) {
    const bool more = j + k_block < end;
    zero(next);
#pragma GCC unroll 8
    for (int b = 0; b < k_block; ++b) {
#pragma GCC unroll 8
      for (int c = 0; c < b; ++c) add_finished(acc[b], col[c], b - c);
      double* cj = band + static_cast<size_t>(j + b) * w;
      const double d = cj[0] - _mm512_cvtsd_f64(acc[b][0]);
      if (!(d > 0)) return false;
      const double ljj = std::sqrt(d);
      const __m512d pivot = _mm512_set1_pd(ljj), inverse = _mm512_set1_pd(1.0 / ljj);
#pragma GCC unroll 4
      for (int v = 0; v < k_vectors; ++v) {
        const auto m = static_cast<__mmask8>(lane_mask(w, v));
        col[b][v] = _mm512_mul_pd(_mm512_sub_pd(_mm512_maskz_loadu_pd(m, cj + 8 * v), acc[b][v]), inverse);
        if (v == 0) col[b][0] = _mm512_mask_mov_pd(col[b][0], 1, pivot);
        _mm512_mask_storeu_pd(cj + 8 * v, m, col[b][v]);
      }
      if (more) add_earlier(next, band, j + k_block, kd - b * slice, std::max(k_block + 1, kd - (b + 1) * slice + 1));
    }
    done(j + k_block);
    if (!more) break;
    // The next block's terms from this block's columns, k = j .. j + k_block - 1 in order.
#pragma GCC unroll 8
    for (int b = 0; b < k_block; ++b)
#pragma GCC unroll 8
      for (int c = 0; c < k_block; ++c) add_finished(next[b], col[c], k_block + b - c);
    std::memcpy(&acc, &next, sizeof acc);
  }
  return true;
}

bool have_avx512() {
  static const bool have = __builtin_cpu_supports("avx512f");
  return have;
}
#endif

// L y = b, one row at a time as L's columns become known: y_i = (b_i - sum_{k < i} L(i, k) y_k)
// (1 / L(i, i)), each sum accumulated in increasing k as soon as y_k is known, in a ring of the sums
// still open (its size a power of two above kd, indexed by i mod size). `ci` is column i of L.
inline __attribute__((always_inline)) void forward_step(int i, int n, int kd, const double* ci, std::vector<double>& b,
                                                        std::vector<double>& ring) {
  const size_t mask = ring.size() - 1;
  const size_t slot = static_cast<size_t>(i) & mask;
  const double y = (b[i] - ring[slot]) * (1.0 / ci[0]);
  b[i] = y;
  ring[slot] = 0.0;
  const int t_end = std::min(kd, n - 1 - i);
  for (int t = 1; t <= t_end; ++t) ring[(slot + static_cast<size_t>(t)) & mask] += ci[t] * y;
}

// The ring forward_step needs.
std::vector<double> forward_ring(int kd) {
  size_t size = 1;
  while (size < static_cast<size_t>(kd) + 1) size *= 2;
  return std::vector<double>(size, 0.0);
}

// L^T x = y for row i, once x_{i+1} .. x_{i+kd} are known: the terms subtracted from the
// farthest row in, the row just solved last (so a row's chain of dependent operations waits on
// the one before it for one product, one subtraction and the product by the pivot's reciprocal
// only: the reciprocal does not wait on the chain).
inline __attribute__((always_inline)) void backward_step(int i, int n, int kd, const double* ci, std::vector<double>& b) {
  double v = b[i];
  const int t_end = std::min(kd, n - 1 - i);
  for (int t = t_end; t >= 1; --t) v -= ci[t] * b[i + t];
  b[i] = v * (1.0 / ci[0]);
}

// The storage of the last small dense bands this thread dropped (see ~BandedSpd), largest first.
std::array<std::vector<double>, 2>& spare_bands() {
  thread_local std::array<std::vector<double>, 2> spare;
  return spare;
}

}  // namespace

BandedSpd::BandedSpd(int size, int half_bandwidth, const Pattern& pattern) : n_(size), kd_(half_bandwidth) {
  assert(size >= 0 && half_bandwidth >= 0);
  const std::size_t dense = static_cast<size_t>(size) * static_cast<size_t>(half_bandwidth + 1);
  if (!pattern.empty()) index_pattern(pattern);
  if (pattern.empty() || dense <= compact_above_doubles()) {
    take_spare(band_, dense);
    assign_prefaulted(band_, dense, 0.0);
    return;
  }
  period_ = classes_;
  const std::size_t periods = (static_cast<size_t>(n_) + period_ - 1) / period_;
  assign_prefaulted(band_, periods * static_cast<size_t>(class_start_[period_]), 0.0);
  // floor(j * (2^32 / p + 1) / 2^32) = floor(j / p) while j * p < 2^32 (the error term stays
  // under 1 / p).
  period_magic_ = (std::uint64_t{1} << 32) / static_cast<std::uint64_t>(period_) + 1;
  divide_by_multiply_ = static_cast<std::uint64_t>(n_) * static_cast<std::uint64_t>(period_) < (std::uint64_t{1} << 32);
  segment_ = std::max(kd_ + 1, static_cast<int>(std::sqrt(static_cast<double>(n_) * (kd_ + 1))));
}

void BandedSpd::index_pattern(const Pattern& pattern) {
  classes_ = static_cast<int>(pattern.size());
  slot_.assign(pattern.size() * static_cast<size_t>(kd_ + 1), -1);
  class_start_.assign(pattern.size() + 1, 0);
  for (int c = 0; c < classes_; ++c) {
    for (int offset : pattern[c]) {
      if (offset < 0 || offset > kd_)
        throw std::invalid_argument("BandedSpd: pattern offset " + std::to_string(offset) + " outside the band");
      int& slot = slot_[static_cast<size_t>(c) * (kd_ + 1) + offset];
      if (slot >= 0) continue;
      slot = static_cast<int>(offsets_.size()) - class_start_[c];
      offsets_.push_back(offset);
    }
    class_start_[c + 1] = static_cast<int>(offsets_.size());
  }
}

void BandedSpd::take_spare(std::vector<double>& storage, std::size_t doubles) {
  if (doubles > k_reuse_up_to_doubles) return;
  // The smaller spare if it holds `doubles`, else the larger.
  auto& spare = spare_bands();
  storage.swap(spare[1].capacity() >= doubles ? spare[1] : spare[0]);
  if (spare[0].capacity() < spare[1].capacity()) spare[0].swap(spare[1]);
}

void BandedSpd::keep_spare(std::vector<double>& storage) {
  if (storage.capacity() > k_reuse_up_to_doubles) return;
  auto& spare = spare_bands();  // the smaller spare makes room for a larger storage
  if (storage.capacity() > spare[1].capacity()) storage.swap(spare[1]);
  if (spare[0].capacity() < spare[1].capacity()) spare[0].swap(spare[1]);
}

BandedSpd::BandedSpd(const BandedSpd& other)
    : n_(other.n_),
      kd_(other.kd_),
      classes_(other.classes_),
      slot_(other.slot_),
      offsets_(other.offsets_),
      class_start_(other.class_start_),
      period_(other.period_),
      segment_(other.segment_),
      period_magic_(other.period_magic_),
      divide_by_multiply_(other.divide_by_multiply_) {
  if (!compact()) take_spare(band_, other.band_.size());
  band_.assign(other.band_.begin(), other.band_.end());
}

BandedSpd::~BandedSpd() {
  if (compact()) return;
  keep_spare(band_);
  keep_spare(kept_);
}

void BandedSpd::outside_pattern(int i, int j) {
  throw std::logic_error("BandedSpd: entry (" + std::to_string(i) + ", " + std::to_string(j) +
                         ") is outside the declared pattern");
}

void BandedSpd::load_column(int j, double* out) const {
  std::fill(out, out + kd_ + 1, 0.0);
  const int c = j % period_;
  const double* a = band_.data() + static_cast<size_t>(j / period_) * static_cast<size_t>(class_start_[period_]) +
                    class_start_[c];
  for (int s = 0; s < class_start_[c + 1] - class_start_[c]; ++s) out[offsets_[class_start_[c] + s]] = a[s];
}

void BandedSpd::clear() { std::fill(band_.begin(), band_.end(), 0.0); }

void BandedSpd::keep_pattern_entries() {
  assert(classes_ > 0);
  if (compact()) {
    kept_.assign(band_.begin(), band_.end());
    return;
  }
  const std::size_t per_period = static_cast<size_t>(class_start_[classes_]);
  take_spare(kept_, (static_cast<size_t>(n_) + classes_ - 1) / classes_ * per_period);
  kept_.clear();
  for (int j = 0; j < n_; ++j) {
    const int c = j % classes_;
    const double* column = band_.data() + index(j, j);
    for (int s = class_start_[c]; s < class_start_[c + 1]; ++s) kept_.push_back(column[offsets_[s]]);
  }
}

void BandedSpd::restore_pattern_entries(int first, int end) {
  assert(classes_ > 0 && 0 <= first && first <= end && end <= n_ && first % classes_ == 0);
  if (compact()) {
    assert(first == 0 && end == n_);
    std::copy(kept_.begin(), kept_.end(), band_.begin());
    return;
  }
  const double* kept = kept_.data() + static_cast<size_t>(first / classes_) * static_cast<size_t>(class_start_[classes_]);
  for (int j = first, c = 0; j < end; ++j, c = c + 1 == classes_ ? 0 : c + 1) {
    double* column = band_.data() + index(j, j);
    std::fill(column, column + kd_ + 1, 0.0);
    for (int s = class_start_[c]; s < class_start_[c + 1]; ++s) column[offsets_[s]] = *kept++;
  }
}

// Left-looking Cholesky. Column j of L: L(i, j) = (A(i, j) - sum_k L(i, k) L(j, k)) (1 / L(j, j))
// for i = j .. j + kd, each sum taken over k in increasing order from the first k in the band.
// Every division here (the factor's and both substitutions') is a product by the pivot's
// reciprocal, the same in every path (one division a column instead of one an entry; within an
// ulp of dividing).
// The sums of all rows i are accumulated together, one k at a time (a contiguous run of column
// k times the scalar L(j, k)): the rows are independent, so this vectorises, and each row's sum
// sees the same terms in the same order as a row-by-row dot product (same rounding).
bool BandedSpd::finish_column(double* cols, int jj, int j, std::vector<double>& sum) const {
  const size_t w = static_cast<size_t>(kd_) + 1;
  const int rows = std::min(kd_, n_ - 1 - j) + 1;  // i = j + t, t < rows
  double* s = sum.data();
  if (kd_ == k_unrolled_bandwidth && j >= kd_ && rows == kd_ + 1) {
    interior_sums<k_unrolled_bandwidth>(cols, jj, s);
  } else {
    std::fill(s, s + rows, 0.0);
    for (int k = std::max(0, j - kd_); k < j; ++k) {
      const double* ck = cols + static_cast<size_t>(jj - (j - k)) * w + (j - k);  // ck[t] = L(j + t, k)
      const int t_end = std::min(rows, k + kd_ - j + 1);  // L(j + t, k) is in the band
      add_scaled(s, ck, ck[0], t_end);
    }
  }
  double* cj = cols + static_cast<size_t>(jj) * w;
  const double d = cj[0] - s[0];
  if (!(d > 0)) return false;
  const double ljj = std::sqrt(d);
  cj[0] = ljj;
  const double inverse = 1.0 / ljj;
  const Pair inverse_pair = {inverse, inverse};
  int t = 1;
  for (; t + 1 < rows; t += 2) store(cj + t, (load(cj + t) - load(s + t)) * inverse_pair);
  if (t < rows) cj[t] = (cj[t] - s[t]) * inverse;
  return true;
}

bool BandedSpd::factor() { return factor_dense(nullptr); }

// With `b`, each column's row of L y = b is substituted as soon as the column is known: the
// substitution's chain of dependent operations overlaps the next columns' independent ones.
bool BandedSpd::factor_dense(std::vector<double>* b) {
  assert(!compact());
  std::vector<double> sum(static_cast<size_t>(kd_) + 2), ring = b ? forward_ring(kd_) : std::vector<double>{};
  int j = 0, solved = 0;  // columns factored, rows substituted
  auto forward_to = [&](int end) {
    if (b)
      for (; solved < end; ++solved) forward_step(solved, n_, kd_, column(solved), *b, ring);
  };
  auto scalar_to = [&](int end) {
    for (; j < end; ++j) {
      if (!finish_column(band_.data(), j, j, sum)) return false;
      forward_to(j + 1);
    }
    return true;
  };
#if FOOTFIX_BANDED_AVX512
  if (kd_ == k_unrolled_bandwidth && simd_.load() && have_avx512()) {
    if (!scalar_to(std::min(kd_, n_))) return false;
    const int end = j + std::max(0, (n_ - kd_ - j) / k_block * k_block);  // columns with kd rows below
    if (!interior_blocks_avx512(band_.data(), j, end, [&](int next) { forward_to(next - k_block); })) return false;
    j = end;
  }
#endif
  if (!scalar_to(n_)) return false;
  forward_to(n_);
  return true;
}

void BandedSpd::solve(std::vector<double>& b) const {
  assert(!compact() && static_cast<int>(b.size()) == n_);
  std::vector<double> ring = forward_ring(kd_);
  for (int i = 0; i < n_; ++i) forward_step(i, n_, kd_, column(i), b, ring);
  backward(b);
}

void BandedSpd::backward(std::vector<double>& b) const {
  int i = n_ - 1;
  for (; i >= 0 && i + kd_ > n_ - 1; --i) backward_step(i, n_, kd_, column(i), b);
  if (kd_ == k_unrolled_bandwidth && i >= 0) {
    // Full rows: unrolled, the row just solved carried in a register (not stored and loaded
    // again on the chain from one row to the next). Same operations in the same order.
    double next = b[static_cast<size_t>(i) + 1];
    for (; i >= 0; --i) {
      const double* ci = column(i);
      const double* x = b.data() + i;
      double v = b[static_cast<size_t>(i)];
#pragma GCC unroll 32
      for (int t = k_unrolled_bandwidth; t >= 2; --t) v -= ci[t] * x[t];
      v -= ci[1] * next;
      next = v * (1.0 / ci[0]);
      b[static_cast<size_t>(i)] = next;
    }
  }
  for (; i >= 0; --i) backward_step(i, n_, kd_, column(i), b);
}

bool BandedSpd::factor_solve(std::vector<double>& b) {
  assert(static_cast<int>(b.size()) == n_);
  if (compact()) return factor_solve_compact(b);
  if (!factor_dense(&b)) return false;
  backward(b);
  return true;
}

// L is computed a segment of columns at a time in a window that also holds the kd columns
// before the segment (saved as the segment's checkpoint). Forward: every column as it comes,
// with the forward substitution. Backward: from the last segment to the first, its columns
// recomputed from its checkpoint, then its rows substituted in reverse.
bool BandedSpd::factor_solve_compact(std::vector<double>& b) const {
  const size_t w = static_cast<size_t>(kd_) + 1;
  const int segments = (n_ + segment_ - 1) / segment_;
  const size_t head = static_cast<size_t>(kd_) * w;  // the kd columns before a segment
  std::vector<double> window(head + static_cast<size_t>(segment_) * w, 0.0);
  std::vector<double> checkpoints(static_cast<size_t>(segments) * head);
  std::vector<double> sum(w + 1), ring = forward_ring(kd_);
  auto compute_segment = [&](int s, bool forward) {
    const int first = s * segment_, last = std::min(n_, first + segment_);
    for (int j = first; j < last; ++j) {
      const int jj = kd_ + (j - first);
      double* cj = window.data() + static_cast<size_t>(jj) * w;
      load_column(j, cj);
      if (!finish_column(window.data(), jj, j, sum)) return false;
      if (forward) forward_step(j, n_, kd_, cj, b, ring);
    }
    return true;
  };
  for (int s = 0; s < segments; ++s) {
    if (s > 0) std::memmove(window.data(), window.data() + static_cast<size_t>(segment_) * w, head * sizeof(double));
    std::copy(window.begin(), window.begin() + static_cast<std::ptrdiff_t>(head), checkpoints.begin() + static_cast<std::ptrdiff_t>(s * head));
    if (!compute_segment(s, true)) return false;
  }
  for (int s = segments - 1; s >= 0; --s) {
    std::copy(checkpoints.begin() + static_cast<std::ptrdiff_t>(s * head),
              checkpoints.begin() + static_cast<std::ptrdiff_t>((s + 1) * head), window.begin());
    if (!compute_segment(s, false)) return false;
    const int first = s * segment_, last = std::min(n_, first + segment_);
    for (int i = last - 1; i >= first; --i)
      backward_step(i, n_, kd_, window.data() + static_cast<size_t>(kd_ + (i - first)) * w, b);
  }
  return true;
}

}  // namespace footfix::detail
