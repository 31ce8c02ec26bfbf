#include <gtest/gtest.h>

#include "footfix/core/euler.h"

namespace footfix {
namespace {

double quat_distance(Quat a, Quat b) { return 1.0 - std::abs(dot(a, b)); }

TEST(Euler, RoundTripsEveryOrder) {
  const EulerOrder orders[] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (const auto& order : orders) {
    for (double a : {-170.0, -45.0, 0.0, 30.0, 120.0}) {
      for (double b : {-80.0, -10.0, 0.0, 60.0, 89.0}) {
        for (double c : {-150.0, 0.0, 15.0, 179.0}) {
          std::array<double, 3> in{a, b, c};
          Quat q = quat_from_euler_deg(order, in);
          auto out = euler_from_quat_deg(order, q, in);
          for (int n = 0; n < 3; ++n) EXPECT_NEAR(out[n], in[n], 1e-6) << order[0] << order[1] << order[2];
        }
      }
    }
  }
}

TEST(Euler, ZRotationAboutZAxisMatchesAxisAngle) {
  Quat q = quat_from_euler_deg({2, 1, 0}, {90, 0, 0});
  Vec3 v = rotate(q, Vec3{1, 0, 0});
  EXPECT_NEAR(v.x, 0, 1e-12);
  EXPECT_NEAR(v.y, 1, 1e-12);
}

TEST(Euler, ChoosesSolutionNearPreviousFrame) {
  // 190 degrees about Z is the same rotation as -170; near a previous 185 we want 190.
  Quat q = quat_from_euler_deg({2, 1, 0}, {190, 0, 0});
  auto out = euler_from_quat_deg({2, 1, 0}, q, {185, 0, 0});
  EXPECT_NEAR(out[0], 190, 1e-6);
  auto out2 = euler_from_quat_deg({2, 1, 0}, q, {-175, 0, 0});
  EXPECT_NEAR(out2[0], -170, 1e-6);
  // Same rotation reached by the other branch stays continuous too.
  Quat r = quat_from_euler_deg({2, 1, 0}, {10, 95, 20});
  auto back = euler_from_quat_deg({2, 1, 0}, r, {12, 94, 21});
  EXPECT_LT(quat_distance(quat_from_euler_deg({2, 1, 0}, back), r), 1e-12);
  EXPECT_NEAR(back[1], 95, 1e-6);
}

TEST(Euler, GimbalLockKeepsRotation) {
  Quat q = quat_from_euler_deg({0, 1, 2}, {30, 90, 40});
  auto out = euler_from_quat_deg({0, 1, 2}, q, {0, 90, 40});
  EXPECT_LT(quat_distance(quat_from_euler_deg({0, 1, 2}, out), q), 1e-10);
}

}  // namespace
}  // namespace footfix
