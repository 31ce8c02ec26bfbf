// The fast offline solve of a very long clip in overlapping windows, so that its memory does not
// grow with the clip beyond the input and the result (internal to src/solve).
//
// Windows are solved in sequence. Each window's first k_window_pinned_frames frames are held at
// the previous window's solution: every term of the energy couples frames at most two apart, so
// with two frames fixed the window's energy is exactly the whole clip's, given the frames before.
// Contact locks (their blend and their mean foothold) are taken from the whole clip's contacts.
// Only a window's frames at least `lookahead_frames` before its end are kept (those past a
// contact still in progress there are dropped too): the solution near a window's end, where the
// frames after it are missing, is solved again by the next window.
#pragma once

#include <cstdint>
#include <vector>

#include "footfix/solve/offline_solve.h"

namespace footfix::detail {

/// Frames held at the previous window's solution at the start of each window.
constexpr int k_window_pinned_frames = 2;
/// solve_offline uses the windowed solve for clips longer than this (about 14 minutes at 120 Hz):
/// below it the whole clip is solved at once, as before.
constexpr int k_windowed_above_frames = 100000;
/// Window length and lookahead of solve_offline's windowed solve (frames).
constexpr int k_window_frames = 32768;
constexpr int k_window_lookahead_frames = 2048;

/// Frames [first, first + count) of `in` as an input of their own.
OfflineSolveInput slice_input(const OfflineSolveInput& in, int first, int count);

/// The fast solve of `window` (= slice_input(whole, first, ...)) with the contact locks of
/// `whole`, its first pinned.pelvis_ws.size() frames held at `pinned` (pelvis and toes) and the
/// below-only pelvis height on `pull_set` (pelvis_pull_set's; empty: the window's own first
/// step decides, as for the first window, which has no frames before it).
OfflineSolveResult solve_offline_fast_window(const OfflineSolveInput& whole, const OfflineSolveInput& window,
                                             int first, const OfflineSolveResult& pinned,
                                             std::vector<uint8_t> pull_set, const OfflineSolveSettings& settings);

/// The frames [first, first + count) of `whole` that the fast solve's below-only pelvis height
/// pulls (OfflineSolveSettings::fast_pelvis_height_below_only): those the solve's first step
/// brings down, that step taken over these frames and the `lookback_frames` before them (what
/// frames further away change in it decays exponentially, as for the lookahead). Empty when
/// the pull is off or acts both ways.
std::vector<uint8_t> pelvis_pull_set(const OfflineSolveInput& whole, int first, int count, int lookback_frames,
                                     const OfflineSolveSettings& settings);

/// The fast solve of `in` in windows of `window_frames` frames (> lookahead_frames +
/// k_window_pinned_frames); one window when the clip fits in one (then the same as
/// solve_offline_fast). iterations and final_change_m are the largest of any window's;
/// converged when every window converged. Input and settings are not validated here. `seams`,
/// when given, receives the first frame each window after the first keeps.
OfflineSolveResult solve_offline_windowed(const OfflineSolveInput& in, const OfflineSolveSettings& settings,
                                          int window_frames, int lookahead_frames, std::vector<int>* seams = nullptr);

}  // namespace footfix::detail
