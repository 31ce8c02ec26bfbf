// Internal to gltf/: one glTF animation sampler (key times and output values) evaluated at any
// time, as the specification interpolates it (LINEAR: lerp / slerp for rotations, STEP,
// CUBICSPLINE: Hermite with the stored tangents, rotations normalized). Before the first key the
// first value holds, after the last the last.
#pragma once

#include <string>
#include <vector>

#include "footfix/core/math.h"

namespace footfix::gltf {

enum class Interpolation { linear, step, cubic };

struct Sampler {
  Interpolation interpolation = Interpolation::linear;
  int components = 0;         ///< 3 or 4 (rotation: x, y, z, w as stored)
  std::vector<float> times;   ///< seconds, non-decreasing
  std::vector<float> values;  ///< per key: components values (CUBICSPLINE: in-tangent, value, out-tangent)

  Vec3 vec3_at(double t) const;
  Quat quat_at(double t) const;
};

/// "LINEAR" / "STEP" / "CUBICSPLINE"; false for anything else.
bool parse_interpolation(const std::string& text, Interpolation& out);

}  // namespace footfix::gltf
