#include "footfix/core/euler.h"

#include <algorithm>
#include <cmath>

namespace footfix {
namespace {

using Mat3 = std::array<std::array<double, 3>, 3>;

Mat3 to_matrix(Quat q) {
  double w = q.w, x = q.x, y = q.y, z = q.z;
  return {{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
           {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
           {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}}};
}

Vec3 unit_axis(int a) { return a == 0 ? Vec3{1, 0, 0} : a == 1 ? Vec3{0, 1, 0} : Vec3{0, 0, 1}; }

// +1 when (i, j, k) is a cyclic permutation of (0, 1, 2), else -1.
double parity(const EulerOrder& o) { return ((o[1] - o[0] + 3) % 3 == 1) ? 1.0 : -1.0; }

// std::round(x) (halves away from zero) to the bit, without a library call where |x| < 2^52:
// x less its truncation (exact there) says whether to step away from zero.
double round_half_away(double x) {
  if (!(std::abs(x) < 0x1p52)) return std::round(x);
  const double t = static_cast<double>(static_cast<long long>(x));
  return std::copysign(std::abs(x - t) >= 0.5 ? t + std::copysign(1.0, x) : t, x);
}

double wrap_near(double angle, double reference) {
  return angle + 360.0 * round_half_away((reference - angle) / 360.0);
}

}  // namespace

Quat quat_from_euler_deg(const EulerOrder& order, const std::array<double, 3>& angles_deg) {
  Quat q;
  for (int n = 0; n < 3; ++n) q = q * axis_angle(unit_axis(order[n]), angles_deg[n] * k_deg_to_rad);
  return q;
}

std::array<double, 3> euler_from_quat_deg(const EulerOrder& order, Quat q,
                                          const std::array<double, 3>& previous_deg) {
  const int i = order[0], j = order[1];
  const bool proper = order[2] == i;  // i j i: the middle angle is read off m[i][i]
  const int k = proper ? 3 - i - j : order[2];
  const double s = parity({i, j, k});
  Mat3 m = to_matrix(normalize(q));
  double a = 0, b = 0, c = 0;
  // Gimbal lock where the middle rotation lines the first and last axes up.
  bool locked;
  if (proper) {
    // R = R_i(a) R_j(b) R_i(c): m[i][i] = cos b, m[j][i] = sin a sin b, m[k][i] = -s cos a sin b,
    // m[i][j] = sin b sin c, m[i][k] = s sin b cos c.
    const double cb = std::clamp(m[i][i], -1.0, 1.0);
    b = std::acos(cb);
    locked = std::abs(cb) >= 1.0 - 1e-12;
    if (!locked) {
      a = std::atan2(m[j][i], -s * m[k][i]);
      c = std::atan2(m[i][j], s * m[i][k]);
    }
  } else {
    const double sb = std::clamp(s * m[i][k], -1.0, 1.0);
    b = std::asin(sb);
    locked = std::abs(sb) >= 1.0 - 1e-12;
    if (!locked) {
      a = std::atan2(-s * m[j][k], m[k][k]);
      c = std::atan2(-s * m[i][j], m[i][i]);
    }
  }
  if (locked) {
    // Keep the last angle from the previous frame, solve the first for it.
    c = previous_deg[2] * k_deg_to_rad;
    Quat rest = normalize(q) * axis_angle(unit_axis(order[2]), -c);  // = R_i(a) R_j(b)
    Mat3 n = to_matrix(rest);
    a = std::atan2(s * n[k][j], n[j][j]);
  }
  std::array<double, 3> first{a * k_rad_to_deg, b * k_rad_to_deg, c * k_rad_to_deg};
  // The other branch: the same rotation with the middle angle mirrored.
  std::array<double, 3> second{first[0] + 180.0, (proper ? 0.0 : 180.0) - first[1], first[2] + 180.0};
  double best_cost = 1e300;
  std::array<double, 3> best = first;
  for (auto candidate : {first, second}) {
    double cost = 0;
    for (int n = 0; n < 3; ++n) {
      candidate[n] = wrap_near(candidate[n], previous_deg[n]);
      cost += std::abs(candidate[n] - previous_deg[n]);
    }
    if (cost < best_cost) {
      best_cost = cost;
      best = candidate;
    }
  }
  return best;
}

}  // namespace footfix
