// Internal to the library: a joint's end site's world positions over a range of frames, two
// frames at a time (as joint_trajectory does for joints).
#pragma once

#include <span>

#include "footfix/core/clip.h"

namespace footfix {

/// end_site_world(clip, f, joint) for frames [first, first + out.size()), written to `out`: the
/// same positions to the bit (each lane of the paired arithmetic rounds as the scalar code).
void end_site_trajectory(const Clip& clip, int joint, int first, std::span<Vec3> out);

}  // namespace footfix
