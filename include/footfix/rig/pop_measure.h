// The per-frame pop measure's pieces, shared by the metrics (eval/metrics.h: ClipMetrics::
// pop_ratio) and the clean's pop guard (solve/pop_guard.h), so both measure the same thing: which
// leg joints are tracked, where each is, its acceleration, and the source window it is compared
// with.
#pragma once

#include <span>
#include <vector>

#include "footfix/rig/leg_rig.h"
#include "footfix/rig/leg_tracks.h"

namespace footfix {

/// Half-width (s) of the source window a frame's cleaned acceleration is compared with.
constexpr double k_pop_window_s = 0.1;
/// Source accelerations below this (m/s^2, about 1 g) count as this much in the pop ratio:
/// still feet would otherwise make mocap noise in the output read as a pop.
constexpr double k_pop_floor_mps2 = 10.0;

/// The window's half-width in frames at `fps` (at least 1).
int pop_window_frames(double fps);

/// The leg joints whose accelerations are measured: knee, heel, toe (where the rig has one),
/// then -1 for the foot tip (foot_tip_world).
std::vector<int> pop_tracked_joints(const LegChain& leg);

/// World position (meters) of a tracked joint of `leg` (-1: the foot tip) at `frame`.
Vec3 pop_tracked_position(const Clip& clip, int frame, const LegChain& leg, int joint);

/// The tracked joints of `leg` as points for point_trajectories, in pop_tracked_joints' order
/// (the tip: foot_tip_point).
std::vector<JointPoint> pop_tracked_points(const Clip& clip, const LegChain& leg);

/// The tracked joints' positions in `track` (the leg's leg_tracks), in pop_tracked_joints' order.
std::vector<const std::vector<Vec3>*> pop_tracked_tracks(const LegTrack& track, const LegChain& leg);

/// Per frame, what a cleaned acceleration of a joint is compared with: the largest of the
/// source's accelerations `accel_mps2` (per frame, 0 at both ends) within pop_window_frames of
/// the frame, at least k_pop_floor_mps2. O(frames).
std::vector<double> pop_reference_mps2(const std::vector<double>& accel_mps2, double fps);

/// Acceleration magnitude (m/s^2) at the middle of three consecutive positions (central
/// differences) at `fps`.
inline double acceleration_mps2(const Vec3& previous, const Vec3& at, const Vec3& next, double fps) {
  return length(next - at * 2.0 + previous) * fps * fps;
}

}  // namespace footfix
