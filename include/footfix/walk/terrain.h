// Terrain for the procedural walk: a height field y = height(x, z) over the ground plane, in
// meters, Y up (the internal frame), with its unit normal. The walk heads along +Z, so slopes
// and stairs climb along +Z (stairs with a negative rise go down along +Z).
#pragma once

#include <string>

#include "footfix/core/math.h"

namespace footfix {

enum class TerrainKind { flat, slope, hills, stairs };
const char* to_string(TerrainKind k);

struct Terrain {
  TerrainKind kind = TerrainKind::flat;
  double base_height_m = 0;    ///< height of the ground at the origin / below the stairs
  double slope_deg = 0;        ///< slope: rises along +Z by tan(slope_deg) per meter
  double hill_amplitude_m = 0.12;   ///< hills: height = A cos(2 pi x / L) sin(2 pi z / L)
  double hill_wavelength_m = 5.0;
  double stair_rise_m = 0.15;  ///< stairs: step height (negative: each tread lower than the last)
  double stair_run_m = 0.32;   ///< stairs: tread depth along +Z
  double stair_start_z_m = 1.0;  ///< stairs: z of the first riser (flat ground before it)
  int stair_count = 12;        ///< stairs: number of steps, then a flat landing

  /// Ground height at (x, z), meters.
  double height(double x, double z) const;
  /// Unit normal at (x, z) (pointing up; +Y on stair treads).
  Vec3 normal(double x, double z) const;
  /// Stairs: index of the tread containing z (-1 before the first riser, stair_count on the
  /// landing); other kinds: 0.
  int tread_index(double z) const;
  /// Stairs: z range [begin, end) of tread i (-1: the ground before, stair_count: the landing).
  double tread_begin_z(int i) const { return stair_start_z_m + i * stair_run_m; }
  /// Throws Error(usage) naming the bad field when a parameter is out of range.
  void validate(const std::string& name) const;
};

/// A terrain from a short name: "flat", "slope" or "slope:DEG", "hills", "stairs" or
/// "stairs:RISE:RUN" (meters), "stairs-down" or "stairs-down:RISE:RUN" (the same stairs going
/// down along +Z: a negative rise), or else a JSON file (schemas/terrain.schema.json, or the
/// <name>.terrain.json `footfix walk` writes: format footfix-walk-terrain). Throws
/// Error(usage) for a bad name or value, Error(read) for an unreadable file.
Terrain parse_terrain_spec(const std::string& spec);
/// Parses terrain JSON text (a terrain object, or a footfix-walk-terrain document holding one
/// under "terrain"); `name` prefixes messages with the JSON path of a bad value.
Terrain parse_terrain_json(const std::string& text, const std::string& name);
/// The terrain as JSON text (the same keys parse_terrain_json reads), one object.
std::string terrain_to_json_text(const Terrain& terrain);

}  // namespace footfix
