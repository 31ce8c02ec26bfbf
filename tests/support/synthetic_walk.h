// A synthetic straight walk as offline-solve input (no clip, no files): pelvis and toe
// trajectories in meters, Y up, walking along +Z, with exact contact flags. Scaling the pelvis'
// forward motion by `slide_scale` drags the whole body, feet included, the standard way of
// making a clip slide (eval/sliding.h): with slide_scale = 1 the toes are perfectly still
// during contacts. Header-only, shared by tests and bench/bench_offline_solve.cpp.
#pragma once

#include <cmath>
#include <vector>

#include "footfix/solve/offline_solve.h"

namespace footfix::test {

struct SyntheticWalk {
  int frames = 600;
  double fps = 60;
  double speed_mps = 1.4;          ///< clean forward speed
  double period_s = 1.1;           ///< one full gait cycle (two steps)
  double contact_fraction = 0.6;   ///< share of the cycle each foot is planted
  double contact_height_m = 0.04;  ///< toe height while planted
  double lift_m = 0.1;             ///< toe lift in the middle of a swing
  double slide_scale = 1.25;       ///< pelvis forward motion scale (1 = clean)

  /// Forward toe offset from the foot's plant: plants sit half a contact ahead of the pelvis.
  double stride_m() const { return speed_mps * period_s; }
  /// Phase of leg `leg` in [0, 1) at time t; contact while phase < contact_fraction.
  double phase(int leg, double t) const {
    double p = t / period_s + 0.5 * leg + 0.2;
    return p - std::floor(p);
  }
  bool in_contact(int leg, double t) const { return phase(leg, t) < contact_fraction; }

  OfflineSolveInput make() const {
    OfflineSolveInput in;
    in.frame_count = frames;
    in.fps = fps;
    in.pelvis_ws.resize(frames);
    for (int leg = 0; leg < 2; ++leg) {
      in.toe_ws[leg].resize(frames);
      in.contact[leg].resize(frames);
      in.contact_height_m[leg].assign(frames, contact_height_m);
      in.toe_min_height_m[leg] = contact_height_m;
    }
    const double c = contact_fraction;
    for (int i = 0; i < frames; ++i) {
      const double t = i / fps;
      const double slide = (slide_scale - 1) * speed_mps * t;
      in.pelvis_ws[i] = {0.0, 0.92 + 0.02 * std::cos(4 * k_pi * t / period_s),
                         speed_mps * t + slide};
      for (int leg = 0; leg < 2; ++leg) {
        const double ph = phase(leg, t);
        const double cycle_start = t - ph * period_s;  // start of this leg's current contact
        // Clean plant of the current cycle: under the pelvis at mid-contact.
        const double plant = speed_mps * (cycle_start + 0.5 * c * period_s);
        Vec3 toe{leg == 0 ? 0.1 : -0.1, contact_height_m, plant};
        if (ph >= c) {  // swing to the next plant with a smooth step and a lift
          const double s = (ph - c) / (1 - c);
          const double smooth = s * s * (3 - 2 * s);
          toe.z = plant + stride_m() * smooth;
          toe.y += lift_m * std::sin(k_pi * s);
        }
        toe.z += slide;
        in.toe_ws[leg][i] = toe;
        in.contact[leg][i] = in_contact(leg, t) ? 1 : 0;
      }
    }
    return in;
  }
};

/// Contact intervals [first, last] of one leg (frames), of at least `min_len` frames.
inline std::vector<std::pair<int, int>> contact_intervals(const std::vector<uint8_t>& c,
                                                          int min_len = 2) {
  std::vector<std::pair<int, int>> out;
  const int n = static_cast<int>(c.size());
  for (int i = 0; i < n;) {
    if (!c[i]) {
      ++i;
      continue;
    }
    int j = i;
    while (j + 1 < n && c[j + 1]) ++j;
    if (j - i + 1 >= min_len) out.push_back({i, j});
    i = j + 1;
  }
  return out;
}

/// Largest distance of a point of [first, last] from the interval's first point, per interval,
/// maximised over the leg's intervals (the residual slide, meters).
inline double max_contact_slide_m(const std::vector<Vec3>& toe, const std::vector<uint8_t>& c) {
  double m = 0;
  for (auto [a, b] : contact_intervals(c))
    for (int i = a; i <= b; ++i) m = std::max(m, length(toe[i] - toe[a]));
  return m;
}

}  // namespace footfix::test
