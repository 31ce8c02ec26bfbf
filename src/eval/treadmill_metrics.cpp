#include "footfix/eval/treadmill_metrics.h"

#include <cmath>
#include <vector>

#include "footfix/core/fk.h"

namespace footfix {
namespace {

double horizontal(Vec3 v) { return std::hypot(v.x, v.z); }

}  // namespace

TreadmillSlide treadmill_slide(const Clip& clip, const Rig& rig, const ContactMask& contact) {
  std::vector<Vec3> steps;
  for (int s = 0; s < 2; ++s) {
    std::vector<Vec3> track(clip.frame_count);
    joint_trajectory(clip, rig.legs[s].contact_joint(), track);
    const auto& c = contact[s];
    for (int f = 1; f < clip.frame_count && f < static_cast<int>(c.size()); ++f)
      if (c[f] && c[f - 1]) steps.push_back(track[f] - track[f - 1]);
  }
  TreadmillSlide out;
  out.samples = static_cast<int>(steps.size());
  if (steps.empty()) return out;
  Vec3 mean;
  for (const Vec3& d : steps) mean += Vec3{d.x, 0, d.z};
  mean = mean / static_cast<double>(steps.size());
  double sum = 0;
  for (const Vec3& d : steps) sum += horizontal(d - mean);
  out.ground_velocity_mps = mean * clip.fps;
  out.mean_mm_per_frame = 1000.0 * sum / static_cast<double>(steps.size());
  return out;
}

RootStray root_stray(const Clip& source, const Clip& cleaned, const Rig& rig) {
  RootStray out;
  const int n = std::min(source.frame_count, cleaned.frame_count);
  if (n < 1) return out;
  std::vector<Vec3> a(n), b(n);
  joint_trajectory(source, rig.translation_joint, a);
  joint_trajectory(cleaned, rig.translation_joint, b);
  double sum = 0;
  for (int f = 0; f < n; ++f) sum += horizontal(b[f] - a[f]);
  out.mean_horizontal_deviation_m = sum / n;
  out.end_to_end_drift_m = horizontal((b[n - 1] - b[0]) - (a[n - 1] - a[0]));
  out.loop_gap_change_m = horizontal(b[n - 1] - b[0]) - horizontal(a[n - 1] - a[0]);
  return out;
}

}  // namespace footfix
