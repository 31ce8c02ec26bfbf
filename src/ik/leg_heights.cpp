#include "footfix/ik/leg_heights.h"

#include <algorithm>

#include "footfix/core/fk.h"

namespace footfix {

LegHeights leg_heights(const Clip& clip, const LegChain& leg) {
  LegHeights h{1e300, 1e300, 1e300};
  for (int f = 0; f < clip.frame_count; ++f) {
    h.toe_min_m = std::min(h.toe_min_m, joint_world(clip, f, leg.contact_joint()).translation.y);
    h.heel_min_m = std::min(h.heel_min_m, joint_world(clip, f, leg.heel).translation.y);
    h.toe_end_min_m = std::min(h.toe_end_min_m, foot_tip_world(clip, f, leg).y);
  }
  return h;
}

}  // namespace footfix
