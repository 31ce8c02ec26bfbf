// Loading response of the procedural walk (private to the walk module): after its heel strike
// the stance knee yields, flexing as the leg takes the body's weight and extending again by
// mid-stance (Perry; Winter), rather than holding the leg straight from contact.
#pragma once

#include "footfix/walk/gait.h"

namespace footfix {

/// Knee flexion (rad) the stance leg of `s` (as sample_foot gives it at time `t`, s) yields to:
/// 0 at its heel strike, up to the peak early in stance, back to 0 before mid-stance; 0 outside
/// a walking step's stance and on stairs.
double loading_knee_rad(const GaitPlan& plan, const FootSample& s, double t, bool stairs);

/// Hip-to-ankle distance (m) of a leg with thigh and shin lengths (m) and its knee bent by
/// `knee_rad`.
double bent_leg_span_m(double thigh_m, double shin_m, double knee_rad);

}  // namespace footfix
