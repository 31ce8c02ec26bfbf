// The built-in humanoid skeleton of `footfix walk`: 1.75 m tall, meters, Y up, facing +Z, left
// = +X, standard joint names (Hips, LeftUpLeg, LeftLeg, LeftFoot, LeftToeBase, ...). Hip height
// 0.90 m, thigh 0.42 m, shin 0.40 m, ankle 0.08 m above the sole, toe joint 0.13 m ahead of the
// ankle and 0.025 m above the sole, toe tip (end site) 0.07 m ahead of the toe joint.
#pragma once

#include "footfix/core/clip.h"

namespace footfix {

/// A one-frame clip of the humanoid in its rest pose (legs straight down, arms out), 60 fps,
/// source frame meters / Y up, no source data (written with the standard BVH layout).
Clip make_humanoid_clip();

/// Local rotations of the humanoid's relaxed upper body (arms lowered) for frame `frame`
/// of `clip` (a clip made from make_humanoid_clip), written into the clip.
void pose_humanoid_upper_body(Clip& clip, int frame);

}  // namespace footfix
