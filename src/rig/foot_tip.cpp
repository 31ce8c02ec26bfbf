#include "footfix/core/fk.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

const char* to_string(Side s) { return s == Side::left ? "left" : "right"; }

Vec3 foot_tip_world(const Clip& clip, int frame, const LegChain& leg) {
  if (leg.toe_end >= 0) return joint_world_position(clip, frame, leg.toe_end);
  return end_site_world(clip, frame, leg.contact_joint());
}

JointPoint foot_tip_point(const Clip& clip, const LegChain& leg) {
  if (leg.toe_end >= 0) return {leg.toe_end, std::nullopt};
  return {leg.contact_joint(), clip.skeleton.end_sites[leg.contact_joint()]};
}

}  // namespace footfix
