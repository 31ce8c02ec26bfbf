// Internal to rig/: the unit candidates detect_source_frame (footfix/rig/leg_rig.h) chooses
// from, declared here for it and its unit test (not installed).
#pragma once

#include <vector>

namespace footfix {

/// Known units (meters per unit, see known_units) that put a leg of `leg_length_units` (hip to
/// ankle, file units) within the plausible human range, 0.40 to 1.20 m.
std::vector<double> plausible_units(double leg_length_units);


}  // namespace footfix
