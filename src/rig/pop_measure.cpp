#include "footfix/rig/pop_measure.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "footfix/core/fk.h"

namespace footfix {

int pop_window_frames(double fps) { return std::max(1, static_cast<int>(std::lround(k_pop_window_s * fps))); }

std::vector<int> pop_tracked_joints(const LegChain& leg) {
  std::vector<int> out{leg.knee, leg.heel};
  if (leg.toe >= 0) out.push_back(leg.toe);
  out.push_back(-1);
  return out;
}

std::vector<double> pop_reference_mps2(const std::vector<double>& accel_mps2, double fps) {
  // Sliding maximum over [f - half, f + half] (van Herk / Gil-Werman: running maxima within
  // blocks of 2 half + 1, forwards and backwards). The array is padded by half on both sides
  // with -infinity, so every window is whole and spans at most two blocks, ends included.
  const int n = static_cast<int>(accel_mps2.size()), half = pop_window_frames(fps), width = 2 * half + 1;
  const int padded = n + 2 * half;
  std::vector<double> v(static_cast<size_t>(padded), -std::numeric_limits<double>::infinity());
  std::copy(accel_mps2.begin(), accel_mps2.end(), v.begin() + half);
  std::vector<double> forward(v.size()), backward(v.size()), out(accel_mps2.size());
  for (int i = 0; i < padded; ++i) forward[i] = i % width == 0 ? v[i] : std::max(forward[i - 1], v[i]);
  for (int i = padded - 1; i >= 0; --i)
    backward[i] = (i % width == width - 1 || i == padded - 1) ? v[i] : std::max(backward[i + 1], v[i]);
  // Frame f's window is padded [f, f + 2 half].
  for (int f = 0; f < n; ++f) out[f] = std::max({backward[f], forward[f + 2 * half], k_pop_floor_mps2});
  return out;
}

Vec3 pop_tracked_position(const Clip& clip, int frame, const LegChain& leg, int joint) {
  return joint >= 0 ? joint_world_position(clip, frame, joint) : foot_tip_world(clip, frame, leg);
}

std::vector<const std::vector<Vec3>*> pop_tracked_tracks(const LegTrack& track, const LegChain& leg) {
  std::vector<const std::vector<Vec3>*> out;
  for (int joint : pop_tracked_joints(leg))
    out.push_back(joint < 0 ? &track.tip : joint == leg.knee ? &track.knee : joint == leg.heel ? &track.heel : &track.toe);
  return out;
}

std::vector<JointPoint> pop_tracked_points(const Clip& clip, const LegChain& leg) {
  std::vector<JointPoint> out;
  for (int joint : pop_tracked_joints(leg)) out.push_back(joint >= 0 ? JointPoint{joint, std::nullopt} : foot_tip_point(clip, leg));
  return out;
}

}  // namespace footfix
