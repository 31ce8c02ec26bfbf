// Units and axes. Internally footfix works in meters, Y up, right-handed. A source clip's frame
// (its unit scale and up axis) is detected or given once on read, converted to the internal
// frame, and converted back on write.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "footfix/core/math.h"

namespace footfix {

enum class Axis { pos_x, neg_x, pos_y, neg_y, pos_z, neg_z };

std::string to_string(Axis a);           ///< "+x", "-y", ...
bool parse_axis(std::string_view s, Axis& out);  ///< accepts x, +x, -x, y, ... (case-insensitive)
Vec3 axis_vector(Axis a);

/// How a source file's coordinates relate to the internal frame.
struct SourceFrame {
  double meters_per_unit = 1.0;  ///< e.g. 0.01 for centimeters, 0.0254 for inches
  Axis up = Axis::pos_y;         ///< the source's up direction
};

Vec3 point_to_internal(const SourceFrame& frame, Vec3 p_source);
/// point_to_internal of each of `points`, in place (the same result, the axes' change worked out
/// once).
void points_to_internal(const SourceFrame& frame, std::span<Vec3> points);
Vec3 point_to_source(const SourceFrame& frame, Vec3 p_internal);
/// A local rotation re-expressed in the internal frame: C q C^-1.
Quat rotation_to_internal(const SourceFrame& frame, Quat q_source);
Quat rotation_to_source(const SourceFrame& frame, Quat q_internal);

/// Common unit scales, meters per unit, that detection chooses from.
struct NamedUnit {
  const char* name;
  double meters_per_unit;
};
const NamedUnit* known_units(int& count);
/// Name of a scale if it is one of the known units ("cm", "inch", "cmu"), else "custom".
std::string unit_name(double meters_per_unit);

}  // namespace footfix
