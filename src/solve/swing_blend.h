// Blends each toe's correction into its contact's at every lock onset and release, on the
// swing side: the solve's correction (solved target - input, meters) changes velocity within a
// few frames where a lock starts or ends (its smoothness term spans fast_blend_s), and that
// velocity step is a pop in the toe's acceleration. Here the correction over the `blend_s`
// before an onset and after a release is replaced by the cubic Hermite curve that leaves the
// contact with the contact's correction and correction velocity and meets the solved swing
// with the solved swing's: the same positions at both ends, a continuous velocity, and the
// velocity change spread over blend_s, as the runtime lock's inertialization does. Contact
// frames and the middle of swings are untouched. Horizontal (X, Z) only: the vertical
// correction in a swing keeps the toe above its floor, which a blend could undo.
#pragma once

#include "footfix/solve/offline_solve.h"

namespace footfix {

/// Applies the blend to result.toe_ws (both legs) in place. A swing shorter than two blends
/// gets half of it at each end; blend_s <= 0 or under two frames leaves the result unchanged.
void blend_swing_corrections(const OfflineSolveInput& input, double blend_s, OfflineSolveResult& result);

}  // namespace footfix
