#include "../core/end_site_trajectory.h"
#include "footfix/core/fk.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

const char* to_string(Side s) { return s == Side::left ? "left" : "right"; }

Vec3 foot_tip_world(const Clip& clip, int frame, const LegChain& leg) {
  if (leg.toe_end >= 0) return joint_world_position(clip, frame, leg.toe_end);
  return end_site_world(clip, frame, leg.contact_joint());
}

void foot_tip_trajectory(const Clip& clip, const LegChain& leg, int first, std::span<Vec3> out) {
  if (leg.toe_end >= 0) {
    joint_trajectory(clip, leg.toe_end, first, out);
    return;
  }
  end_site_trajectory(clip, leg.contact_joint(), first, out);
}

}  // namespace footfix
