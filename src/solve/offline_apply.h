// Glue between a clip and the offline solve ("then apply" the solved trajectories): extract the
// solve's input trajectories from a clip, and write a solve result back by moving the pelvis and
// solving each leg chain (ik/leg_ik.h). Contacts and their heights come from the caller.
#pragma once

#include <array>

#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/rig/leg_tracks.h"
#include "footfix/ik/leg_heights.h"
#include "footfix/ik/leg_ik.h"
#include "footfix/solve/offline_solve.h"

namespace footfix {

/// Fills frame_count, fps, pelvis_ws (world position of `translation_joint`) and toe_ws (world
/// position of each leg's contact joint) from `clip`. Sets toe_min_height_m to the contact
/// joints' minima. Leaves contact and contact_height_m sized to the clip and zero: the caller
/// fills them from contact detection. With ik.reach_to_straight, sets each leg's reach per frame
/// to where apply_offline_solve's soft reach limit then begins: the straight leg less
/// ik.softness_m (without it the reach arrays stay empty: no reach limit).
/// `tracks` (here and below): `clip`'s leg_tracks where the caller has them (the same result,
/// without computing the positions again); tracks that do not match the clip are not read.
OfflineSolveInput offline_input_from_clip(const Clip& clip, int translation_joint,
                                          const std::array<LegChain, 2>& legs, const LegIkSettings& ik = {},
                                          const LegTracks* tracks = nullptr);

/// Lowers `result`'s pelvis (its height only) by the smallest drop, spread smoothly in time,
/// that brings every contact frame's toe target (where contact[leg][frame]) within the leg's
/// exact reach in apply_offline_solve (its soft limit's start, the foot pitch it may use there
/// included): the hip moves with the pelvis, the heel with the toe target, as in `clip` (the
/// source, unchanged yet). The drop at a frame is the least straight down; it is held over
/// +-0.24 s and smoothed (Gaussian, 0.08 s), so the pelvis comes down and back up smoothly.
/// With `shift_first`, the pelvis first moves horizontally where that makes the drop smaller:
/// at each contact frame short of reach, along the line from the hip to the toe target farthest
/// out of reach, by up to 3 cm either way (1 mm steps), the move that least needs a drop at the
/// frames short of reach within +-0.24 s (both legs' targets); the moves are held and smoothed
/// as the drop is, then the drop is found for the moved pelvis.
/// Returns the largest drop applied (meters, >= 0).
double lower_pelvis_to_reach(const Clip& clip, int translation_joint, const std::array<LegChain, 2>& legs,
                             const std::array<std::vector<uint8_t>, 2>& contact, const LegIkSettings& ik,
                             OfflineSolveResult& result, bool shift_first = false,
                             const LegTracks* tracks = nullptr);

/// Per leg and frame, the least drop of `result`'s pelvis (meters, straight down, no horizontal
/// move) that brings that leg's contact-frame toe target within reach as lower_pelvis_to_reach
/// plans it, for that leg alone; 0 where the target is within reach or the leg is not in contact,
/// 0.15 (the most lower_pelvis_to_reach drops) where even that does not reach. With
/// `no_lower_than` (a position per frame, meters, world), the drop is from `result`'s pelvis
/// raised straight up to its height wherever it is lower.
std::array<std::vector<double>, 2> reach_drops_needed(const Clip& clip, int translation_joint,
                                                      const std::array<LegChain, 2>& legs,
                                                      const std::array<std::vector<uint8_t>, 2>& contact,
                                                      const LegIkSettings& ik, const OfflineSolveResult& result,
                                                      const LegTracks* tracks = nullptr,
                                                      const std::vector<Vec3>* no_lower_than = nullptr);

struct OfflineApplyReport {
  std::array<int, 2> unreached_frames{0, 0};  ///< per leg, frames whose target was missed
  std::array<double, 2> max_miss_m{0, 0};     ///< per leg, largest miss (meters)
};

/// Per leg, per frame minimum heights (all frames alike: the same LegHeights repeated).
using LegHeightTracks = std::array<std::vector<LegHeights>, 2>;
LegHeightTracks constant_heights(const std::array<LegHeights, 2>& heights, int frame_count);

/// Writes `result` into `clip` (the clip the input was taken from): per frame, moves
/// `translation_joint` so its world position is result.pelvis_ws (its parent's transform is
/// kept), then solves each leg towards result.toe_ws with max extension = |hip - heel| of the
/// clip's pose at that frame (unchanged by the pelvis move) plus 5% of that leg's slack there
/// (thigh + shin less that distance: a bent knee may straighten a little to reach its target, a
/// straight one may not), or the straight leg with settings.reach_to_straight. Changes only the translation
/// joint's local translation and the legs' local rotations. Misses are reported, not errors.
/// `heights[leg][frame]` are the clamps of that leg at that frame.
/// Throws Error(process) when the result's or heights' sizes do not match the clip.
/// `tracks`: `clip`'s leg_tracks as it is passed in, where the caller has them.
/// `planted_foot_sigma_s` (s): where a toe is planted, the foot keeps the source's heel-to-toe
/// offset smoothed over at least this long (and at least 15 ms, which takes optical capture's
/// jitter out): on noisy capture, the time over which the contacts were denoised, so that a
/// planted foot is still as a whole, not only at its toe.
OfflineApplyReport apply_offline_solve(Clip& clip, int translation_joint,
                                       const std::array<LegChain, 2>& legs,
                                       const OfflineSolveResult& result,
                                       const LegHeightTracks& heights,
                                       const LegIkSettings& settings = {},
                                       const LegTracks* tracks = nullptr, double planted_foot_sigma_s = 0);

}  // namespace footfix
