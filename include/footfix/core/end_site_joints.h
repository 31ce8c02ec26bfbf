// End Sites as joints: a leg that ends in an End Site (no toe joint, or no foot joint) has its
// contact point there, and everything that works on a leg (rig, contacts, solve, IK, metrics)
// works on joints. So the End Sites become channel-less leaf joints appended to the skeleton
// (Skeleton::end_site_joints), and writers fold them back into End Sites before writing.
#pragma once

#include <string>

#include "footfix/core/clip.h"

namespace footfix {

/// The name of the joint made from the End Site of a joint named `parent`: "<parent> End Site",
/// what the contacts file and inspect call it. A file joint of that very name would come first
/// for Skeleton::find.
std::string end_site_joint_name(const std::string& parent);

/// Appends one leaf joint for the End Site of every joint that has one and no child joint, in
/// joint order. Each new joint's rest offset (and its translation in every frame) is the End Site
/// offset, in the clip's units; its rotation is the identity; its parent's end_sites entry is
/// emptied (the joint holds it now). Returns how many joints were added. The clip must have
/// none yet (end_site_joints == 0).
int add_end_site_joints(Clip& clip);

/// `clip` without its End Site joints: each one's rest offset back in its parent's end_sites
/// entry, the per-frame values of the other joints unchanged. What a writer writes.
Clip fold_end_site_joints(const Clip& clip);

}  // namespace footfix
