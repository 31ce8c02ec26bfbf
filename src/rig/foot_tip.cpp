#include "footfix/core/fk.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

Vec3 foot_tip_world(const Clip& clip, int frame, const LegChain& leg) {
  if (leg.toe_end >= 0) return joint_world(clip, frame, leg.toe_end).translation;
  // end_site_world falls back to the joint itself when it has no end site.
  return end_site_world(clip, frame, leg.contact_joint());
}

}  // namespace footfix
