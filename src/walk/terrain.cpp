#include "footfix/walk/terrain.h"

#include <cmath>
#include <string>

#include "footfix/core/error.h"

namespace footfix {

const char* to_string(TerrainKind k) {
  switch (k) {
    case TerrainKind::flat: return "flat";
    case TerrainKind::slope: return "slope";
    case TerrainKind::hills: return "hills";
    case TerrainKind::stairs: return "stairs";
  }
  return "?";
}

int Terrain::tread_index(double z) const {
  if (kind != TerrainKind::stairs) return 0;
  if (z < stair_start_z_m) return -1;
  const int i = static_cast<int>(std::floor((z - stair_start_z_m) / stair_run_m));
  return i < stair_count ? i : stair_count;
}

double Terrain::height(double x, double z) const {
  switch (kind) {
    case TerrainKind::flat: return base_height_m;
    case TerrainKind::slope: return base_height_m + z * std::tan(slope_deg * k_deg_to_rad);
    case TerrainKind::hills: {
      const double k = 2 * k_pi / hill_wavelength_m;
      return base_height_m + hill_amplitude_m * std::cos(k * x) * std::sin(k * z);
    }
    case TerrainKind::stairs: return base_height_m + (tread_index(z) + 1) * stair_rise_m;
  }
  return base_height_m;
}

Vec3 Terrain::normal(double x, double z) const {
  double dx = 0, dz = 0;  // partial derivatives of the height
  if (kind == TerrainKind::slope) {
    dz = std::tan(slope_deg * k_deg_to_rad);
  } else if (kind == TerrainKind::hills) {
    const double k = 2 * k_pi / hill_wavelength_m;
    dx = -hill_amplitude_m * k * std::sin(k * x) * std::sin(k * z);
    dz = hill_amplitude_m * k * std::cos(k * x) * std::cos(k * z);
  }
  return normalize(Vec3{-dx, 1.0, -dz});
}

void Terrain::validate(const std::string& name) const {
  auto check = [&](bool ok, const char* field, double v, const char* rule) {
    if (!ok || !std::isfinite(v))
      fail(ErrorKind::usage, name + ": " + field + " " + rule + ", got " + std::to_string(v));
  };
  check(std::abs(base_height_m) < 1e4, "base_height_m", base_height_m, "must be finite");
  check(slope_deg > -30 && slope_deg < 30, "slope_deg", slope_deg, "must be within (-30, 30) degrees");
  check(hill_amplitude_m >= 0 && hill_amplitude_m <= 0.5, "amplitude_m", hill_amplitude_m, "must be in [0, 0.5]");
  check(hill_wavelength_m >= 2 && hill_wavelength_m <= 1000, "wavelength_m", hill_wavelength_m, "must be in [2, 1000]");
  check(std::abs(stair_rise_m) <= 0.22, "rise_m", stair_rise_m, "must be in [-0.22, 0.22]");
  check(stair_run_m >= 0.26 && stair_run_m <= 1.0, "run_m", stair_run_m, "must be in [0.26, 1.0]");
  check(std::abs(stair_start_z_m) < 1e4, "start_z_m", stair_start_z_m, "must be finite");
  check(stair_count >= 0 && stair_count <= 1000, "count", stair_count, "must be in [0, 1000]");
  // Hills must stay walkable: the steepest slope is amplitude * 2 pi / wavelength.
  if (kind == TerrainKind::hills)
    check(hill_amplitude_m * 2 * k_pi / hill_wavelength_m <= 0.36, "amplitude_m", hill_amplitude_m,
          "is too steep for its wavelength (amplitude * 2 pi / wavelength must be <= 0.36)");
}

}  // namespace footfix
