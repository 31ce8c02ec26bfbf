// The banded Cholesky of the fast offline solve against a plain dense Cholesky (written here,
// independently) on random symmetric positive definite band matrices, and its refusal of a
// matrix that is not positive definite; and its rounding: the same as row-by-row dot products
// in increasing column order, whatever the half-bandwidth (its unrolled and general paths agree
// bit for bit).
#include "../../src/solve/banded_spd.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace footfix {
namespace {

using Dense = std::vector<std::vector<double>>;

/// Random SPD matrix with half-bandwidth kd: B B^T + shift I where B is lower-banded with
/// bandwidth kd / 2 (so the product's band is at most kd), entries uniform in [-1, 1].
Dense random_spd_band(int n, int kd, double shift, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  const int half = kd / 2;
  Dense b(n, std::vector<double>(n, 0.0)), a(n, std::vector<double>(n, 0.0));
  for (int i = 0; i < n; ++i)
    for (int j = std::max(0, i - half); j <= i; ++j) b[i][j] = u(rng);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += b[i][k] * b[j][k];
      a[i][j] = s + (i == j ? shift : 0.0);
    }
  return a;
}

/// Dense Cholesky A = L L^T; false when a pivot is not positive.
bool dense_cholesky(Dense a, Dense& l) {
  const int n = static_cast<int>(a.size());
  l.assign(n, std::vector<double>(n, 0.0));
  for (int j = 0; j < n; ++j) {
    double d = a[j][j];
    for (int k = 0; k < j; ++k) d -= l[j][k] * l[j][k];
    if (!(d > 0)) return false;
    l[j][j] = std::sqrt(d);
    for (int i = j + 1; i < n; ++i) {
      double s = a[i][j];
      for (int k = 0; k < j; ++k) s -= l[i][k] * l[j][k];
      l[i][j] = s / l[j][j];
    }
  }
  return true;
}

std::vector<double> dense_solve(const Dense& l, std::vector<double> b) {
  const int n = static_cast<int>(l.size());
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < i; ++k) b[i] -= l[i][k] * b[k];
    b[i] /= l[i][i];
  }
  for (int i = n - 1; i >= 0; --i) {
    for (int k = i + 1; k < n; ++k) b[i] -= l[k][i] * b[k];
    b[i] /= l[i][i];
  }
  return b;
}

detail::BandedSpd banded_from(const Dense& a, int kd) {
  const int n = static_cast<int>(a.size());
  detail::BandedSpd m(n, kd);
  for (int i = 0; i < n; ++i)
    for (int j = std::max(0, i - kd); j <= i; ++j) m.add(i, j, a[i][j]);
  return m;
}

TEST(BandedSpd, MatchesDenseCholeskyOnRandomSpdBandMatrices) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int kd : {0, 1, 3, 17, 18}) {
    for (int n : {1, 2, 5, 40, 90}) {
      SCOPED_TRACE(testing::Message() << "n " << n << " kd " << kd);
      const Dense a = random_spd_band(n, kd, 0.1, rng);
      Dense l;
      ASSERT_TRUE(dense_cholesky(a, l));
      detail::BandedSpd m = banded_from(a, kd);
      ASSERT_TRUE(m.factor());
      for (int i = 0; i < n; ++i)
        for (int j = std::max(0, i - kd); j <= i; ++j) EXPECT_NEAR(m.at(i, j), l[i][j], 1e-9 * (1 + std::abs(l[i][j])));
      std::vector<double> b(n);
      for (double& v : b) v = u(rng);
      std::vector<double> x = b;
      m.solve(x);
      const std::vector<double> expected = dense_solve(l, b);
      for (int i = 0; i < n; ++i) EXPECT_NEAR(x[i], expected[i], 1e-7 * (1 + std::abs(expected[i])));
      // And it is a solution: A x = b.
      for (int i = 0; i < n; ++i) {
        double ax = 0;
        for (int j = 0; j < n; ++j) ax += a[i][j] * x[j];
        EXPECT_NEAR(ax, b[i], 1e-8);
      }
    }
  }
}

