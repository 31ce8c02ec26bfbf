// Unit and up-axis detection of a clip still in its file's frame.
//
// The unit comes from the leg length (hip to ankle, both legs averaged): a unit is plausible
// when it puts that length in [k_min_leg_m, k_max_leg_m] (a small child to a tall stylised
// character). Centimetres and inches differ by only 2.54x, inches and CMU units by 2.2x, so a
// short cm leg (40-47 cm) is also a plausible inch leg. When several units are plausible the
// file's own hints decide: a declared unit (FBX UnitScaleFactor), else the naming convention of
// a known BVH source tool; without a hint the unit closest to a typical adult leg is taken and
// a warning names the alternatives and --unit-scale. When that still gives no usual adult leg
// (0.65-1.05 m) and the unit is not metres or centimetres alone, the body sets the scale: a
// custom unit that makes the leg 0.85 m, so every threshold scales with the body. The up axis
// is the axis nearest the body's mean up (pelvis above the feet); a warning names --up when
// that is far from every axis.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "footfix/rig/leg_rig.h"
#include "rig_geometry.h"
#include "unit_detection.h"

namespace footfix {
namespace {

constexpr double k_typical_leg_length_m = 0.85;  // hip to ankle of an adult
constexpr double k_min_leg_m = 0.40;             // a young child
constexpr double k_max_leg_m = 1.20;             // a tall or stylised character
// A unit that gives a leg outside this range (m) is no usual body: the body sets the scale.
constexpr double k_usual_min_leg_m = 0.65;
constexpr double k_usual_max_leg_m = 1.05;
// The body's mean up (pelvis minus feet) within 30 degrees of an axis is that axis without doubt:
// people lean a few degrees walking, crouch or crawl a clip at most partly.
constexpr double k_min_cos_up_off_axis = 0.866;

/// A BVH source tool recognised by a joint name, and the unit it writes.
struct ToolHint {
  const char* joint;  ///< a joint name only that tool's skeletons have
  const char* tool;
  double meters_per_unit;
};
// CMU conversions (cgspeed's MotionBuilder- and 3dsMax-friendly sets) keep the CMU unit and add
// LHipJoint; Bandai Namco's dataset roots at joint_Root and writes cm; Mixamo writes cm.
constexpr ToolHint k_tool_hints[] = {
    {"LHipJoint", "CMU", 0.056444},
    {"joint_Root", "Bandai Namco", 0.01},
    {"mixamorig:Hips", "Mixamo", 0.01},
};

Axis axis_of(Vec3 unit) {
  if (unit.x > 0.5) return Axis::pos_x;
  if (unit.x < -0.5) return Axis::neg_x;
  if (unit.y > 0.5) return Axis::pos_y;
  if (unit.y < -0.5) return Axis::neg_y;
  if (unit.z > 0.5) return Axis::pos_z;
  return Axis::neg_z;
}

double leg_length_units(const Clip& clip, const Rig& rig) {
  double total = 0;
  for (const auto& leg : rig.legs)
    total += 0.5 * (length(clip.translation(0, leg.knee)) + length(clip.translation(0, leg.heel)));
  return total;
}

bool same_unit(double a, double b) { return std::abs(a - b) <= 1e-9 * b; }

std::string describe(double leg_units, double meters_per_unit) {
  char text[96];
  std::snprintf(text, sizeof text, "%s (leg %.2f m)", unit_name(meters_per_unit).c_str(),
                leg_units * meters_per_unit);
  return text;
}

}  // namespace

std::vector<double> plausible_units(double leg_length_units) {
  std::vector<double> out;
  int count = 0;
  const NamedUnit* units = known_units(count);
  for (int i = 0; i < count; ++i) {
    const double leg_m = leg_length_units * units[i].meters_per_unit;
    if (leg_m >= k_min_leg_m && leg_m <= k_max_leg_m) out.push_back(units[i].meters_per_unit);
  }
  return out;
}

SourceFrame detect_source_frame(const Clip& source_clip, const Rig& rig, std::vector<std::string>* warnings,
                                std::vector<std::string>* up_warnings) {
  const double leg = leg_length_units(source_clip, rig);
  SourceFrame frame = source_clip.source_frame;
  auto warn = [&](const std::string& message) {
    if (warnings) warnings->push_back(message);
  };
  if (leg > 0 && std::isfinite(leg)) {
    const std::vector<double> candidates = plausible_units(leg);
    auto is_candidate = [&](double unit) {
      for (double c : candidates)
        if (same_unit(c, unit)) return true;
      return false;
    };
    if (source_clip.source_frame_declared) {
      // The file states its unit: keep it, but say so when it gives an implausible leg.
      if (!is_candidate(frame.meters_per_unit))
        warn("the declared unit gives an unusual leg length: " + describe(leg, frame.meters_per_unit) +
             "; pass --unit-scale METERS_PER_UNIT if it is wrong");
    } else {
      const ToolHint* hint = nullptr;
      for (const ToolHint& h : k_tool_hints)
        if (source_clip.skeleton.find(h.joint) >= 0 && is_candidate(h.meters_per_unit)) hint = &h;
      // Without a hint: the known unit whose leg is closest to a typical adult's (log scale).
      int count = 0;
      const NamedUnit* units = known_units(count);
      double best = 1e300;
      for (int i = 0; i < count; ++i) {
        if (!candidates.empty() && !is_candidate(units[i].meters_per_unit)) continue;
        const double miss = std::abs(std::log(leg * units[i].meters_per_unit / k_typical_leg_length_m));
        if (miss < best) {
          best = miss;
          frame.meters_per_unit = units[i].meters_per_unit;
        }
      }
      if (hint) frame.meters_per_unit = hint->meters_per_unit;
      const double leg_m = leg * frame.meters_per_unit;
      // Metres and centimetres, what nearly every exporter writes, are taken at their word when
      // they alone fit (a child's 50 cm leg stays 50 cm).
      const bool sure = candidates.size() == 1 && (same_unit(candidates[0], 1.0) || same_unit(candidates[0], 0.01));
      if (!hint && !sure && (leg_m < k_usual_min_leg_m || leg_m > k_usual_max_leg_m)) {
        // No unit gives a usual body with any certainty: the body itself sets the scale, so every
        // threshold (in meters) scales with the leg and not with a guessed unit.
        const double closest = frame.meters_per_unit;
        frame.meters_per_unit = k_typical_leg_length_m / leg;
        char scale[64];
        std::snprintf(scale, sizeof scale, "%.6g m per file unit", frame.meters_per_unit);
        std::string options;
        for (double c : candidates) options += (options.empty() ? "" : ", ") + describe(leg, c);
        warn(std::string(candidates.size() > 1 ? "ambiguous unit: " : "") + "no common unit gives a usual leg length (" +
             (options.empty() ? "the closest, " + describe(leg, closest) : options) + "): the body is scaled to an adult's leg of " + std::to_string(k_typical_leg_length_m).substr(0, 4) +
             " m (" + scale + "), so thresholds scale with it; pass --unit-scale METERS_PER_UNIT if it is wrong");
      } else if (candidates.size() > 1 && !hint) {
        std::string options;
        for (double c : candidates) options += (options.empty() ? "" : ", ") + describe(leg, c);
        warn("ambiguous unit: the leg length fits " + options + "; assumed " +
             unit_name(frame.meters_per_unit) + ", pass --unit-scale METERS_PER_UNIT (e.g. 0.01 for cm, 0.0254 " +
             "for inches) if it is wrong");
      }
    }
  }
  if (!source_clip.source_frame_declared) {
    auto poses = rig_detail::sample_poses(source_clip, 64);
    const Vec3 body_up = rig_detail::body_up_sum(poses, rig.pelvis, rig.legs[0].heel, rig.legs[1].heel);
    const Vec3 axis = rig_detail::nearest_axis(body_up);
    frame.up = axis_of(axis);
    const double cos_off_axis = length(body_up) > 0 ? dot(body_up, axis) / length(body_up) : 0;
    if (up_warnings && cos_off_axis < k_min_cos_up_off_axis) {
      char degrees[32];
      std::snprintf(degrees, sizeof degrees, "%.0f", std::acos(std::clamp(cos_off_axis, -1.0, 1.0)) * 180 / k_pi);
      up_warnings->push_back(std::string("ambiguous up axis: the body (pelvis above the feet) leans ") + degrees +
                             " degrees off every axis; assumed " + to_string(frame.up) +
                             ", pass --up AXIS (x, y, z, -x, -y, -z) if it is wrong");
    }
  }
  return frame;
}

}  // namespace footfix
