#include "clean_problem.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include "footfix/contacts/signal_filters.h"
#include "footfix/core/math.h"

namespace footfix {
namespace {

// Time over which the IK's height floors ease into a contact's own at its start and end (s).
constexpr double k_floor_ease_s = 0.1;
// The white noise (m per axis) the pelvis path the solve follows keeps on noisy capture.
constexpr double k_pelvis_noise_left_m = 0.002;
// The widest pelvis smoothing (s, sigma of local_quadratic_smooth): it passes the body's bob at
// 2.5 Hz (a brisk walk's steps) with 90% of its amplitude.
constexpr double k_pelvis_max_sigma_s = 0.064;
// In flight (no foot planted) the pelvis path is smoothed over this share of that sigma: a
// parabola fitted across a hop's take-off and landing lowers its apex by about the square of its
// width, 1-2 cm at the full width at 30 Hz, and no planted leg takes up the noise left.
constexpr double k_flight_pelvis_sigma_share = 0.5;

// On noisy capture, the toe path the solve follows in planted frames and within one sigma of
// them, smoothed over the capture noise's sigma (`sigma_frames`, the one contact detection
// used). The lock holds the middle of a contact still whatever the input does, but its onset
// and release blend the lock with the input's path: a raw noisy path there moves the planted
// toe by the noise, centimetres a frame. And a contact found on smoothed positions may start or
// end up to about one sigma off: a toe planted there in truth would keep shaking by the noise.
// The rest of the swing keeps the input's path (its shape is the source's; --smooth-swing
// smooths it too).
void hold_noisy_contact_edges(OfflineSolveInput& input, double sigma_frames) {
  const int reach = static_cast<int>(std::ceil(sigma_frames));
  for (int leg = 0; leg < 2; ++leg) {
    std::vector<Vec3>& toe = input.toe_ws[leg];
    const int n = static_cast<int>(std::min(toe.size(), input.contact[leg].size()));
    const std::vector<Vec3> smoothed = local_quadratic_smooth(std::span<const Vec3>(toe), sigma_frames);
    for (const ContactInterval& run : contact_runs(input.contact[leg]))
      for (int f = std::max(0, run.first_frame - reach); f <= std::min(n - 1, run.last_frame + reach); ++f)
        toe[f] = smoothed[f];
  }
}

// Per-frame minimum heights of one leg's foot joints, from the input clip while planted: inside
// a contact interval the lowest each joint goes during it; between contacts the lower of the
// neighbouring contacts' values (so stairs keep their levels and feet never go below where the
// source put them when planted). Without any contact, the lowest height over the whole clip.
// `track`: the leg's positions (leg_tracks) where the caller has them.
std::vector<LegHeights> planted_heights(const Clip& clip, const LegChain& leg, const FootContacts& foot,
                                        const LegTrack* track) {
  const int frames = clip.frame_count;
  std::vector<Vec3> own_toe, own_heel, own_tip;
  const std::vector<Vec3>& toe = positions_of(clip, leg.contact_joint(), track ? &track->contact() : nullptr, own_toe);
  const std::vector<Vec3>& heel = positions_of(clip, leg.heel, track ? &track->heel : nullptr, own_heel);
  const std::vector<Vec3>& tip = tip_positions_of(clip, leg, track ? &track->tip : nullptr, own_tip);

  auto lowest = [](const std::vector<Vec3>& track, int first, int last) {
    double m = 1e300;
    for (int f = first; f <= last; ++f) m = std::min(m, track[f].y);
    return m;
  };
  std::vector<LegHeights> per_interval;
  for (const auto& iv : foot.intervals)
    per_interval.push_back({std::min(iv.height_m, lowest(toe, iv.first_frame, iv.last_frame)),
                            lowest(heel, iv.first_frame, iv.last_frame), lowest(tip, iv.first_frame, iv.last_frame)});

  std::vector<LegHeights> out(frames);
  if (per_interval.empty()) {
    LegHeights h{lowest(toe, 0, frames - 1), lowest(heel, 0, frames - 1), lowest(tip, 0, frames - 1)};
    std::fill(out.begin(), out.end(), h);
    return out;
  }
  auto lower = [](const LegHeights& a, const LegHeights& b) {
    return LegHeights{std::min(a.toe_min_m, b.toe_min_m), std::min(a.heel_min_m, b.heel_min_m),
                      std::min(a.toe_end_min_m, b.toe_end_min_m)};
  };
  size_t next = 0;
  for (int f = 0; f < frames; ++f) {
    while (next < foot.intervals.size() && foot.intervals[next].last_frame < f) ++next;
    const LegHeights* before = next > 0 ? &per_interval[next - 1] : nullptr;
    if (next < foot.intervals.size() && foot.intervals[next].first_frame <= f) {
      out[f] = per_interval[next];
      continue;
    }
    const LegHeights* after = next < per_interval.size() ? &per_interval[next] : nullptr;
    if (!before) before = after;
    if (!after) after = before;
    out[f] = lower(*before, *after);
  }
  // A floor that steps up where a contact begins (or down where it ends) would yank the leg in
  // one frame: inside a contact, each floor eases from the swing's value to the contact's own
  // over its first (and last) k_floor_ease_s.
  const int ease = std::max(1, static_cast<int>(std::lround(k_floor_ease_s * clip.fps)));
  for (const auto& iv : foot.intervals) {
    const LegHeights own = out[iv.first_frame];
    const LegHeights in = iv.first_frame > 0 ? out[iv.first_frame - 1] : own;
    const LegHeights leave = iv.last_frame + 1 < frames ? out[iv.last_frame + 1] : own;
    for (int f = iv.first_frame; f <= iv.last_frame; ++f) {
      const double a = smoothstep(static_cast<double>(f - iv.first_frame + 1) / (ease + 1));
      const double b = smoothstep(static_cast<double>(iv.last_frame - f + 1) / (ease + 1));
      auto mix = [&](double LegHeights::*h) {
        return std::min({own.*h, in.*h + a * (own.*h - in.*h), leave.*h + b * (own.*h - leave.*h)});
      };
      out[f] = {mix(&LegHeights::toe_min_m), mix(&LegHeights::heel_min_m), mix(&LegHeights::toe_end_min_m)};
    }
  }
  return out;
}

// On noisy capture the pelvis shakes with the rest: under locked feet its shaking would pass
// into the knees, amplified near full extension, so while a foot is planted the solve follows its
// path smoothed down to k_pelvis_noise_left_m, at most over k_pelvis_max_sigma_s (a local parabola
// keeps the body's bob and its ends where they are), and in flight over a narrower width
// (k_flight_pelvis_sigma_share). And the toes' paths about their contacts are smoothed over the
// noise's sigma (`sigma_frames`, hold_noisy_contact_edges).
void follow_noisy_capture(OfflineSolveInput& input, double sigma_frames) {
  const std::span<const Vec3> pelvis(input.pelvis_ws);
  const double pelvis_sigma_frames = std::min(position_smoothing_sigma(white_noise_rms(pelvis), k_pelvis_noise_left_m),
                                              k_pelvis_max_sigma_s * input.fps);
  const std::vector<Vec3> supported_path = local_quadratic_smooth(pelvis, pelvis_sigma_frames);
  const std::vector<Vec3> flight_path = local_quadratic_smooth(pelvis, pelvis_sigma_frames * k_flight_pelvis_sigma_share);
  // Share of the supported path each frame takes: 1 while a foot is planted, 0 in flight,
  // blended over the same sigma.
  const size_t n = pelvis.size();
  std::vector<double> supported(n, 0.0);
  for (size_t f = 0; f < n; ++f)
    for (int leg = 0; leg < 2; ++leg)
      if (f < input.contact[leg].size() && input.contact[leg][f]) supported[f] = 1.0;
  supported = gaussian_smooth(supported, pelvis_sigma_frames);
  for (size_t f = 0; f < n; ++f) input.pelvis_ws[f] = lerp(flight_path[f], supported_path[f], supported[f]);
  hold_noisy_contact_edges(input, sigma_frames);
}

}  // namespace

OfflineSolveInput clean_problem_paths(const Clip& clip, const Rig& rig, const ContactResult& contacts,
                                      const LegTracks* tracks) {
  if (tracks && !tracks->match(clip, rig)) tracks = nullptr;
  OfflineSolveInput paths;
  paths.frame_count = clip.frame_count;
  paths.fps = clip.fps;
  paths.pelvis_ws = positions_of(clip, rig.translation_joint, tracks ? &tracks->root_positions() : nullptr, paths.pelvis_ws);
  for (int s = 0; s < 2; ++s) {
    paths.toe_ws[s] = positions_of(clip, rig.legs[s].contact_joint(), tracks ? &tracks->legs[s].contact() : nullptr,
                                   paths.toe_ws[s]);
    paths.contact[s] = contacts.feet[s].contact;
  }
  if (contacts.denoise_sigma_s > 0) follow_noisy_capture(paths, contacts.denoise_sigma_s * clip.fps);
  return paths;
}

CleanProblem complete_clean_problem(const Clip& clip, const Rig& rig, const ContactResult& contacts,
                                    OfflineSolveInput paths, const LegIkSettings& ik, const LegTracks* tracks) {
  if (tracks && !tracks->match(clip, rig)) tracks = nullptr;
  CleanProblem problem;
  for (int s = 0; s < 2; ++s)
    problem.heights[s] = planted_heights(clip, rig.legs[s], contacts.feet[s], tracks ? &tracks->legs[s] : nullptr);
  OfflineSolveInput& input = problem.input;
  // The leg reach is measured on the clip's own (unsmoothed) paths; the solve follows `paths`.
  input = offline_input_from_clip(clip, rig.translation_joint, rig.legs, ik, tracks);
  input.pelvis_ws = std::move(paths.pelvis_ws);
  for (int s = 0; s < 2; ++s) {
    const FootContacts& foot = contacts.feet[s];
    input.toe_ws[s] = std::move(paths.toe_ws[s]);
    input.contact[s] = std::move(paths.contact[s]);
    for (const auto& iv : foot.intervals)
      for (int f = iv.first_frame; f <= iv.last_frame; ++f) input.contact_height_m[s][f] = iv.height_m;
    double lowest = 1e300;
    for (const auto& h : problem.heights[s]) lowest = std::min(lowest, h.toe_min_m);
    input.toe_min_height_m[s] = lowest;
  }
  return problem;
}

CleanProblem prepare_clean_problem(const Clip& clip, const Rig& rig, const ContactResult& contacts,
                                   const LegIkSettings& ik, const LegTracks* tracks) {
  return complete_clean_problem(clip, rig, contacts, clean_problem_paths(clip, rig, contacts, tracks), ik, tracks);
}

}  // namespace footfix
