// Steps are the frames where the feet pass each other along the direction of travel (their
// horizontal separation along it changes sign, with hysteresis); a stride is two steps. The
// distance the pelvis travels between the first and the last step, over their count, gives the
// stride; over their time at the stated rate, the speed.
#include "footfix/rig/gait_frame_rate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "footfix/core/fk.h"
#include "footfix/core/frame_rate.h"
#include "rig_geometry.h"

namespace footfix {
namespace {

constexpr double k_gravity_mps2 = 9.81;
constexpr double k_alexander_coefficient = 2.3;  // stride / hip height at Fr = 1
constexpr double k_alexander_exponent = 0.3;
/// People take longer strides at a speed than Alexander's fit across animals predicts: on the
/// corpus's correctly stated clips (CMU, Bandai Namco, Xia walks, runs and hops; hip height as
/// the pelvis joint above the lower foot joint) predicted / measured speed is 1.04 to 1.62,
/// median 1.25. Factors are divided by it, so a correctly stated human clip gives about 1.
constexpr double k_human_stride_bias = 1.25;
constexpr int k_min_steps = 3;                     // a stride and a half
constexpr double k_min_factor = 0.6, k_max_factor = 1.6;  // the relation's scatter stays inside
/// Feet count as passed once their separation along the travel is this fraction of the hip height
/// beyond zero (walking feet part by about half of it).
constexpr double k_step_hysteresis = 0.1;
/// The rates the likely rate snaps to: those capture devices and converters use.
constexpr double k_snap_rates[] = {20, 24, 25, 30, 48, 50, 60, 90, 100, 120, 240};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double snap_rate(double fps) {
  double best = k_snap_rates[0];
  for (double r : k_snap_rates)
    if (std::abs(std::log(fps / r)) < std::abs(std::log(fps / best))) best = r;
  return best;
}

}  // namespace

std::optional<GaitFrameRate> gait_frame_rate(const Clip& clip, const Rig& rig) {
  if (clip.frame_count < 3 || !(clip.fps > 0)) return std::nullopt;
  const LegChain& left = rig.leg(Side::left);
  const LegChain& right = rig.leg(Side::right);
  if (rig.pelvis < 0 || left.heel < 0 || right.heel < 0) return std::nullopt;  // no legs to step with
  // World positions of the joints read below, world_pose's to the bit: only their chains composed.
  const size_t count = static_cast<size_t>(clip.frame_count);
  const JointPoint points[] = {{rig.pelvis, {}},
                               {left.heel, {}},
                               {right.heel, {}},
                               {left.contact_joint(), {}},
                               {right.contact_joint(), {}}};
  std::vector<Vec3> pelvis(count), left_heel(count), right_heel(count), left_contact(count), right_contact(count);
  Vec3* const tracks[] = {pelvis.data(), left_heel.data(), right_heel.data(), left_contact.data(), right_contact.data()};
  point_trajectories(clip, points, 0, clip.frame_count, tracks);
  std::vector<Vec3> apart(count);
  double hip_height = 0;
  for (size_t f = 0; f < count; ++f) {
    const double floor = std::min(left_contact[f].y, right_contact[f].y);
    apart[f] = left_heel[f] - right_heel[f];
    hip_height += pelvis[f].y - floor;
  }
  hip_height /= clip.frame_count;
  const Vec3 up{0, 1, 0};
  const Vec3 travel = rig_detail::horizontal(pelvis.back() - pelvis.front(), up);
  if (!(hip_height > 0) || length(travel) < hip_height) return std::nullopt;  // in place or standing
  const Vec3 direction = normalize(travel);

  // Frames at which the feet pass each other.
  std::vector<int> steps;
  int sign = 0;
  const double band = k_step_hysteresis * hip_height;
  for (int f = 0; f < clip.frame_count; ++f) {
    const double s = dot(apart[static_cast<size_t>(f)], direction);
    const int now = s > band ? 1 : s < -band ? -1 : 0;
    if (now == 0 || now == sign) continue;
    if (sign != 0) steps.push_back(f);
    sign = now;
  }
  if (static_cast<int>(steps.size()) < k_min_steps + 1) return std::nullopt;

  GaitFrameRate out;
  out.stated_fps = clip.fps;
  out.steps = static_cast<int>(steps.size()) - 1;
  out.hip_height_m = hip_height;
  // Medians over the steps: a pause (start, stop) is one long step, not a slower walk.
  std::vector<double> lengths, frames;
  for (size_t i = 0; i + 1 < steps.size(); ++i) {
    const Vec3 from = pelvis[static_cast<size_t>(steps[i])], to = pelvis[static_cast<size_t>(steps[i + 1])];
    lengths.push_back(length(rig_detail::horizontal(to - from, up)));
    frames.push_back(steps[i + 1] - steps[i]);
  }
  out.stride_m = 2 * median(lengths);
  out.speed_mps = median(lengths) * clip.fps / median(frames);
  // Steps that do not travel (stepping in place between moves) say nothing about the rate.
  if (!(out.stride_m > k_step_hysteresis * hip_height) || !std::isfinite(out.speed_mps)) return std::nullopt;
  const double froude = std::pow(out.stride_m / (k_alexander_coefficient * hip_height), 1 / k_alexander_exponent);
  const double predicted_mps = std::sqrt(froude * k_gravity_mps2 * hip_height);
  out.factor = predicted_mps / out.speed_mps / k_human_stride_bias;
  out.likely_fps = snap_rate(clip.fps * out.factor);
  out.contradicts = (out.factor < k_min_factor || out.factor > k_max_factor) &&
                    std::abs(std::log(out.likely_fps / nominal_frame_rate(clip.fps))) > 0.01;
  return out;
}

std::string describe_rate_contradiction(const GaitFrameRate& rate) {
  char text[512];
  std::snprintf(text, sizeof text,
                "frame rate: the file states %s but its motion looks like %g fps (%d steps of %.2f m strides at "
                "%.2f m/s, %.1fx %s than a %.2f m hip height predicts); processed at %g fps, the output keeps the "
                "stated frame time; pass --fps HZ to set the rate",
                describe_frame_rate(rate.stated_fps).c_str(), rate.likely_fps, rate.steps, rate.stride_m,
                rate.speed_mps, rate.factor < 1 ? 1 / rate.factor : rate.factor,
                rate.factor < 1 ? "faster" : "slower", rate.hip_height_m, rate.likely_fps);
  return text;
}

}  // namespace footfix
