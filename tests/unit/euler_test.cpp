// Euler angles against an independent construction: rotation matrices composed from the three
// elementary axis rotations (cos/sin written out here), for all 12 axis orders: the six with
// three different axes (R = R_a0 R_a1 R_a2, BVH channel order; FBX's six RotationOrder values are
// the same products read backwards, eEulerXYZ = Rz Ry Rx) and the six proper Euler orders that
// repeat the first axis (XYX, ...). Angles are recovered with previous-frame hints far from the
// answer, so the branch and 360-degree wrap choice is what is tested.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>

#include "footfix/core/euler.h"

namespace footfix {
namespace {

using Mat = std::array<std::array<double, 3>, 3>;

Mat mul(const Mat& a, const Mat& b) {
  Mat m{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) m[i][j] += a[i][k] * b[k][j];
  return m;
}

/// Right-handed rotation by `deg` about axis 0 (x), 1 (y) or 2 (z).
Mat elementary(int axis, double deg) {
  const double r = deg * 3.14159265358979323846 / 180.0, c = std::cos(r), s = std::sin(r);
  if (axis == 0) return {{{1, 0, 0}, {0, c, -s}, {0, s, c}}};
  if (axis == 1) return {{{c, 0, s}, {0, 1, 0}, {-s, 0, c}}};
  return {{{c, -s, 0}, {s, c, 0}, {0, 0, 1}}};
}

/// R = R_{order[0]}(angles[0]) R_{order[1]}(angles[1]) R_{order[2]}(angles[2]).
Mat compose(const EulerOrder& order, const std::array<double, 3>& angles) {
  return mul(mul(elementary(order[0], angles[0]), elementary(order[1], angles[1])), elementary(order[2], angles[2]));
}

/// The matrix of a quaternion, read off by rotating the basis vectors.
Mat matrix_of(Quat q) {
  Mat m{};
  for (int j = 0; j < 3; ++j) {
    Vec3 e{j == 0 ? 1.0 : 0.0, j == 1 ? 1.0 : 0.0, j == 2 ? 1.0 : 0.0};
    Vec3 col = rotate(q, e);
    m[0][j] = col.x;
    m[1][j] = col.y;
    m[2][j] = col.z;
  }
  return m;
}

double max_difference(const Mat& a, const Mat& b) {
  double d = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) d = std::max(d, std::abs(a[i][j] - b[i][j]));
  return d;
}

struct Convention {
  EulerOrder order;  ///< the product order passed to footfix
  const char* name;
  bool proper() const { return order[0] == order[2]; }
};
const Convention k_conventions[] = {
    {{0, 1, 2}, "XYZ"}, {{0, 2, 1}, "XZY"}, {{1, 0, 2}, "YXZ"}, {{1, 2, 0}, "YZX"},
    {{2, 0, 1}, "ZXY"}, {{2, 1, 0}, "ZYX"}, {{0, 1, 0}, "XYX"}, {{0, 2, 0}, "XZX"},
    {{1, 0, 1}, "YXY"}, {{1, 2, 1}, "YZY"}, {{2, 0, 2}, "ZXZ"}, {{2, 1, 2}, "ZYZ"}};

TEST(Euler, EveryOrderMatchesComposedAxisRotations) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> angle(-180.0, 180.0);
  for (const Convention& c : k_conventions) {
    for (int n = 0; n < 200; ++n) {
      const std::array<double, 3> angles{angle(rng), angle(rng), angle(rng)};
      Quat q = quat_from_euler_deg(c.order, angles);
      ASSERT_LT(max_difference(matrix_of(q), compose(c.order, angles)), 1e-12) << c.name;
    }
  }
}

/// Angles a (equivalent to b up to 360-degree wraps) differ by a multiple of 360.
double wrapped_difference(double a, double b) {
  double d = std::fmod(a - b, 360.0);
  if (d > 180) d -= 360;
  if (d < -180) d += 360;
  return std::abs(d);
}

