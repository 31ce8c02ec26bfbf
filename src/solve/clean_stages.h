// The clean's stages after the offline solve, in the order the clean runs them on the solved
// trajectories and the cleaned clip: swing smoothing (--smooth-swing), reach (the pelvis
// lowered where a planted target is beyond the leg), IK (the solve written into the clip's
// legs), the planted-miss report, and the pop guard. Each adds its warnings to the result. For
// the clean and its tests; not installed. Internal frame (meters, Y up).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/ik/leg_ik.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/rig/leg_tracks.h"
#include "footfix/solve/clean.h"
#include "footfix/solve/offline_solve.h"
#include "footfix/solve/pop_guard.h"
#include "guard_pops.h"
#include "offline_apply.h"

namespace footfix {

/// Per leg and frame, whether the foot is planted (1) or swings (0).
using PlantedFrames = std::array<std::vector<std::uint8_t>, 2>;

/// A planted contact joint farther than this (m) from its target is reported (a warning): a
/// closer one is within mocap noise. The pop guard's planted shifts are reported from the same.
inline constexpr double k_planted_miss_warn_m = 0.01;
/// The pelvis lowered by more than this (m) to reach planted targets is reported: less is
/// ordinary compensation.
inline constexpr double k_pelvis_drop_warn_m = 0.03;
/// The narrowest smoothing of the swings (s, Gaussian sigma), on capture without noise.
inline constexpr double k_smooth_swing_min_sigma_s = 0.03;

/// Swing smoothing: the solved toe target of every swing frame (planted[leg][frame] == 0)
/// replaced by the targets smoothed with a Gaussian of sigma `noise_sigma_s` (s, the capture
/// noise's; at least k_smooth_swing_min_sigma_s) at `fps`; planted frames keep theirs.
void smooth_swing_targets(OfflineSolveResult& solved, const PlantedFrames& planted, double noise_sigma_s, double fps);

/// Reach: with `lower`, the solved pelvis comes down (and first moves sideways where that
/// helps) by the least that brings every planted toe target within the leg
/// (lower_pelvis_to_reach on `source`, the clip the solve's input was taken from). Then, however
/// the pelvis came down (here or in the solve), a warning when it is more than
/// k_pelvis_drop_warn_m below the path the solve followed (`input`): bent knees to check.
/// Returns that largest drop (m, >= 0). `tracks`: `source`'s leg_tracks where the caller has them.
double reach_planted_targets(const Clip& source, const Rig& rig, const OfflineSolveInput& input, const LegIkSettings& ik,
                             bool lower, OfflineSolveResult& solved, std::vector<std::string>& warnings,
                             const LegTracks* tracks = nullptr);

/// IK: `solved` written into result.cleaned (the solve's source clip; apply_offline_solve: the
/// root moved, each leg solved towards its toe target within the `heights` floors), and the
/// targets it missed reported in result.unreached_frames and result.max_miss_m. `tracks`:
/// result.cleaned's leg_tracks as it is passed in, where the caller has them.
void apply_solve_to_legs(CleanResult& result, const Rig& rig, const OfflineSolveResult& solved,
                         const LegHeightTracks& heights, const LegIkSettings& ik, const LegTracks* tracks = nullptr);

/// Planted-miss report: per leg, the largest distance (m) between result.cleaned's contact joint
/// and its target `targets[leg][frame]` over the frames result.contacts has it planted (a swing
/// has no target to keep), in result.max_planted_miss_m, and a warning for a leg that misses by
/// more than k_planted_miss_warn_m. `tracks`: result.cleaned's leg_tracks where the caller has them.
void report_planted_misses(CleanResult& result, const Rig& rig, const std::array<std::vector<Vec3>, 2>& targets,
                           const LegTracks* tracks = nullptr);

/// Pop guard: result.cleaned's leg accelerations kept near `source`'s (guard_pops, with
/// result.contacts), its report in result.pops, and warnings for what it gave up: a planted foot
/// moved by more than k_planted_miss_warn_m, or accelerations left more than 10% over the limit.
/// `tracks`: result.cleaned's leg_tracks where the caller has them.
void guard_cleaned_pops(CleanResult& result, const Rig& rig, const PopGuardSource& source,
                        const PopGuardSettings& settings, const LegTracks* tracks = nullptr);

}  // namespace footfix
