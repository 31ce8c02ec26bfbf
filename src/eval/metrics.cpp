#include "footfix/eval/metrics.h"

#include <algorithm>
#include <cmath>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "footfix/core/statistics.h"

namespace footfix {
namespace {

// World positions of the foot joints of one leg (heel, toe if any, tip) for every frame.
std::vector<std::vector<Vec3>> foot_tracks(const Clip& clip, const LegChain& leg) {
  std::vector<std::vector<Vec3>> tracks;
  for (int j : {leg.knee, leg.heel, leg.toe}) {
    if (j < 0) continue;
    tracks.emplace_back(clip.frame_count);
    joint_trajectory(clip, j, tracks.back());
  }
  tracks.emplace_back(clip.frame_count);
  for (int f = 0; f < clip.frame_count; ++f) tracks.back()[f] = foot_tip_world(clip, f, leg);
  return tracks;
}

/// Acceleration magnitude per frame (m/s^2, central differences; 0 at the ends).
std::vector<double> accelerations(const std::vector<Vec3>& track, double fps) {
  std::vector<double> a(track.size(), 0.0);
  for (size_t f = 1; f + 1 < track.size(); ++f) a[f] = length(track[f + 1] - track[f] * 2.0 + track[f - 1]) * fps * fps;
  return a;
}

double max_of(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); }

/// Largest per-frame pop of one joint (see ClipMetrics::pop_ratio); updates `best`/`frame`.
void track_pop(const std::vector<double>& src, const std::vector<double>& out, double fps, double& best, int& frame) {
  const int n = static_cast<int>(src.size());
  const int half = std::max(1, static_cast<int>(std::lround(k_pop_window_s * fps)));
  for (int f = 1; f + 1 < n; ++f) {
    double ref = k_pop_floor_mps2;
    for (int g = std::max(1, f - half); g <= std::min(n - 2, f + half); ++g) ref = std::max(ref, src[g]);
    const double ratio = out[f] / ref;
    if (ratio > best) {
      best = ratio;
      frame = f;
    }
  }
}

}  // namespace

SlideStats contact_slide(const Clip& clip, const Rig& rig, const ContactMask& contact) {
  std::vector<double> per_frame_m;
  for (int s = 0; s < 2; ++s) {
    int j = rig.legs[s].contact_joint();
    std::vector<Vec3> track(clip.frame_count);
    joint_trajectory(clip, j, track);
    const auto& c = contact[s];
    for (int f = 1; f < clip.frame_count && f < static_cast<int>(c.size()); ++f) {
      if (!c[f] || !c[f - 1]) continue;
      Vec3 d = track[f] - track[f - 1];
      d.y = 0;
      per_frame_m.push_back(length(d));
    }
  }
  SlideStats out;
  out.samples = static_cast<int>(per_frame_m.size());
  if (per_frame_m.empty()) return out;
  double sum = 0;
  for (double v : per_frame_m) sum += v;
  out.mean_mm_per_frame = 1000.0 * sum / static_cast<double>(per_frame_m.size());
  out.p95_mm_per_frame = 1000.0 * quantile(per_frame_m, 0.95);
  out.mean_cm_per_s = out.mean_mm_per_frame * 0.1 * clip.fps;
  out.p95_cm_per_s = out.p95_mm_per_frame * 0.1 * clip.fps;
  return out;
}

ClipMetrics compare_clips(const Clip& source, const Clip& cleaned, const Rig& rig, const ContactMask& contact) {
  if (source.frame_count != cleaned.frame_count || source.joint_count() != cleaned.joint_count())
    fail(ErrorKind::process, "metrics: the clips differ in frame or joint count");
  ClipMetrics m;
  m.source_slide = contact_slide(source, rig, contact);
  m.cleaned_slide = contact_slide(cleaned, rig, contact);

  for (const auto& leg : rig.legs) {
    auto src = foot_tracks(source, leg), out = foot_tracks(cleaned, leg);
    for (size_t t = 0; t < src.size(); ++t) {
      const std::vector<double> a_src = accelerations(src[t], source.fps), a_out = accelerations(out[t], cleaned.fps);
      m.source_max_leg_accel = std::max(m.source_max_leg_accel, max_of(a_src));
      m.cleaned_max_leg_accel = std::max(m.cleaned_max_leg_accel, max_of(a_out));
      track_pop(a_src, a_out, source.fps, m.pop_ratio, m.pop_frame);
      if (t == 0) continue;  // the knee is not a foot joint for penetration
      double floor = 1e300, lowest = 1e300;
      for (const auto& p : src[t]) floor = std::min(floor, p.y);
      for (const auto& p : out[t]) lowest = std::min(lowest, p.y);
      m.max_new_penetration_mm = std::max(m.max_new_penetration_mm, 1000.0 * (floor - lowest));
    }
  }
  m.leg_accel_ratio = m.source_max_leg_accel > 0 ? m.cleaned_max_leg_accel / m.source_max_leg_accel : 0;

  if (rig.translation_joint >= 0 && rig.translation_joint < source.joint_count()) {
    std::vector<Vec3> a(source.frame_count), b(source.frame_count);
    joint_trajectory(source, rig.translation_joint, a);
    joint_trajectory(cleaned, rig.translation_joint, b);
    for (int f = 0; f < source.frame_count; ++f) m.max_pelvis_drop_cm = std::max(m.max_pelvis_drop_cm, 100.0 * (a[f].y - b[f].y));
  }

  const int joints = source.joint_count();
  std::vector<Transform> ws(joints), wc(joints);
  double sum = 0;
  for (int f = 0; f < source.frame_count; ++f) {
    world_pose(source, f, ws);
    world_pose(cleaned, f, wc);
    for (int j = 0; j < joints; ++j) {
      double d = 100.0 * length(ws[j].translation - wc[j].translation);
      sum += d;
      m.max_deviation_cm = std::max(m.max_deviation_cm, d);
    }
  }
  m.mean_deviation_cm = source.frame_count > 0 ? sum / (static_cast<double>(source.frame_count) * joints) : 0;

  for (int j = 0; j < joints; ++j) {
    bool solved = j == rig.translation_joint;
    for (const auto& leg : rig.legs)
      solved = solved || j == leg.hip || j == leg.knee || j == leg.heel || j == leg.toe;
    if (solved) continue;
    for (int f = 0; f < source.frame_count; ++f) {
      if (angle_of(inverse(source.rotation(f, j)) * cleaned.rotation(f, j)) > k_unchanged_tolerance ||
          length(source.translation(f, j) - cleaned.translation(f, j)) > k_unchanged_tolerance) {
        m.changed_non_leg_joints.push_back(source.skeleton.names[j]);
        break;
      }
    }
  }
  return m;
}

}  // namespace footfix
