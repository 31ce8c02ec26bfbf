#include "footfix/solve/treadmill.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/contacts/signal_filters.h"
#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "footfix/solve/pinned_root.h"

namespace footfix {

void TreadmillSettings::validate() const {
  if (ground_velocity_mps && !is_finite(*ground_velocity_mps))
    fail(ErrorKind::usage, "treadmill: ground_velocity_mps must be finite");
}

std::vector<Vec3> ground_steps(const std::array<std::vector<Vec3>, 2>& toe_ws,
                               const std::array<std::vector<std::uint8_t>, 2>& contact) {
  const size_t n = std::min(toe_ws[0].size(), toe_ws[1].size());
  std::vector<Vec3> steps(n);
  std::vector<std::uint8_t> known(n, 0);
  for (size_t f = 1; f < n; ++f) {
    Vec3 sum;
    int planted = 0;
    for (int leg = 0; leg < 2; ++leg) {
      const auto& c = contact[leg];
      if (f < c.size() && c[f] && c[f - 1]) {
        sum += toe_ws[leg][f] - toe_ws[leg][f - 1];
        ++planted;
      }
    }
    if (planted == 0) continue;
    steps[f] = sum / static_cast<double>(planted);
    steps[f].y = 0;
    known[f] = 1;
  }
  // Runs without a planted foot: interpolated between the known steps either side.
  int last = -1;
  for (size_t f = 1; f <= n; ++f) {
    if (f < n && !known[f]) continue;
    const int next = f < n ? static_cast<int>(f) : -1;
    for (int g = last < 0 ? 1 : last + 1; g < (next < 0 ? static_cast<int>(n) : next); ++g) {
      if (last < 0 && next < 0) break;
      const Vec3 a = last >= 0 ? steps[last] : steps[next], b = next >= 0 ? steps[next] : steps[last];
      const double t = last >= 0 && next >= 0 ? static_cast<double>(g - last) / (next - last) : 0.0;
      steps[g] = lerp(a, b, t);
    }
    last = next;
  }
  return steps;
}

Vec3 estimate_ground_velocity(const std::array<std::vector<Vec3>, 2>& toe_ws,
                              const std::array<std::vector<std::uint8_t>, 2>& contact, double fps) {
  const std::vector<Vec3> steps = ground_steps(toe_ws, contact);
  if (steps.size() < 2) return {};
  Vec3 travel;
  for (const Vec3& d : steps) travel += d;
  return travel * (fps / static_cast<double>(steps.size() - 1));
}

namespace {

// root_travel_speed: the window (s) the root's travel is measured over, about a step, so the
// sway of a step averages out.
constexpr double k_root_travel_window_s = 0.5;

}  // namespace

double root_travel_speed(const std::vector<Vec3>& pelvis_ws, double fps) {
  const int n = static_cast<int>(pelvis_ws.size());
  if (n < 2) return 0;
  const int window = std::clamp(static_cast<int>(std::lround(k_root_travel_window_s * fps)), 1, n - 1);
  double sum = 0;
  int count = 0;
  for (int f = 0; f + window < n; ++f, ++count) {
    const Vec3 d = pelvis_ws[f + window] - pelvis_ws[f];
    sum += std::hypot(d.x, d.z);
  }
  return sum / count * fps / window;
}

double root_net_speed(const std::vector<Vec3>& pelvis_ws, double fps) {
  const size_t n = pelvis_ws.size();
  if (n < 2) return 0;
  const Vec3 d = pelvis_ws.back() - pelvis_ws.front();
  return std::hypot(d.x, d.z) * fps / static_cast<double>(n - 1);
}

TreadmillDecision decide_treadmill(const OfflineSolveInput& input, const TreadmillSettings& settings) {
  TreadmillDecision d;
  if (settings.mode == TreadmillMode::off && !settings.ground_velocity_mps) return d;
  if (settings.ground_velocity_mps) {
    d.on = true;
    d.ground_velocity_mps = {settings.ground_velocity_mps->x, 0.0, settings.ground_velocity_mps->z};
    return d;
  }
  const Vec3 g = estimate_ground_velocity(input.toe_ws, input.contact, input.fps);
  const double speed = length(g);
  // The root's travel: over half-second windows, or from end to end for a root that wanders
  // and comes back.
  const double root_speed =
      std::min(root_travel_speed(input.pelvis_ws, input.fps), root_net_speed(input.pelvis_ws, input.fps));
  d.on = settings.mode == TreadmillMode::on ||
         (speed >= k_treadmill_min_speed_mps && root_speed < k_treadmill_max_root_fraction * speed);
  if (d.on) d.ground_velocity_mps = g;
  return d;
}

namespace {

// ground_distance_curve: the window (s) over which the body's velocity is averaged, about a
// step, so the pelvis's sway does not add to the distance.
constexpr double k_step_sway_window_s = 0.5;
// refine_ground_velocity: the most rounds, and the change that ends them (m/s).
constexpr int k_ground_refinements = 4;
constexpr double k_ground_refined_mps = 0.005;

void shift_track(std::vector<Vec3>& track, Vec3 step) {
  for (size_t f = 0; f < track.size(); ++f) track[f] += step * static_cast<double>(f);
}

}  // namespace

Vec3 planted_mean_velocity(const std::array<std::vector<Vec3>, 2>& toe_ws,
                           const std::array<std::vector<std::uint8_t>, 2>& contact, double fps) {
  Vec3 sum;
  int count = 0;
  for (int leg = 0; leg < 2; ++leg)
    for (size_t f = 1; f < toe_ws[leg].size() && f < contact[leg].size(); ++f)
      if (contact[leg][f] && contact[leg][f - 1]) {
        sum += toe_ws[leg][f] - toe_ws[leg][f - 1];
        ++count;
      }
  if (count == 0) return {};
  return Vec3{sum.x, 0.0, sum.z} * (fps / count);
}

Vec3 refine_ground_velocity(const Clip& clip, const Rig& rig, const ContactSettings& contacts, const LegTracks& tracks,
                            Vec3 g) {
  const std::array<std::vector<Vec3>, 2> toe_ws{tracks.legs[0].contact(), tracks.legs[1].contact()};
  for (int round = 0; round < k_ground_refinements; ++round) {
    LegTracks seen = tracks;
    const Vec3 step = Vec3{g.x, 0.0, g.z} * (-1.0 / clip.fps);
    shift_track(seen.pelvis, step);
    shift_track(seen.root, step);
    for (auto& leg : seen.legs)
      for (auto* track : {&leg.hip, &leg.knee, &leg.heel, &leg.toe, &leg.tip}) shift_track(*track, step);
    const ContactResult found = detect_contacts(clip, rig, contacts, &seen);
    const Vec3 next = planted_mean_velocity(toe_ws, {found.feet[0].contact, found.feet[1].contact}, clip.fps);
    const bool settled = length(next - g) < k_ground_refined_mps;
    g = next;
    if (settled) break;
  }
  return g;
}

std::vector<double> ground_distance_curve(const std::vector<Vec3>& root_ws, Vec3 g, double fps) {
  const size_t n = root_ws.size();
  std::vector<double> distance(n, 0.0);
  if (n < 2) return distance;
  std::vector<Vec3> over_ground(n);
  for (size_t f = 1; f < n; ++f) over_ground[f] = (root_ws[f] - root_ws[f - 1]) * fps - Vec3{g.x, 0.0, g.z};
  over_ground[0] = over_ground[1];
  const std::vector<Vec3> travel = moving_average(over_ground, odd_window_frames(k_step_sway_window_s, fps));
  for (size_t f = 1; f < n; ++f) distance[f] = distance[f - 1] + std::hypot(travel[f].x, travel[f].z) / fps;
  return distance;
}

void shift_by_ground(std::vector<Vec3>& pelvis_ws, std::array<std::vector<Vec3>, 2>& toe_ws, Vec3 g,
                     double fps, double sign) {
  const Vec3 step = Vec3{g.x, 0.0, g.z} * (sign / fps);
  for (size_t f = 0; f < pelvis_ws.size(); ++f) pelvis_ws[f] += step * static_cast<double>(f);
  for (auto& toes : toe_ws)
    for (size_t f = 0; f < toes.size(); ++f) toes[f] += step * static_cast<double>(f);
}

Clip shift_clip_by_ground(const Clip& clip, int translation_joint, Vec3 g, double sign) {
  Clip out = clip;
  shift_clip_by_ground_in_place(out, translation_joint, g, sign);
  return out;
}

void shift_clip_by_ground_in_place(Clip& clip, int translation_joint, Vec3 g, double sign) {
  for (int f = 0; f < clip.frame_count; ++f) shift_frame_by_ground(clip, f, f, translation_joint, g, sign);
}

void shift_frame_by_ground(Clip& clip, int frame, int time_frame, int translation_joint, Vec3 g, double sign) {
  const Vec3 step = Vec3{g.x, 0.0, g.z} * (sign / clip.fps);
  move_body(clip, frame, translation_joint, step * static_cast<double>(time_frame));
}

}  // namespace footfix
