// Synthetic two-leg clips with known contacts for contact-annotation tests: each toe is held
// exactly still during stance and swings forward (smoothstep) with a sine lift during swing,
// while the pelvis moves forward at constant speed. The legs are pure translations, so the toe
// goes exactly where the gait puts it.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"

namespace footfix::test {

struct SyntheticGait {
  double fps = 60;
  double duration_s = 4.0;
  double cycle_s = 1.0;          ///< one stride (both steps)
  double stance_fraction = 0.6;  ///< of the cycle each toe is planted
  double speed_mps = 1.2;        ///< pelvis forward (+Z) speed
  double lift_m = 0.12;          ///< swing height of the toe
  double toe_height_m = 0.03;    ///< toe joint height when planted
  /// Optional extra height of the ground under the toe at stride `c` (stairs); may be empty.
  std::function<double(int)> step_height_m;
};

struct SyntheticClip {
  Clip clip;
  Rig rig;
  std::array<std::vector<std::uint8_t>, 2> expected;  ///< per side: 1 where the toe is still
};

inline double smoothstep(double u) { return u * u * (3 - 2 * u); }

/// Toe position of one foot at time t (s); sets `planted`.
inline Vec3 synthetic_toe(const SyntheticGait& g, double t, double phase_offset, double lateral_m, bool& planted) {
  double cycles = t / g.cycle_s + phase_offset;
  int c = static_cast<int>(std::floor(cycles));
  double phase = cycles - c;
  double stride = g.speed_mps * g.cycle_s;
  auto ground = [&](int k) { return g.toe_height_m + (g.step_height_m ? g.step_height_m(k) : 0.0); };
  planted = phase <= g.stance_fraction;
  double z = c * stride - phase_offset * stride, y = ground(c);
  if (!planted) {
    double u = (phase - g.stance_fraction) / (1 - g.stance_fraction);
    z += stride * smoothstep(u);
    y = ground(c) + (ground(c + 1) - ground(c)) * smoothstep(u) + g.lift_m * std::sin(k_pi * u);
  }
  return {lateral_m, y, z};
}

/// Builds the clip. Frame times are offset by 1/240 s so no frame falls on a phase boundary.
inline SyntheticClip make_synthetic_walk(const SyntheticGait& g) {
  SyntheticClip out;
  Skeleton& sk = out.clip.skeleton;
  int hips = sk.add_joint("Hips", -1, {0, 0.95, 0});
  const Vec3 k_leg_below_hip{0, -0.87, 0.05};  // sum of the offsets below the UpLeg joint
  for (int s = 0; s < 2; ++s) {
    const char* p = s == 0 ? "Left" : "Right";
    double x = s == 0 ? 0.1 : -0.1;
    LegChain& leg = out.rig.legs[s];
    leg.hip = sk.add_joint(std::string(p) + "UpLeg", hips, {x, -0.05, 0});
    leg.knee = sk.add_joint(std::string(p) + "Leg", leg.hip, {0, -0.42, 0});
    leg.heel = sk.add_joint(std::string(p) + "Foot", leg.knee, {0, -0.40, -0.05});
    leg.toe = sk.add_joint(std::string(p) + "ToeBase", leg.heel, {0, -0.05, 0.10});
  }
  out.rig.pelvis = hips;
  out.rig.translation_joint = hips;
  out.clip.fps = g.fps;
  out.clip.source_name = "synthetic.bvh";
  int frames = static_cast<int>(std::lround(g.duration_s * g.fps));
  out.clip.resize(frames);
  for (auto& e : out.expected) e.assign(static_cast<size_t>(frames), 0);
  for (int f = 0; f < frames; ++f) {
    double t = f / g.fps + 1.0 / 240.0;
    Vec3 hip_pos{0, 0.95, g.speed_mps * t};
    out.clip.translation(f, hips) = hip_pos;
    for (int s = 0; s < 2; ++s) {
      bool planted = false;
      Vec3 toe = synthetic_toe(g, t, s == 0 ? 0.0 : 0.5, s == 0 ? 0.1 : -0.1, planted);
      out.expected[s][f] = planted ? 1 : 0;
      // hips + upleg translation + fixed offsets below = toe
      out.clip.translation(f, out.rig.legs[s].hip) = toe - hip_pos - k_leg_below_hip;
    }
  }
  return out;
}

/// Frames on which two per-frame contact signals of both feet agree, as a fraction.
inline double frame_agreement(const std::array<std::vector<std::uint8_t>, 2>& a,
                              const std::array<std::vector<std::uint8_t>, 2>& b) {
  size_t same = 0, total = 0;
  for (int s = 0; s < 2; ++s)
    for (size_t f = 0; f < a[s].size() && f < b[s].size(); ++f, ++total) same += a[s][f] == b[s][f];
  return total ? static_cast<double>(same) / total : 0.0;
}

}  // namespace footfix::test
