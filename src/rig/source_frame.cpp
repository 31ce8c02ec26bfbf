#include <cmath>

#include "footfix/rig/leg_rig.h"
#include "rig_geometry.h"

namespace footfix {
namespace {

constexpr double k_typical_leg_length_m = 0.85;  // hip to ankle of an adult

Axis axis_of(Vec3 unit) {
  if (unit.x > 0.5) return Axis::pos_x;
  if (unit.x < -0.5) return Axis::neg_x;
  if (unit.y > 0.5) return Axis::pos_y;
  if (unit.y < -0.5) return Axis::neg_y;
  if (unit.z > 0.5) return Axis::pos_z;
  return Axis::neg_z;
}

}  // namespace

SourceFrame detect_source_frame(const Clip& source_clip, const Rig& rig) {
  double leg_length = 0;
  for (const auto& leg : rig.legs)
    leg_length += 0.5 * (length(source_clip.translation(0, leg.knee)) + length(source_clip.translation(0, leg.heel)));
  SourceFrame frame;
  if (leg_length > 0 && std::isfinite(leg_length)) {
    int count = 0;
    const NamedUnit* units = known_units(count);
    double best = 1e300;
    for (int i = 0; i < count; ++i) {
      double miss = std::abs(std::log(leg_length * units[i].meters_per_unit / k_typical_leg_length_m));
      if (miss < best) {
        best = miss;
        frame.meters_per_unit = units[i].meters_per_unit;
      }
    }
  }
  auto poses = rig_detail::sample_poses(source_clip, 64);
  frame.up = axis_of(rig_detail::dominant_up(poses, rig.pelvis, rig.legs[0].heel, rig.legs[1].heel));
  return frame;
}

}  // namespace footfix
