#include "footfix/core/conventions.h"

#include <cctype>
#include <cmath>

#include "source_basis.h"

namespace footfix {

std::string to_string(Axis a) {
  static const char* k_names[] = {"+x", "-x", "+y", "-y", "+z", "-z"};
  return k_names[static_cast<int>(a)];
}

bool parse_axis(std::string_view s, Axis& out) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.size() != 1) return false;
  switch (std::tolower(static_cast<unsigned char>(s[0]))) {
    case 'x': out = negative ? Axis::neg_x : Axis::pos_x; return true;
    case 'y': out = negative ? Axis::neg_y : Axis::pos_y; return true;
    case 'z': out = negative ? Axis::neg_z : Axis::pos_z; return true;
    default: return false;
  }
}

Vec3 axis_vector(Axis a) {
  switch (a) {
    case Axis::pos_x: return {1, 0, 0};
    case Axis::neg_x: return {-1, 0, 0};
    case Axis::pos_y: return {0, 1, 0};
    case Axis::neg_y: return {0, -1, 0};
    case Axis::pos_z: return {0, 0, 1};
    case Axis::neg_z: return {0, 0, -1};
  }
  return {0, 1, 0};
}

Quat source_to_internal_basis(Axis up) {
  if (up == Axis::pos_y) return {};
  return rotation_between(axis_vector(up), Vec3{0, 1, 0});
}

Vec3 point_to_internal(const SourceFrame& frame, Vec3 p_source) {
  return rotate(source_to_internal_basis(frame.up), p_source) * frame.meters_per_unit;
}

void points_to_internal(const SourceFrame& frame, std::span<Vec3> points) {
  const Quat basis = source_to_internal_basis(frame.up);
  for (Vec3& p : points) p = rotate(basis, p) * frame.meters_per_unit;
}

Vec3 point_to_source(const SourceFrame& frame, Vec3 p_internal) {
  return rotate(inverse(source_to_internal_basis(frame.up)), p_internal / frame.meters_per_unit);
}

Quat rotation_to_internal(const SourceFrame& frame, Quat q_source) {
  if (frame.up == Axis::pos_y) return q_source;
  Quat c = source_to_internal_basis(frame.up);
  return c * q_source * inverse(c);
}

Quat rotation_to_source(const SourceFrame& frame, Quat q_internal) {
  if (frame.up == Axis::pos_y) return q_internal;
  Quat c = source_to_internal_basis(frame.up);
  return inverse(c) * q_internal * c;
}

const NamedUnit* known_units(int& count) {
  static const NamedUnit k_units[] = {
      {"m", 1.0},      {"cm", 0.01},     {"mm", 0.001},
      {"inch", 0.0254}, {"foot", 0.3048}, {"cmu", 0.056444},
  };
  count = static_cast<int>(sizeof(k_units) / sizeof(k_units[0]));
  return k_units;
}

std::string unit_name(double meters_per_unit) {
  int n = 0;
  const NamedUnit* units = known_units(n);
  for (int i = 0; i < n; ++i)
    if (std::abs(units[i].meters_per_unit - meters_per_unit) <= 1e-9 * meters_per_unit)
      return units[i].name;
  return "custom";
}

}  // namespace footfix
