// Internal to walk/: the effector points the damped least-squares leg solve
// (footfix/walk/leg_dls.h) drives, declared here for it and its unit test (not installed).
#pragma once

#include <array>

#include "footfix/core/math.h"
#include "footfix/walk/leg_dls.h"

namespace footfix {

/// World points of the three effectors (ankle, toe, side point) for ankle world transform `a`.
std::array<Vec3, 3> dls_effector_points(const DlsLeg& leg, const Transform& a);


}  // namespace footfix
