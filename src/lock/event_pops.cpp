#include "footfix/lock/event_pops.h"

#include <algorithm>

#include "footfix/core/fk.h"
#include "footfix/core/statistics.h"
#include "footfix/rig/pop_measure.h"

namespace footfix {
namespace {

/// Per frame, the acceleration magnitude of `positions` (0 at both ends).
std::vector<double> accelerations(const std::vector<Vec3>& positions, double fps) {
  std::vector<double> a(positions.size(), 0.0);
  for (size_t f = 1; f + 1 < positions.size(); ++f) a[f] = acceleration_mps2(positions[f - 1], positions[f], positions[f + 1], fps);
  return a;
}

double peak(const std::vector<double>& values, int first, int last) {
  double best = 0;
  for (int f = std::max(first, 0); f <= last && f < static_cast<int>(values.size()); ++f) best = std::max(best, values[f]);
  return best;
}

}  // namespace

const LockEventPop* LockEventPops::worst() const {
  if (events.empty()) return nullptr;
  return &*std::max_element(events.begin(), events.end(),
                            [](const LockEventPop& a, const LockEventPop& b) { return a.ratio < b.ratio; });
}

LockEventPops lock_event_pops(const Clip& input, const LockClipResult& result, const Rig& rig) {
  LockEventPops out;
  const int frames = input.frame_count, half = pop_window_frames(input.fps);
  std::vector<Vec3> in_track(static_cast<size_t>(frames)), out_track(in_track.size());
  for (int s = 0; s < 2; ++s) {
    const std::vector<std::uint8_t>& locked = result.feet[s].locked;
    joint_trajectory(input, rig.legs[s].contact_joint(), in_track);
    joint_trajectory(result.locked, rig.legs[s].contact_joint(), out_track);
    const std::vector<double> in_accel = accelerations(in_track, input.fps), out_accel = accelerations(out_track, input.fps);
    for (int f = 1; f < frames; ++f) {
      if (locked[f] == locked[f - 1]) continue;
      LockEventPop e;
      e.side = static_cast<Side>(s);
      e.frame = f;
      e.lock = locked[f] != 0;
      e.output_mps2 = peak(out_accel, f - half, f + half);
      e.input_mps2 = peak(in_accel, f - half, f + half);
      e.ratio = e.output_mps2 / std::max(e.input_mps2, k_pop_floor_mps2);
      out.events.push_back(e);
    }
  }
  if (out.events.empty()) return out;
  std::vector<double> ratios;
  for (const LockEventPop& e : out.events) {
    ratios.push_back(e.ratio);
    out.over_limit += e.ratio > k_event_pop_limit ? 1 : 0;
  }
  out.median_ratio = quantile(ratios, 0.5);
  out.worst_ratio = out.worst()->ratio;
  return out;
}

}  // namespace footfix
