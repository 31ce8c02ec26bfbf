// Support phases of a clip from its contacts: where the feet that carry the body leave the ground
// together or land together (a two-feet jump's take-off and landing), as opposed to the support
// passing from one foot to the other (a walk's or a run's foot change). For the pinned root's
// carry (pinned_root.h); not installed. Frames are the clip's frame indices.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace footfix {

/// Two contacts of different feet stand together when they overlap over at least this share of
/// the shorter one: a two-feet stance's contacts overlap over (nearly) all of it, a walk's double
/// support is a small share of its stances and a run's contacts do not overlap.
inline constexpr double k_together_overlap = 0.5;

/// The flight edges (no foot planted on one side, some on the other) whose planted side stands on
/// feet that stood together (k_together_overlap), ascending: a take-off at f - 0.5 between the last
/// planted frame f - 1 and the first flight frame f, a landing at f - 0.5 between the last flight
/// frame f - 1 and the first planted frame f. `contact`: per foot, per frame, 1 where planted
/// (missing frames read as not planted); frames [0, frames) are read.
std::vector<double> together_flight_edges(const std::array<std::vector<std::uint8_t>, 2>& contact, int frames);

}  // namespace footfix
