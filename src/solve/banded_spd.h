// A symmetric positive definite matrix with a small half-bandwidth, stored as its lower band,
// with an in-place Cholesky factorisation and solve. Memory and time are linear in the size:
// n * (bandwidth + 1) doubles, O(n * bandwidth^2) to factor. Internal to src/solve.
#pragma once

#include <cassert>
#include <cstddef>
#include <vector>

namespace footfix::detail {

class BandedSpd {
 public:
  BandedSpd(int size, int half_bandwidth);
  int size() const { return n_; }
  int half_bandwidth() const { return kd_; }
  /// Sets every entry to 0 (keeps the allocation).
  void clear();
  /// A(i, j) for |i - j| <= half_bandwidth, lower part (i >= j) only.
  double& at(int i, int j) { return band_[index(i, j)]; }
  /// Adds v to A(i, j) and, for i != j, to A(j, i) (one stored entry). |i - j| <= bandwidth.
  void add(int i, int j, double v) {
    assert(i - j <= kd_ && j - i <= kd_ && "entry outside the band");
    band_[i >= j ? index(i, j) : index(j, i)] += v;
  }
  /// Replaces the matrix by its Cholesky factor L (A = L L^T). Returns false, leaving the
  /// content undefined, when a pivot is not positive (matrix not positive definite).
  bool factor();
  /// Solves L L^T x = b in place (after factor()).
  void solve(std::vector<double>& b) const;

 private:
  // Column j holds A(j, j) .. A(j + kd, j) in increasing row order (entries past the last row
  // stay 0), so the factorisation updates the band rows below a pivot as one contiguous run.
  std::size_t index(int i, int j) const {
    return static_cast<std::size_t>(j) * static_cast<std::size_t>(kd_ + 1) + static_cast<std::size_t>(i - j);
  }
  const double* column(int j) const { return band_.data() + index(j, j); }  // column(j)[t] = A(j + t, j)
  double* column(int j) { return band_.data() + index(j, j); }
  int n_, kd_;
  std::vector<double> band_;
};

}  // namespace footfix::detail