TEST(Euler, RecoversTheRotationAndTheSolutionNearestAFarHint) {
  // Truth (a, b, c) in product-slot order; every equivalent set is (a, b, c) or
  // (a + 180, 180 - b, c + 180) (proper Euler orders: (a + 180, -b, c + 180)), each angle up to
  // 360-degree wraps. The answer must give the same matrix and be, of all those, the nearest to
  // the hint in summed absolute degrees. Middle angles stay away from the gimbal lock.
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> wide(-180.0, 180.0), middle(-80.0, 80.0), proper_middle(10.0, 170.0),
      far(100.0, 400.0);
  std::uniform_int_distribution<int> sign(0, 1);
  int second_branch = 0, wrapped = 0;
  for (const Convention& c : k_conventions) {
    for (int n = 0; n < 300; ++n) {
      const std::array<double, 3> truth{wide(rng), c.proper() ? proper_middle(rng) : middle(rng), wide(rng)};
      const Mat target = compose(c.order, truth);
      const Quat q = quat_from_euler_deg(c.order, truth);
      std::array<double, 3> hint;
      for (int k = 0; k < 3; ++k) hint[k] = truth[k] + (sign(rng) ? 1 : -1) * far(rng);
      const std::array<double, 3> got = euler_from_quat_deg(c.order, q, hint);
      ASSERT_LT(max_difference(compose(c.order, got), target), 1e-9) << c.name;

      const double mirror = c.proper() ? 0 : 180;
      const std::array<std::array<double, 3>, 2> branches{{truth, {truth[0] + 180, mirror - truth[1], truth[2] + 180}}};
      double best = 1e300, got_cost = 0;
      for (const auto& b : branches) {
        double cost = 0;
        for (int k = 0; k < 3; ++k) {
          // The wrap of b[k] nearest the hint.
          double w = b[k] + 360.0 * std::round((hint[k] - b[k]) / 360.0);
          cost += std::abs(w - hint[k]);
        }
        best = std::min(best, cost);
      }
      for (int k = 0; k < 3; ++k) got_cost += std::abs(got[k] - hint[k]);
      ASSERT_LE(got_cost, best + 1e-6) << c.name << " hint " << hint[0] << " " << hint[1] << " " << hint[2];
      const bool on_first = wrapped_difference(got[1], truth[1]) < 1e-6;
      second_branch += on_first ? 0 : 1;
      for (int k = 0; k < 3; ++k) wrapped += std::abs(got[k] - truth[k]) > 180 ? 1 : 0;
    }
  }
  // The far hints must have exercised both branches and the wraps.
  EXPECT_GT(second_branch, 200);
  EXPECT_GT(wrapped, 200);
}

TEST(Euler, ContinuousAcrossTheWrap) {
  // 190 degrees about Z is the same rotation as -170; near a previous 185 we want 190.
  const EulerOrder zyx{2, 1, 0};
  Quat q = quat_from_euler_deg(zyx, {190, 0, 0});
  EXPECT_NEAR(euler_from_quat_deg(zyx, q, {185, 0, 0})[0], 190, 1e-6);
  EXPECT_NEAR(euler_from_quat_deg(zyx, q, {-175, 0, 0})[0], -170, 1e-6);
  EXPECT_NEAR(euler_from_quat_deg(zyx, q, {900, 0, 0})[0], 910, 1e-6);
}

TEST(Euler, GimbalLockKeepsTheRotation) {
  for (const Convention& c : k_conventions) {
    for (double middle : c.proper() ? std::array<double, 2>{0.0, 180.0} : std::array<double, 2>{90.0, -90.0}) {
      const std::array<double, 3> truth{30, middle, 40};
      Quat q = quat_from_euler_deg(c.order, truth);
      std::array<double, 3> got = euler_from_quat_deg(c.order, q, {-120, 0, 170});
      EXPECT_LT(max_difference(compose(c.order, got), compose(c.order, truth)), 1e-6) << c.name;
    }
  }
}

}  // namespace
}  // namespace footfix
