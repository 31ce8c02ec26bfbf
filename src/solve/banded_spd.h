// A symmetric positive definite matrix with a small half-bandwidth, stored as its lower band,
// with a Cholesky factorisation and solve. Memory and time are linear in the size: n * (bandwidth
// + 1) doubles, O(n * bandwidth^2) to factor. Internal to src/solve.
//
// Large systems whose entries follow a known sparsity pattern inside the band are kept compact:
// only the pattern's entries of A are stored, and factor_solve() computes the factor L twice
// (once forward, once backward a segment at a time from checkpoints) instead of keeping it, so
// memory is the pattern's size plus O(sqrt(n)) columns. Same arithmetic, same result to the bit.
#pragma once

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace footfix::detail {

class BandedSpd {
 public:
  /// The entries of A's lower band that can be nonzero, repeating every pattern.size() columns:
  /// pattern[j % period] lists the offsets i - j (0 .. half_bandwidth) of column j's entries.
  /// Empty: the whole band.
  using Pattern = std::vector<std::vector<int>>;

  /// Bands of more doubles than this are kept compact when a pattern is given.
  static std::size_t compact_above_doubles() { return compact_above_.load(); }
  /// For tests: changes that threshold (process-wide; returns the previous value).
  static std::size_t set_compact_above_doubles(std::size_t doubles) { return compact_above_.exchange(doubles); }

  /// For tests: whether factor() may use the processor's vector extensions where it has them
  /// (same result to the bit either way; returns the previous value).
  static bool set_simd(bool on) { return simd_.exchange(on); }

  /// Throws std::invalid_argument for a pattern with an offset outside [0, half_bandwidth].
  BandedSpd(int size, int half_bandwidth, const Pattern& pattern = {});
  /// Small dense bands' storage (and keep_pattern_entries' copy) is kept for the thread's next
  /// BandedSpds (no fresh pages to fault in for each solve of a clip).
  ~BandedSpd();
  /// A copy of the matrix (its storage from the thread's kept ones, as the constructor's; not
  /// keep_pattern_entries' copy).
  BandedSpd(const BandedSpd& other);
  BandedSpd& operator=(const BandedSpd&) = delete;
  int size() const { return n_; }
  int half_bandwidth() const { return kd_; }
  bool compact() const { return period_ > 0; }
  /// Sets every entry to 0 (keeps the allocation).
  void clear();
  /// The doubles that hold the matrix (the band, or the pattern's entries when compact).
  std::size_t stored_doubles() const { return band_.size(); }
  /// Keeps a copy of the pattern's entries (given to the constructor) as they are now, for
  /// restore_pattern_entries(): where a system is rebuilt from fixed terms each time, a third
  /// of the fast solve's band is kept, not the band. Every other entry of the band must be 0.
  void keep_pattern_entries();
  /// Puts back the kept entries of columns [first, end) (multiples of the pattern's period, or
  /// end = size()), and 0 in every other entry of those columns (a factor's fill-in). A compact
  /// band (its entries not stored by column) puts back all of them: only [0, size()) then.
  void restore_pattern_entries(int first, int end);
  /// A(i, j) for |i - j| <= half_bandwidth, lower part (i >= j) only; after factor() (never in
  /// compact mode), L(i, j).
  double& at(int i, int j) { return band_[compact() ? compact_index(i, j) : index(i, j)]; }
  /// Column j of a dense band: [t] = A(j + t, j) for t = 0 .. half_bandwidth, and column j + c
  /// starts (half_bandwidth + 1) c entries on (for adding to known entries without add()'s
  /// index arithmetic).
  double* dense_column(int j) {
    assert(!compact() && j >= 0 && j < n_);
    return band_.data() + index(j, j);
  }
  /// Adds v to A(i, j) and, for i != j, to A(j, i) (one stored entry). |i - j| <= bandwidth; in
  /// compact mode the entry must be in the pattern (std::logic_error otherwise).
  void add(int i, int j, double v) {
    assert(i - j <= kd_ && j - i <= kd_ && "entry outside the band");
    if (i < j) {
      const int k = i;
      i = j;
      j = k;
    }
    band_[compact() ? compact_index(i, j) : index(i, j)] += v;
  }
  /// Replaces the matrix by its Cholesky factor L (A = L L^T). Returns false, leaving the
  /// content undefined, when a pivot is not positive (matrix not positive definite). Not in
  /// compact mode.
  bool factor();
  /// Solves L L^T x = b in place (after factor()).
  void solve(std::vector<double>& b) const;
  /// Solves A x = b in place (b becomes x): factor() and solve() in either mode. False when A is
  /// not positive definite (b is then undefined). In compact mode A is kept.
  bool factor_solve(std::vector<double>& b);

 private:
  // Column j holds A(j, j) .. A(j + kd, j) in increasing row order (entries past the last row
  // stay 0), so the factorisation updates the band rows below a pivot as one contiguous run.
  std::size_t index(int i, int j) const {
    return static_cast<std::size_t>(j) * static_cast<std::size_t>(kd_ + 1) + static_cast<std::size_t>(i - j);
  }
  std::size_t compact_index(int i, int j) const {
    // j / period_ by a multiply (exact for the sizes where divide_by_multiply_ is set).
    const std::size_t group = divide_by_multiply_
                                  ? static_cast<std::size_t>((static_cast<std::uint64_t>(j) * period_magic_) >> 32)
                                  : static_cast<std::size_t>(j / period_);
    const int c = j - static_cast<int>(group) * period_;
    const int slot = i - j >= 0 && i - j <= kd_ ? slot_[static_cast<std::size_t>(c) * (kd_ + 1) + (i - j)] : -1;
    if (slot < 0) outside_pattern(i, j);
    return group * static_cast<std::size_t>(class_start_[period_]) + static_cast<std::size_t>(class_start_[c] + slot);
  }
  [[noreturn]] static void outside_pattern(int i, int j);
  /// Gives `storage` a kept storage for `doubles` (see ~BandedSpd), if that is small.
  static void take_spare(std::vector<double>& storage, std::size_t doubles);
  /// Keeps `storage` for the thread's next BandedSpds, if it is small (the largest kept).
  static void keep_spare(std::vector<double>& storage);
  /// slot_, offsets_ and class_start_ of `pattern`; std::invalid_argument for an offset outside
  /// [0, half_bandwidth].
  void index_pattern(const Pattern& pattern);
  const double* column(int j) const { return band_.data() + index(j, j); }  // column(j)[t] = A(j + t, j)
  /// Column `j` of L into cols + jj * (kd + 1), from A's column already there and the kd
  /// columns of L before it (cols + (jj - m) * (kd + 1)); false on a pivot that is not positive.
  bool finish_column(double* cols, int jj, int j, std::vector<double>& sum) const;
  /// factor(); with `b`, also L y = b (y into b) along the way.
  bool factor_dense(std::vector<double>* b);
  /// L^T x = y in place (after the factor and the forward substitution).
  void backward(std::vector<double>& b) const;
  /// A's column j, dense (kd + 1 entries), into `out` (compact mode).
  void load_column(int j, double* out) const;
  bool factor_solve_compact(std::vector<double>& b) const;

  int n_, kd_;
  std::vector<double> band_;  ///< dense: the band by columns; compact: the pattern's entries
  // The pattern, if one was given (classes_ > 0).
  int classes_ = 0;               ///< the pattern's period
  std::vector<int> slot_;         ///< [class * (kd + 1) + offset]: entry within the column, or -1
  std::vector<int> offsets_;      ///< [class_start_[c] + s]: the offset of entry s of class c
  std::vector<int> class_start_;  ///< classes + 1 prefix sums of the pattern's sizes
  std::vector<double> kept_;      ///< keep_pattern_entries' copy, column by column
  // Compact mode: period_ > 0 (= classes_).
  int period_ = 0;
  int segment_ = 0;               ///< columns recomputed together on the way back
  std::uint64_t period_magic_ = 0;  ///< 2^32 / period + 1
  bool divide_by_multiply_ = false;

  // 128 MiB of band: about 98,000 frames of the fast solve (13 minutes at 120 Hz).
  static inline std::atomic<std::size_t> compact_above_{std::size_t{1} << 24};
  static inline std::atomic<bool> simd_{true};
  // Dense bands (and kept entries) up to this many doubles (8 MiB: clips of ~6,000 frames) hand
  // their storage to the thread's next BandedSpds (two kept).
  static constexpr std::size_t k_reuse_up_to_doubles = std::size_t{1} << 20;
};

}  // namespace footfix::detail
