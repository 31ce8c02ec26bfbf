// Internal to core/: the rotation convert_to_internal (footfix/core/conventions.h) applies,
// declared here for it and its unit test (not installed).
#pragma once

#include "footfix/core/conventions.h"
#include "footfix/core/math.h"

namespace footfix {

/// Rotation that takes source directions to internal ones (source up -> +Y). Identity for +Y.
Quat source_to_internal_basis(Axis up);

}  // namespace footfix