/// Row-by-row banded Cholesky and solve: each entry's sum over k in increasing order, started
/// at 0 and subtracted once; the backward substitution subtracts its terms one by one, from the
/// farthest row in; a division by a pivot is a product by its reciprocal (the orders and
/// operations the band code keeps).
void row_dot_cholesky_solve(const Dense& a, int kd, Dense& l, std::vector<double>& b) {
  const int n = static_cast<int>(a.size());
  l.assign(n, std::vector<double>(n, 0.0));
  for (int j = 0; j < n; ++j) {
    double d = 0;
    for (int k = std::max(0, j - kd); k < j; ++k) d += l[j][k] * l[j][k];
    l[j][j] = std::sqrt(a[j][j] - d);
    for (int i = j + 1; i <= std::min(n - 1, j + kd); ++i) {
      double s = 0;
      for (int k = std::max(0, i - kd); k < j; ++k) s += l[i][k] * l[j][k];
      l[i][j] = (a[i][j] - s) * (1.0 / l[j][j]);
    }
  }
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int k = std::max(0, i - kd); k < i; ++k) s += l[i][k] * b[k];
    b[i] = (b[i] - s) * (1.0 / l[i][i]);
  }
  for (int i = n - 1; i >= 0; --i) {
    double v = b[i];
    for (int k = std::min(n - 1, i + kd); k > i; --k) v -= l[k][i] * b[k];
    b[i] = v * (1.0 / l[i][i]);
  }
}

/// Allows or forbids factor()'s vector-extension paths for the test's scope.
class Simd {
 public:
  explicit Simd(bool on) : previous_(detail::BandedSpd::set_simd(on)) {}
  ~Simd() { detail::BandedSpd::set_simd(previous_); }
  Simd(const Simd&) = delete;
  Simd& operator=(const Simd&) = delete;

 private:
  bool previous_;
};

// With and without the vector paths (the processor's, where it has them), and sizes around the
// blocks of columns they factor together.
TEST(BandedSpd, RoundsLikeRowByRowDotProducts) {
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> u(-1, 1);
  for (bool simd : {true, false}) {
    for (int kd : {2, 5, 18, 19}) {
      for (int n : {3, 19, 40, 41, 42, 43, 200}) {
        SCOPED_TRACE(testing::Message() << "n " << n << " kd " << kd << " simd " << simd);
        Simd scope(simd);
        const Dense a = random_spd_band(n, kd, 0.1, rng);
        std::vector<double> b(n);
        for (double& v : b) v = u(rng);
        Dense l;
        std::vector<double> expected = b;
        row_dot_cholesky_solve(a, kd, l, expected);
        detail::BandedSpd m = banded_from(a, kd);
        ASSERT_TRUE(m.factor());
        for (int i = 0; i < n; ++i)
          for (int j = std::max(0, i - kd); j <= i; ++j) ASSERT_EQ(m.at(i, j), l[i][j]) << "L(" << i << ", " << j << ")";
        std::vector<double> x = b;
        m.solve(x);
        for (int i = 0; i < n; ++i) ASSERT_EQ(x[i], expected[i]) << "x[" << i << "]";
      }
    }
  }
}

TEST(BandedSpd, RefusesAMatrixThatIsNotPositiveDefinite) {
  // Tridiagonal [2 3; 3 2] blocks: symmetric, eigenvalues 5 and -1.
  detail::BandedSpd m(4, 1);
  for (int i = 0; i < 4; ++i) m.add(i, i, 2);
  for (int i = 1; i < 4; ++i) m.add(i, i - 1, 3);
  Dense a(4, std::vector<double>(4, 0.0)), l;
  for (int i = 0; i < 4; ++i) a[i][i] = 2;
  for (int i = 1; i < 4; ++i) a[i][i - 1] = a[i - 1][i] = 3;
  EXPECT_FALSE(dense_cholesky(a, l));
  EXPECT_FALSE(m.factor());
  // A semi-definite matrix (a zero pivot) is refused too, and so is a NaN entry.
  detail::BandedSpd zero(3, 1);
  zero.add(0, 0, 1);
  zero.add(1, 1, 1);
  zero.add(1, 0, 1);
  zero.add(2, 2, 1);
  EXPECT_FALSE(zero.factor());
  detail::BandedSpd nan(2, 1);
  nan.add(0, 0, std::nan(""));
  nan.add(1, 1, 1);
  EXPECT_FALSE(nan.factor());
  // A pivot that fails deep inside a long band of the solver's half-bandwidth, with and without
  // the vector paths.
  std::mt19937 rng(5);
  Dense long_band = random_spd_band(100, 18, 0.1, rng);
  long_band[50][50] = -1;
  for (bool simd : {true, false}) {
    Simd scope(simd);
    EXPECT_FALSE(banded_from(long_band, 18).factor()) << "simd " << simd;
  }
}

}  // namespace
}  // namespace footfix
