#include "footfix/solve/pinned_root.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/contacts/signal_filters.h"
#include "footfix/core/fk.h"
#include "footfix/solve/treadmill.h"
#include "support_phases.h"

namespace footfix {
namespace {

// The body's velocity from its planted feet changes at once where the foot it stands on
// changes; smoothed over this (s, Gaussian sigma) it carries the legs without a jolt.
constexpr double k_travel_smoothing_s = 0.15;
// Where feet that stood together take off or land, no foot hands the body on: the velocity the
// planted feet give up to the take-off and from the landing is kept, smoothed over this only
// (s, Gaussian sigma), so the flight's travel is not spread over the stances around it.
constexpr double k_flight_edge_smoothing_s = 0.04;
// Towards such an edge the smoothing's sigma is at most this share of the distance to it (and no
// less than k_flight_edge_smoothing_s): the kernel, cut at 3 sigma, stops at the edge.
constexpr double k_edge_sigma_per_distance = 1.0 / 3.0;

// Per frame, the distance (frames) to the nearest of `edges` (ascending).
std::vector<double> distance_to_edges(const std::vector<double>& edges, int frames) {
  std::vector<double> distance(static_cast<size_t>(frames));
  size_t next = 0;
  for (int f = 0; f < frames; ++f) {
    while (next < edges.size() && edges[next] < f) ++next;
    double d = std::numeric_limits<double>::infinity();
    if (next < edges.size()) d = edges[next] - f;
    if (next > 0) d = std::min(d, f - edges[next - 1]);
    distance[static_cast<size_t>(f)] = d;
  }
  return distance;
}

// The ground's steps smoothed over k_travel_smoothing_s, narrowed towards the take-offs and
// landings of feet that stood together (together_flight_edges) down to k_flight_edge_smoothing_s:
// only the frames near such an edge are smoothed again, with their own sigma.
std::vector<Vec3> smoothed_steps(const std::vector<Vec3>& steps, const std::array<std::vector<std::uint8_t>, 2>& contact,
                                 double fps) {
  const double wide = k_travel_smoothing_s * fps, narrow = k_flight_edge_smoothing_s * fps;
  std::vector<Vec3> out = gaussian_smooth(std::span<const Vec3>(steps), wide);
  const int frames = static_cast<int>(steps.size());
  const std::vector<double> edges = together_flight_edges(contact, frames);
  if (edges.empty() || !(narrow > 0) || !std::isfinite(wide)) return out;
  const std::vector<double> distance = distance_to_edges(edges, frames);
  for (int t = 0; t < frames; ++t) {
    const double sigma = distance[static_cast<size_t>(t)] * k_edge_sigma_per_distance;
    if (sigma < wide) out[static_cast<size_t>(t)] = gaussian_smooth_at(std::span<const Vec3>(steps), t, std::max(sigma, narrow));
  }
  return out;
}

}  // namespace

bool root_is_pinned(const std::vector<Vec3>& root_ws) {
  if (root_ws.size() < 2) return false;
  double min_x = root_ws[0].x, max_x = min_x, min_z = root_ws[0].z, max_z = min_z;
  for (const Vec3& p : root_ws) {
    min_x = std::min(min_x, p.x);
    max_x = std::max(max_x, p.x);
    min_z = std::min(min_z, p.z);
    max_z = std::max(max_z, p.z);
  }
  return std::hypot(max_x - min_x, max_z - min_z) <= k_pinned_root_range_m;
}

std::vector<Vec3> travel_from_planted_feet(const std::array<std::vector<Vec3>, 2>& toe_ws,
                                           const std::array<std::vector<std::uint8_t>, 2>& contact, double fps) {
  const std::vector<Vec3> steps = smoothed_steps(ground_steps(toe_ws, contact), contact, fps);
  std::vector<Vec3> travel(steps.size());
  for (size_t f = 1; f < steps.size(); ++f) travel[f] = travel[f - 1] - steps[f];
  return travel;
}

std::vector<std::uint8_t> feet_planted_together(const std::array<std::vector<Vec3>, 2>& toe_ws,
                                                const std::array<std::vector<double>, 2>& height_above_ground_m,
                                                double speed_mps, double height_m, double fps) {
  const size_t n = std::min({toe_ws[0].size(), toe_ws[1].size(), height_above_ground_m[0].size(),
                             height_above_ground_m[1].size()});
  const double max_step_m = speed_mps / fps;
  auto low = [&](size_t f) { return height_above_ground_m[0][f] < height_m && height_above_ground_m[1][f] < height_m; };
  std::vector<std::uint8_t> together(n, 0);
  for (size_t f = 1; f < n; ++f) {
    const Vec3 left = toe_ws[0][f] - toe_ws[0][f - 1], right = toe_ws[1][f] - toe_ws[1][f - 1];
    if (low(f - 1) && low(f) && std::abs(left.y) < max_step_m && std::abs(right.y) < max_step_m &&
        std::hypot(left.x - right.x, left.z - right.z) < max_step_m)
      together[f - 1] = together[f] = 1;
  }
  const double min_frames = k_together_min_s * fps;
  for (const ContactInterval& run : contact_runs(together))
    if (run.last_frame - run.first_frame + 1 < min_frames)
      std::fill(together.begin() + run.first_frame, together.begin() + run.last_frame + 1, std::uint8_t{0});
  return together;
}

void move_body(Clip& clip, int frame, int translation_joint, Vec3 offset_ws) {
  const int parent = clip.skeleton.parents[translation_joint];
  const Quat parent_rot = parent >= 0 ? joint_world(clip, frame, parent).rotation : Quat{};
  clip.translation(frame, translation_joint) += rotate(inverse(parent_rot), offset_ws);
}

}  // namespace footfix
