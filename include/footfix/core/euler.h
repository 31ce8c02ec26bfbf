// Euler angles in an arbitrary axis order, as BVH and FBX store rotations.
// Order {a0, a1, a2} (axis indices 0=x,1=y,2=z) means R = R_a0 * R_a1 * R_a2, the BVH convention
// for channels listed in that order: 12 orders, the six with three different axes (Tait-Bryan,
// all that BVH and FBX files use; FBX's eEulerXYZ is {2, 1, 0}) and the six with a0 == a2 != a1
// (proper Euler, e.g. {0, 1, 0}). Angles in degrees.
#pragma once

#include <array>

#include "footfix/core/math.h"

namespace footfix {

using EulerOrder = std::array<int, 3>;

Quat quat_from_euler_deg(const EulerOrder& order, const std::array<double, 3>& angles_deg);

/// Euler angles of q in `order`, choosing among the equivalent solutions (the two branches and
/// 360-degree wraps) the one closest to `previous_deg`, so animation curves stay continuous.
std::array<double, 3> euler_from_quat_deg(const EulerOrder& order, Quat q,
                                          const std::array<double, 3>& previous_deg);

}  // namespace footfix
