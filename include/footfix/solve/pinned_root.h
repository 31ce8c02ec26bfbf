// Pinned roots: some converters (video-to-motion tools, retargeters) hold the root still and let
// the feet slide around it, where the body should have travelled. Planted feet must still stay
// put, so the root is given the travel the planted feet imply before the clean locks them.
// Internal frame (meters, Y up); horizontal means X and Z.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/core/math.h"

namespace footfix {

/// Largest horizontal range (m) over the whole clip of a root read as pinned. An in-place game
/// loop keeps its pelvis's sway (5-6 cm on Mixamo's), a pinned root keeps nothing.
inline constexpr double k_pinned_root_range_m = 0.005;

/// Whether the translation joint's world positions `root_ws` stay within k_pinned_root_range_m
/// of each other horizontally (and there are at least two frames).
bool root_is_pinned(const std::vector<Vec3>& root_ws);

/// Per frame, the horizontal travel (m, from frame 0) that keeps planted feet still: minus the
/// ground's cumulative steps under them (ground_steps in solve/treadmill.h), the steps smoothed
/// over 0.15 s (where the foot the body stands on changes, its velocity would jump), the
/// smoothing narrowed to 0.04 s towards the take-offs and landings of feet that stood together (a
/// two-feet jump's: the velocity of the stance is kept up to the take-off and from the landing).
/// `fps`: the clip's rate.
std::vector<Vec3> travel_from_planted_feet(const std::array<std::vector<Vec3>, 2>& toe_ws,
                                           const std::array<std::vector<std::uint8_t>, 2>& contact, double fps);

/// Runs of feet planted together (feet_planted_together) shorter than this (s: frames / fps) are
/// left out: two feet can pass each other at floor height for a moment without standing.
inline constexpr double k_together_min_s = 0.15;

/// Per frame, 1 where both feet stand on the floor together, read without a speed limit on their
/// common horizontal motion: on a pinned root, feet planted together move with the body's negated
/// travel, which a speed gate takes for a slide (the rapid stances of repeated two-feet hops go
/// unseen). A step from frame f - 1 to f holds both feet together where, at both frames, both
/// contact joints are less than `height_m` above the ground under them (`height_above_ground_m`,
/// per foot and frame), each moves up or down slower than `speed_mps` (m/s) and their horizontal
/// velocities differ by less than `speed_mps`; both frames of such a step are marked, in runs of
/// at least k_together_min_s (frames / fps). `toe_ws`: contact-joint positions (meters, world,
/// Y up); `fps`: the clip's rate.
std::vector<std::uint8_t> feet_planted_together(const std::array<std::vector<Vec3>, 2>& toe_ws,
                                                const std::array<std::vector<double>, 2>& height_above_ground_m,
                                                double speed_mps, double height_m, double fps);

/// Moves the whole body of frame `frame` of `clip` by `offset_ws` (world), through the local
/// translation of `translation_joint` (whose parent's world rotation the move does not change).
void move_body(Clip& clip, int frame, int translation_joint, Vec3 offset_ws);

}  // namespace footfix
