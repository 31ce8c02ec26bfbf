#include "footfix/rig/pop_measure.h"

#include <algorithm>
#include <cmath>

#include "footfix/core/fk.h"

namespace footfix {

int pop_window_frames(double fps) { return std::max(1, static_cast<int>(std::lround(k_pop_window_s * fps))); }

std::vector<int> pop_tracked_joints(const LegChain& leg) {
  std::vector<int> out{leg.knee, leg.heel};
  if (leg.toe >= 0) out.push_back(leg.toe);
  out.push_back(-1);
  return out;
}

Vec3 pop_tracked_position(const Clip& clip, int frame, const LegChain& leg, int joint) {
  return joint >= 0 ? joint_world_position(clip, frame, joint) : foot_tip_world(clip, frame, leg);
}

}  // namespace footfix
