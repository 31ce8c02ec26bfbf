#include "footfix/walk/gait_figures.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "footfix/core/fk.h"

namespace footfix {
namespace {

constexpr Vec3 k_up{0, 1, 0};
constexpr double k_accel_step_s = 1.0 / 30;

double angle_between(Vec3 a, Vec3 b) {
  const double c = dot(a, b) / std::max(1e-12, length(a) * length(b));
  return std::acos(std::clamp(c, -1.0, 1.0)) * k_rad_to_deg;
}

std::vector<Vec3> trajectory(const Clip& clip, int joint) {
  std::vector<Vec3> out(clip.frame_count);
  joint_trajectory(clip, joint, out);
  return out;
}

/// Shin-to-foot angle of `leg` in the rest pose, degrees.
double rest_ankle_angle(const Skeleton& s, const LegChain& leg) {
  return angle_between(-s.rest_offsets[leg.heel], s.rest_offsets[leg.toe]);
}

/// Largest second difference over k_accel_step_s (the same time step at every frame rate, so
/// clips captured at 30 and 120 Hz compare).
double peak_accel(const std::vector<Vec3>& p, double fps, bool vertical_only) {
  const size_t k = std::max<size_t>(1, static_cast<size_t>(std::lround(k_accel_step_s * fps)));
  const double h = k / fps;
  double peak = 0;
  for (size_t i = k; i + k < p.size(); ++i) {
    const Vec3 a = (p[i + k] - 2.0 * p[i] + p[i - k]) / (h * h);
    peak = std::max(peak, vertical_only ? std::abs(a.y) : length(a));
  }
  return peak;
}

/// Contact intervals with a contact before and after them (a whole stance inside the clip).
std::vector<ContactInterval> inner_stances(const FootContacts& foot) {
  std::vector<ContactInterval> out;
  for (size_t i = 1; i + 1 < foot.intervals.size(); ++i) out.push_back(foot.intervals[i]);
  return out;
}

double min_over(const std::vector<double>& v, int a, int b) {
  double m = std::numeric_limits<double>::infinity();
  for (int i = std::max(a, 0); i <= std::min(b, static_cast<int>(v.size()) - 1); ++i) m = std::min(m, v[i]);
  return m;
}
double max_over(const std::vector<double>& v, int a, int b) {
  std::vector<double> neg(v.size());
  std::transform(v.begin(), v.end(), neg.begin(), [](double x) { return -x; });
  return -min_over(neg, a, b);
}

}  // namespace

std::vector<double> mean_gait_cycle(const std::vector<double>& curve, const FootContacts& foot, int samples) {
  std::vector<double> mean(samples, 0.0);
  int cycles = 0;
  for (size_t i = 0; i + 1 < foot.intervals.size(); ++i) {
    const int a = foot.intervals[i].first_frame, b = foot.intervals[i + 1].first_frame;
    if (a == 0 || b <= a || b >= static_cast<int>(curve.size())) continue;
    for (int k = 0; k < samples; ++k) {
      const double x = a + (b - a) * static_cast<double>(k) / (samples - 1);
      const int i0 = std::min(static_cast<int>(x), b - 1);
      const double w = x - i0;
      mean[k] += curve[i0] * (1 - w) + curve[i0 + 1] * w;
    }
    ++cycles;
  }
  if (cycles == 0) return {};
  for (double& v : mean) v /= cycles;
  return mean;
}

double contact_f1(const FootContacts& truth, const FootContacts& detected) {
  long tp = 0, fp = 0, fn = 0;
  const size_t n = std::min(truth.contact.size(), detected.contact.size());
  for (size_t f = 0; f < n; ++f) {
    tp += truth.contact[f] && detected.contact[f];
    fp += !truth.contact[f] && detected.contact[f];
    fn += truth.contact[f] && !detected.contact[f];
  }
  return tp == 0 ? 0.0 : 2.0 * static_cast<double>(tp) / static_cast<double>(2 * tp + fp + fn);
}

double rms_difference(const std::vector<double>& a, const std::vector<double>& b, bool remove_offset) {
  if (a.size() != b.size() || a.empty()) return std::numeric_limits<double>::quiet_NaN();
  double offset = 0;
  if (remove_offset)
    for (size_t i = 0; i < a.size(); ++i) offset += (a[i] - b[i]) / static_cast<double>(a.size());
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += (a[i] - b[i] - offset) * (a[i] - b[i] - offset);
  return std::sqrt(s / static_cast<double>(a.size()));
}

double mean_cycle_rms(const GaitFigures& a, const ContactResult& contacts_a, const GaitFigures& b,
                      const ContactResult& contacts_b, std::vector<double> LegAngleCurves::*angle, bool remove_offset) {
  double sum = 0;
  int sides = 0;
  for (int side = 0; side < 2; ++side) {
    const std::vector<double> ma = mean_gait_cycle(a.angles[side].*angle, contacts_a.feet[side]);
    const std::vector<double> mb = mean_gait_cycle(b.angles[side].*angle, contacts_b.feet[side]);
    if (ma.empty() || mb.empty()) continue;
    sum += rms_difference(ma, mb, remove_offset);
    ++sides;
  }
  return sides == 0 ? std::numeric_limits<double>::quiet_NaN() : sum / sides;
}

GaitFigures measure_gait(const Clip& clip, const Rig& rig, const ContactResult& contacts) {
  GaitFigures g;
  const double fps = clip.fps;
  const std::vector<Vec3> pelvis = trajectory(clip, rig.pelvis);
  std::array<std::vector<Vec3>, 2> hip, knee, ankle, toe;
  for (int side = 0; side < 2; ++side) {
    const LegChain& leg = rig.legs[side];
    hip[side] = trajectory(clip, leg.hip);
    knee[side] = trajectory(clip, leg.knee);
    ankle[side] = trajectory(clip, leg.heel);
    toe[side] = trajectory(clip, leg.toe);
  }
  for (int side = 0; side < 2; ++side) {
    const double rest = rest_ankle_angle(clip.skeleton, rig.legs[side]);
    LegAngleCurves& c = g.angles[side];
    for (int f = 0; f < clip.frame_count; ++f) {
      Vec3 left = hip[0][f] - hip[1][f];
      left.y = 0;
      const Vec3 forward = normalize(cross(left, k_up));
      const Vec3 thigh = knee[side][f] - hip[side][f], shin = ankle[side][f] - knee[side][f];
      c.hip_deg.push_back(std::atan2(dot(thigh, forward), -dot(thigh, k_up)) * k_rad_to_deg);
      c.knee_deg.push_back(angle_between(thigh, shin));
      c.ankle_deg.push_back(rest - angle_between(-shin, toe[side][f] - ankle[side][f]));
    }
    g.knee_accel_max = std::max(g.knee_accel_max, peak_accel(knee[side], fps, false));
    g.toe_accel_max = std::max(g.toe_accel_max, peak_accel(toe[side], fps, false));
  }
  g.pelvis_vertical_accel_max = peak_accel(pelvis, fps, true);

  double stride_sum = 0, mid = 0, loading = 0, hip_max = 0, hip_min = 0, dorsi = 0, plantar = 0, lead = 0;
  int strides = 0, first = clip.frame_count, last = -1;
  for (int side = 0; side < 2; ++side) {
    const LegAngleCurves& c = g.angles[side];
    const FootContacts& foot = contacts.feet[side];
    // Strides between inner contacts where there are enough: the first and last contacts belong
    // to starting and stopping.
    const size_t skip = foot.intervals.size() >= 4 ? 1 : 0;
    for (size_t i = skip; i + 1 + skip < foot.intervals.size(); ++i) {
      const int a = foot.intervals[i].first_frame, b = foot.intervals[i + 1].first_frame;
      stride_sum += (b - a) / fps;
      ++strides;
      first = std::min(first, a);
      last = std::max(last, b);
      hip_max += max_over(c.hip_deg, a, b - 1);
      hip_min += min_over(c.hip_deg, a, b - 1);
    }
    for (const ContactInterval& s : inner_stances(foot)) {
      const int a = s.first_frame, b = s.last_frame, n = b - a + 1;
      mid += min_over(c.knee_deg, a + n / 3, a + 2 * n / 3);
      loading += max_over(c.knee_deg, a, a + n / 4);
      dorsi += max_over(c.ankle_deg, a, b);
      plantar += -min_over(c.ankle_deg, b - n / 3, b + static_cast<int>(0.1 * fps));
      double low = std::numeric_limits<double>::infinity();
      int rise = b + 1;
      for (int f = a; f <= b; ++f) low = std::min(low, ankle[side][f].y);
      for (int f = a + n / 3; f <= b + static_cast<int>(0.2 * fps) && f < clip.frame_count; ++f)
        if (ankle[side][f].y > low + 0.015) {
          rise = f;
          break;
        }
      lead += (b + 1 - rise) / fps;
      ++g.cycles;
    }
  }
  if (strides > 0) {
    g.cadence_steps_per_s = 2.0 / (stride_sum / strides);
    g.hip_max_deg = hip_max / strides;
    g.hip_min_deg = hip_min / strides;
    Vec3 d = pelvis[last] - pelvis[first];
    d.y = 0;
    g.speed_mps = length(d) / ((last - first) / fps);
    g.step_length_m = g.speed_mps / g.cadence_steps_per_s;
  }
  if (g.cycles > 0) {
    g.knee_mid_stance_deg = mid / g.cycles;
    g.knee_loading_deg = loading / g.cycles;
    g.ankle_dorsi_max_deg = dorsi / g.cycles;
    g.push_off_plantar_deg = plantar / g.cycles;
    g.heel_rise_lead_s = lead / g.cycles;
  }
  return g;
}

}  // namespace footfix
