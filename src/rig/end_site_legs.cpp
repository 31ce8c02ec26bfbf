#include <exception>

#include "footfix/core/end_site_joints.h"
#include "footfix/core/error.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {
namespace {

bool has_toe(const std::optional<Rig>& rig, int side) { return rig && rig->legs[side].toe >= 0; }

// Whether the legs found with End Site joints are the ones found without, carried to their End
// Sites: each leg without a toe joint now ends in an End Site joint, below the joint it ended
// in before (when the legs were found before).
bool reaches_end_sites(const Skeleton& sk, const Rig& with, const std::optional<Rig>& without) {
  bool any = false;
  for (int s = 0; s < 2; ++s) {
    const int contact = with.legs[s].contact_joint();
    if (!sk.is_end_site_joint(contact)) {
      if (with.legs[s].toe < 0) return false;
      continue;
    }
    if (without && !has_toe(without, s) && sk.parents[contact] != without->legs[s].heel) return false;
    any = true;
  }
  return any;
}

}  // namespace

Rig find_legs_reaching_end_sites(Clip& clip, const RigProfile* profile) {
  std::optional<Rig> rig;
  std::exception_ptr failure;
  try {
    rig = find_legs(clip, profile);
  } catch (const Error&) {
    failure = std::current_exception();
  }
  if (has_toe(rig, 0) && has_toe(rig, 1)) return *rig;
  Clip with_sites = clip;
  if (add_end_site_joints(with_sites) > 0) {
    try {
      Rig found = find_legs(with_sites, profile);
      if (reaches_end_sites(with_sites.skeleton, found, rig)) {
        clip = std::move(with_sites);
        return found;
      }
    } catch (const Error&) {
      // no legs with End Sites either: what was found without them stands
    }
  }
  if (failure) std::rethrow_exception(failure);
  return *rig;
}

}  // namespace footfix
