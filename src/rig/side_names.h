// Left/right hints from joint names ("LeftUpLeg", "UpperLeg_L", "lThigh", "mixamorig:RightFoot").
#pragma once

#include <optional>
#include <string_view>

#include "footfix/rig/leg_rig.h"

namespace footfix::rig_detail {

/// The side a joint name says, if it says one clearly.
std::optional<Side> side_from_name(std::string_view name);

}  // namespace footfix::rig_detail
