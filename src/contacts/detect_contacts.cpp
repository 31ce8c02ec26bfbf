#include "footfix/contacts/detect_contacts.h"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <span>
#include <string>

#include "footfix/contacts/reference_pose.h"
#include "footfix/contacts/signal_filters.h"
#include "footfix/core/error.h"

namespace footfix {
namespace {

/// The most frames contact detection works on after upsampling: about 2.4 hours at 120 Hz, past
/// the default --max-duration. Its working arrays take a few hundred bytes a frame, so this bounds
/// them at a few hundred MiB whatever frame rate a file states; a longer clip is detected at a
/// lower multiple of its rate.
constexpr std::int64_t k_max_detection_frames = std::int64_t{1} << 20;

/// The narrowest noise smoothing applied (Gaussian sigma, frames), judged on the noise read from
/// fourth differences, which leave out most of a clean clip's own motion even at low rates (a
/// clean run at 20 Hz reads as 2 mm there, 6 mm from third differences). A centimetre of noise
/// calls for 1.2-1.6 frames at 20 Hz. The smoothing applied and the growth of noisy contacts read
/// the noise from third differences, as they were tuned (bench_capture): at low rates those also
/// carry a short contact's own roll, which growing its ends needs.
constexpr double k_min_denoise_sigma_frames = 1.0;
// Growing noisy contacts (grow_noisy_contacts): the radius, in noise rms per axis, of the
// prediction region about a contact's path that a raw position must fall in (2.0 holds about 74%
// of a still foot's positions in three dimensions; 1.5 and 1.7 left more of a run's short
// contacts unplanted in bench_capture, and wider radii plant frames where the foot already moves),
// and the most frames a contact grows at each end, in smoothing sigmas.
constexpr double k_noise_spread_radius = 2.0;
constexpr double k_noisy_contact_growth_sigmas = 1.0;
// Short noisy contacts (merge_median_path_contacts): the median path's half window
// (window_median_per_axis) and its light Gaussian, and the longest contact lengthened, all in
// smoothing sigmas. A short contact (a run's) flanked by fast swings loses its ends on the
// Gaussian path, as they take a share of the swings' speed. Contacts several sigmas long keep
// most of theirs (and grow, grow_noisy_contacts); lengthening them too would draw landings into
// them and bring the pelvis down (docs/tuning.md).
constexpr double k_median_path_half_sigmas = 2.0;
constexpr double k_median_path_smoothing_sigmas = 0.5;
constexpr double k_short_contact_sigmas = 3.0;
// A contact only the median path finds is taken where it lasts at least this many smoothing
// sigmas: a run's contact between correlated noise on either side, whose speed on the Gaussian
// path never came under the threshold. Shorter ones are more likely the noise's own lulls.
constexpr double k_median_only_contact_sigmas = 2.0;

/// The detection rate: the clip's, or an integer multiple of it for low frame rate clips.
int upsample_factor(double fps, int frames, const ContactSettings& s) {
  // Frame times in files are rounded (0.033333 s is 30.00003 Hz): compare rates with 0.1% slack.
  if (!s.upsample_low_fps || fps > s.upsample_max_fps * 1.001 || fps * 1.001 >= s.upsample_target_fps) return 1;
  const int wanted = std::clamp(static_cast<int>(std::ceil(s.upsample_target_fps / fps - 1e-3)), 1, 64);
  const std::int64_t affordable = k_max_detection_frames / std::max<std::int64_t>(frames, 1);
  return static_cast<int>(std::clamp<std::int64_t>(affordable, 1, wanted));
}

/// `joint`'s positions: from `tracks` where given, else computed into `own`; checked finite.
const std::vector<Vec3>& trajectory(const Clip& clip, int joint, const std::string& what, const std::vector<Vec3>* tracked,
                                    std::vector<Vec3>& own) {
  const std::vector<Vec3>& p = positions_of(clip, joint, tracked, own);
  for (int f = 0; f < clip.frame_count; ++f)
    if (!is_finite(p[f]))
      fail(ErrorKind::process, clip.source_name + ": " + what + " '" + clip.skeleton.names[joint] +
                                   "' has a non-finite position at frame " + std::to_string(f));
  return p;
}

/// Window (s) of the body's travel against which the ground velocity is checked (feet moving
/// with the body, not with the ground): about a step, so the sway of an in-place (treadmill)
/// clip's pelvis averages out and does not read as travel. The sliding tolerance uses the
/// shorter body_speed_window_s, which follows a jump's push-off and landing.
constexpr double k_body_travel_window_s = 0.5;
// A contact joint moving faster than this from one frame to the next has jumped (a cut between
// two takes, a teleport or reset of the root, a reference pose): no contact spans such a jump,
// whatever the smoothing around it made of the frames. Faster than any foot moves (m/s).
constexpr double k_cut_speed_mps = 15.0;
// A body whose travel (over k_body_travel_window_s) is slower than this (m/s) stands: its
// direction is the rounding, noise or sway of a root held in place (a pinned root stays within
// 5 mm, solve/pinned_root.h: at most 1 cm/s over the window, 2 cm/s over the half window left
// at a clip's ends), not a travel that could carry the feet with it.
constexpr double k_still_body_speed_mps = 0.02;

/// Horizontal velocity of the pelvis (m/s), averaged over `window_s`, at the work rate.
std::vector<Vec3> body_velocities(const std::vector<Vec3>& pelvis_work, double work_fps, double window_s) {
  std::vector<Vec3> v = point_velocities(pelvis_work, work_fps);
  for (auto& q : v) q.y = 0;
  return moving_average(v, odd_window_frames(window_s, work_fps));
}

double median(std::vector<double> v) { return quantile(std::move(v), 0.5); }

/// Ends a contact at a jump of the contact joint (k_cut_speed_mps): the frame after it is no contact.
void split_at_jumps(std::vector<std::uint8_t>& contact, const std::vector<Vec3>& p, double fps) {
  for (size_t f = 1; f < p.size(); ++f)
    if (contact[f] && contact[f - 1] && length(p[f] - p[f - 1]) * fps > k_cut_speed_mps) contact[f] = 0;
}

/// Each contact's planted position: the median height (of `p_height`), and horizontally the
/// medians along and across the toe's own spread over the contact (its principal axes about the
/// mean), so that the position turns with the clip (medians along the file's X and Z would not).
/// `p_height`: `p` smoothed on noisy capture, whose short contacts would otherwise take their
/// height from a few shaking samples.
void place_intervals(FootContacts& foot, const std::vector<Vec3>& p, const std::vector<Vec3>& p_height) {
  foot.intervals = contact_runs(foot.contact);
  for (auto& in : foot.intervals) {
    const std::span<const Vec3> run(p.data() + in.first_frame, static_cast<size_t>(in.last_frame - in.first_frame + 1));
    Vec3 mean;
    for (const Vec3& q : run) mean = mean + q;
    mean = mean / static_cast<double>(run.size());
    std::vector<Vec3> offsets;
    std::vector<double> ys;
    for (const Vec3& q : run) offsets.push_back(q - mean);
    for (int f = in.first_frame; f <= in.last_frame; ++f) ys.push_back(p_height[f].y);
    const HorizontalAxes axes = principal_horizontal_axes(offsets);
    HorizontalComponents c = horizontal_components(offsets, axes);
    const Vec3 local{median(std::move(c.along)), 0, median(std::move(c.across))};
    const Vec3 horizontal = mean + axes.to_world(local);
    in.planted_position_m = {horizontal.x, median(std::move(ys)), horizontal.z};
    in.height_m = in.planted_position_m.y;
  }
}

/// On noisy capture contacts are found on smoothed positions, whose speed rises before the foot
/// moves: each contact is short of its ends by up to about the smoothing's width. A contact
/// grows, frame by frame and by at most `max_frames` at each end, over the frames whose raw
/// position lies within `radius_m` of the contact's own path (the noise's own spread, widened by
/// the path's own uncertainty) and which pass the height gate, leaving a frame between contacts.
/// The path is horizontally the line fitted to the contact's raw positions, so a foot that slides
/// (what clean fixes) grows too, and vertically their mean height, so a foot still landing does not.
void grow_noisy_contacts(FootContacts& foot, const std::vector<Vec3>& p, double radius_m, int max_frames,
                         double height_threshold_m) {
  const int n = static_cast<int>(foot.contact.size());
  for (const ContactInterval& in : contact_runs(foot.contact)) {
    // The contact's own horizontal path: the line fitted to its raw positions (a sliding foot
    // slides on), or their mean where it is too short to fit one.
    const int m = in.last_frame - in.first_frame + 1;
    Vec3 mean, velocity;
    double mid = 0, spread = 0;
    for (int f = in.first_frame; f <= in.last_frame; ++f) mean = mean + p[f], mid += f;
    mean = mean / m, mid /= m;
    for (int f = in.first_frame; f <= in.last_frame; ++f) {
      velocity = velocity + (p[f] - mean) * (f - mid);
      spread += (f - mid) * (f - mid);
    }
    velocity = m >= 3 ? velocity / spread : Vec3{};
    double height = 0;
    for (int f = in.first_frame; f <= in.last_frame; ++f) height += p[f].y / m;
    // Within the noise's spread of the path, as a prediction interval: the path is itself
    // estimated from m noisy samples. Horizontally the fitted line's variance at f, 1/m +
    // (f - mid)^2 / spread noise variances, adds to the sample's own; vertically a planted foot
    // keeps its height even where it slides, so the path is the mean height (1/m).
    auto near_path = [&](int f) {
      const Vec3 at = mean + velocity * (f - mid);
      const double dx = p[f].x - at.x, dz = p[f].z - at.z, dy = p[f].y - height;
      const double horizontal_variance = 1.0 + 1.0 / m + (m >= 3 ? (f - mid) * (f - mid) / spread : 0.0);
      const double vertical_variance = 1.0 + 1.0 / m;
      return (dx * dx + dz * dz) / horizontal_variance + dy * dy / vertical_variance <= radius_m * radius_m &&
             foot.height_above_ground_m[f] < height_threshold_m;
    };
    for (int f = in.first_frame - 1; f >= in.first_frame - max_frames; --f) {
      // The frame before f must stay free of another contact; f itself borders this one.
      if (f < 0 || foot.contact[f] || (f > 0 && foot.contact[f - 1]) || !near_path(f)) break;
      foot.contact[f] = 1;
    }
    for (int f = in.last_frame + 1; f <= in.last_frame + max_frames; ++f) {
      if (f >= n || foot.contact[f] || (f + 1 < n && foot.contact[f + 1]) || !near_path(f)) break;
      foot.contact[f] = 1;
    }
  }
}

/// Merges the contacts `robust` found on the median path (window_median_per_axis), which keeps a
/// short contact's ends still where the Gaussian path takes the flanking swings' speed into them,
/// into `contact` (found on the Gaussian path): each contact of `contact` spanning at most
/// `max_frames` is lengthened to the whole of the robust contact holding it, and a robust contact
/// holding none is taken where it lasts at least `min_new_frames`.
void merge_median_path_contacts(std::vector<std::uint8_t>& contact, const std::vector<std::uint8_t>& robust,
                                double max_frames, double min_new_frames) {
  const std::vector<std::uint8_t> found = contact;
  for (const ContactInterval& in : contact_runs(robust)) {
    int first = in.last_frame + 1, last = in.first_frame - 1;  // the found contacts it holds
    for (int f = in.first_frame; f <= in.last_frame; ++f)
      if (found[f]) first = std::min(first, f), last = std::max(last, f);
    const bool lengthens = last >= first && last - first + 1 <= max_frames;
    const bool is_new = last < first && in.last_frame - in.first_frame + 1 >= min_new_frames;
    if (lengthens || is_new)
      std::fill(contact.begin() + in.first_frame, contact.begin() + in.last_frame + 1, std::uint8_t{1});
  }
}

struct WorkSignals {
  std::vector<double> speed, effective_speed, height_above, smoothed;
  std::vector<std::uint8_t> contact;
};

}  // namespace

double effective_speed(Vec3 foot_velocity, Vec3 body_velocity, const ContactSettings& s) {
  double body_speed = length(body_velocity);
  double along_threshold = std::max(s.speed_threshold_mps, s.body_speed_fraction * body_speed);
  if (along_threshold <= s.speed_threshold_mps) return length(foot_velocity);
  Vec3 dir = body_velocity / body_speed;
  double along = dot(foot_velocity, dir);
  double across = length(foot_velocity - dir * along);
  return std::max(across, std::abs(along) * s.speed_threshold_mps / along_threshold);
}

namespace {

/// Height of the ground under the foot at each frame: the higher of the lowest points the foot
/// reaches in the half window before and in the half window after the frame. A foot stepping up
/// onto a stair or platform finds its new level ahead; a foot lifted and held still in the air
/// has the floor on both sides.
std::vector<double> local_ground(const std::vector<double>& heights, double flat_ground_m, double work_fps,
                                 const ContactSettings& s) {
  if (s.ground_window_s <= 0) return std::vector<double>(heights.size(), flat_ground_m);
  int half = odd_window_frames(s.ground_window_s, work_fps) / 2;
  std::vector<double> before = window_minimum(heights, half, 0), after = window_minimum(heights, 0, half);
  for (size_t t = 0; t < heights.size(); ++t) before[t] = std::max(before[t], after[t]);
  return before;
}

/// Horizontal velocity of the ground under the feet (m/s): the windowed median of the lower
/// foot's horizontal velocity. Zero where the lower foot stands; the treadmill speed of an
/// in-place clip, whose planted feet move backwards. Where it runs along the body's travel
/// faster than body_speed_fraction x the body speed, the feet are moving with the body (jumps,
/// flight) rather than the ground, and it is zero; a body that stands (k_still_body_speed_mps)
/// carries no feet with it, or the direction of its rounding would decide whether the ground
/// under a pinned root's sliding feet is seen. Zero everywhere when disabled. `body_velocity` is the body's travel (averaged over
/// k_body_travel_window_s).
std::vector<Vec3> ground_velocities(const std::array<std::vector<Vec3>, 2>& feet_work,
                                    const std::vector<Vec3>& body_velocity, double work_fps,
                                    const ContactSettings& s) {
  const size_t n = feet_work[0].size();
  if (s.ground_velocity_window_s <= 0) return std::vector<Vec3>(n);
  std::array<std::vector<Vec3>, 2> v{point_velocities(feet_work[0], work_fps), point_velocities(feet_work[1], work_fps)};
  std::vector<Vec3> lower(n);
  for (size_t t = 0; t < n; ++t) lower[t] = feet_work[0][t].y <= feet_work[1][t].y ? v[0][t] : v[1][t];
  // The medians are taken along the body's travel and across it (the principal horizontal axes
  // of its velocity), not along the file's X and Z: a per-axis median depends on the axes it is
  // taken along, and a clip's result must not depend on which way it faces. (Along the feet's
  // own principal axes instead, the skating DME clip kept 86% of its contacts when made to
  // slide x0.75, against 91-97% along the body's.)
  const HorizontalAxes axes = principal_horizontal_axes(body_velocity);
  const HorizontalComponents local = horizontal_components(lower, axes);
  int half = odd_window_frames(s.ground_velocity_window_s, work_fps) / 2;
  std::vector<double> ma = window_median(local.along, half), mb = window_median(local.across, half);
  std::vector<Vec3> out(n);
  for (size_t t = 0; t < n; ++t) {
    Vec3 g = axes.to_world({ma[t], 0, mb[t]});
    double body_speed = length(body_velocity[t]);
    bool with_body = body_speed >= k_still_body_speed_mps &&
                     dot(g, body_velocity[t]) / body_speed > s.body_speed_fraction * body_speed;
    out[t] = with_body ? Vec3{} : g;
  }
  return out;
}

WorkSignals detect_foot(const std::vector<Vec3>& foot_work, const std::vector<Vec3>& body_velocity,
                        const std::vector<Vec3>& ground_velocity, double flat_ground_m, double work_fps,
                        const ContactSettings& s) {
  const size_t n = foot_work.size();
  WorkSignals w;
  std::vector<Vec3> velocity = point_velocities(foot_work, work_fps);
  for (size_t t = 0; t < n; ++t) velocity[t] -= ground_velocity[t];
  std::vector<double> heights(n);
  for (size_t t = 0; t < n; ++t) heights[t] = foot_work[t].y;
  std::vector<double> ground = local_ground(heights, flat_ground_m, work_fps, s);
  std::vector<std::uint8_t> raw(n);
  w.speed.resize(n);
  w.effective_speed.resize(n);
  w.height_above.resize(n);
  for (size_t t = 0; t < n; ++t) {
    w.speed[t] = length(velocity[t]);
    w.effective_speed[t] = effective_speed(velocity[t], body_velocity[t], s);
    w.height_above[t] = heights[t] - ground[t];
    raw[t] = w.effective_speed[t] < s.speed_threshold_mps && w.height_above[t] < s.height_threshold_m ? 1 : 0;
  }
  std::vector<std::uint8_t> voted = majority_filter(raw, odd_window_frames(s.majority_window_s, work_fps));
  w.smoothed = gaussian_smooth(std::vector<double>(voted.begin(), voted.end()), s.smoothing_sigma_s * work_fps);
  w.contact = hysteresis_threshold(w.smoothed, s.contact_threshold, s.release_threshold);
  return w;
}

/// Picks every factor-th sample: the work-rate signal at the clip's frames.
template <typename T>
std::vector<T> at_clip_frames(const std::vector<T>& work, int factor, int frames) {
  std::vector<T> out(static_cast<size_t>(frames));
  for (int f = 0; f < frames; ++f) out[f] = work[static_cast<size_t>(f) * factor];
  return out;
}

}  // namespace

std::vector<ContactInterval> contact_runs(const std::vector<std::uint8_t>& contact) {
  std::vector<ContactInterval> runs;
  const int n = static_cast<int>(contact.size());
  for (int f = 0; f < n; ++f) {
    if (!contact[f]) continue;
    int last = f;
    while (last + 1 < n && contact[last + 1]) ++last;
    ContactInterval in;
    in.first_frame = f;
    in.last_frame = last;
    runs.push_back(in);
    f = last;
  }
  return runs;
}

ContactResult detect_contacts(const Clip& clip, const Rig& rig, const ContactSettings& settings, const LegTracks* tracks) {
  settings.validate();
  if (clip.frame_count < 1) fail(ErrorKind::process, clip.source_name + ": clip has no frames");
  if (!(clip.fps > 0) || !std::isfinite(clip.fps))
    fail(ErrorKind::process, clip.source_name + ": invalid frame rate " + std::to_string(clip.fps));
  ContactResult result;
  for (Side side : {Side::left, Side::right}) {
    const LegChain& leg = rig.leg(side);
    int joint = leg.contact_joint();
    if (!leg.valid() || joint < 0 || joint >= clip.joint_count())
      fail(ErrorKind::process, clip.source_name + ": no valid " + to_string(side) + " leg for contact detection");
  }
  if (starts_with_reference_pose(clip, rig)) {
    ContactResult motion = with_reference_frame_prepended(detect_contacts(without_first_frame(clip), rig, settings));
    motion.notes.push_back(reference_pose_note("no contact on it"));
    return motion;
  }

  const int factor = upsample_factor(clip.fps, clip.frame_count, settings);
  const double work_fps = clip.fps * factor;
  if (tracks && !tracks->match(clip, rig)) tracks = nullptr;
  std::array<std::vector<Vec3>, 2> own_feet, feet_work;
  std::array<const std::vector<Vec3>*, 2> feet_clip{};
  for (Side side : {Side::left, Side::right}) {
    const int s = static_cast<int>(side);
    feet_clip[s] = &trajectory(clip, rig.leg(side).contact_joint(), std::string(to_string(side)) + " contact joint",
                               tracks ? &tracks->legs[s].contact() : nullptr, own_feet[s]);
  }
  std::vector<Vec3> own_pelvis;
  const std::vector<Vec3>& pelvis_clip =
      trajectory(clip, tracked_pelvis_joint(rig), "pelvis", tracks ? &tracks->pelvis : nullptr, own_pelvis);
  // Capture noise: speeds are taken on positions smoothed just enough to calm it.
  result.capture_noise_m = std::max(white_noise_rms(*feet_clip[0]), white_noise_rms(*feet_clip[1]));
  const double max_velocity_noise = settings.denoise_speed_fraction * settings.speed_threshold_mps;
  const double sigma_frames = std::min(noise_smoothing_sigma(result.capture_noise_m, clip.fps, max_velocity_noise),
                                       settings.max_denoise_sigma_s * clip.fps);
  const double noise_without_motion_m = std::max(white_noise_rms(*feet_clip[0], NoiseDifference::fourth),
                                                 white_noise_rms(*feet_clip[1], NoiseDifference::fourth));
  const bool denoise = std::min(noise_smoothing_sigma(noise_without_motion_m, clip.fps, max_velocity_noise),
                                settings.max_denoise_sigma_s * clip.fps) >= k_min_denoise_sigma_frames;
  // The trajectories speeds, heights and jumps are read on: the smoothed ones when denoising.
  // (Planted positions are horizontally the medians of the raw ones: near the clip's ends a
  // smoothed trajectory lags behind the foot.)
  std::array<std::vector<Vec3>, 2> smoothed_feet;
  std::array<const std::vector<Vec3>*, 2> feet_read = feet_clip;
  if (denoise) {
    for (int s = 0; s < 2; ++s) {
      smoothed_feet[s] = gaussian_smooth(std::span<const Vec3>(*feet_clip[s]), sigma_frames);
      feet_read[s] = &smoothed_feet[s];
    }
    result.denoise_sigma_s = sigma_frames / clip.fps;
    char text[200];
    std::snprintf(text, sizeof text,
                  "the feet shake by %.1f cm from frame to frame (capture noise): contacts detected on positions "
                  "smoothed over %.0f ms",
                  100 * result.capture_noise_m, 1000 * result.denoise_sigma_s);
    result.warnings.push_back(text);
  }
  std::vector<Vec3> pelvis_work =
      upsample_catmull_rom(denoise ? gaussian_smooth(std::span<const Vec3>(pelvis_clip), sigma_frames) : pelvis_clip, factor);
  std::vector<Vec3> body_velocity = body_velocities(pelvis_work, work_fps, settings.body_speed_window_s);
  std::vector<Vec3> body_travel = body_velocities(pelvis_work, work_fps, k_body_travel_window_s);

  std::vector<double> all_heights;
  for (Side side : {Side::left, Side::right}) {
    const int s = static_cast<int>(side);
    feet_work[s] = upsample_catmull_rom(*feet_read[s], factor);
    for (const Vec3& q : *feet_read[s]) all_heights.push_back(q.y);
  }
  result.ground_height_m = quantile(all_heights, 0.05);
  std::vector<Vec3> ground_velocity = ground_velocities(feet_work, body_travel, work_fps, settings);

  for (Side side : {Side::left, Side::right}) {
    const int s = static_cast<int>(side);
    WorkSignals w = detect_foot(feet_work[static_cast<int>(side)], body_velocity, ground_velocity,
                                result.ground_height_m, work_fps, settings);
    FootContacts& foot = result.feet[static_cast<int>(side)];
    foot.side = side;
    foot.joint = rig.leg(side).contact_joint();
    foot.smoothed = at_clip_frames(w.smoothed, factor, clip.frame_count);
    foot.contact = at_clip_frames(w.contact, factor, clip.frame_count);
    foot.speed_mps = at_clip_frames(w.speed, factor, clip.frame_count);
    foot.effective_speed_mps = at_clip_frames(w.effective_speed, factor, clip.frame_count);
    foot.height_above_ground_m = at_clip_frames(w.height_above, factor, clip.frame_count);
    split_at_jumps(foot.contact, *feet_read[s], clip.fps);
    if (denoise) {
      const std::vector<Vec3> median_path =
          gaussian_smooth(window_median_per_axis(std::span<const Vec3>(*feet_clip[s]),
                                                 static_cast<int>(std::lround(k_median_path_half_sigmas * sigma_frames))),
                          k_median_path_smoothing_sigmas * sigma_frames);
      const WorkSignals robust = detect_foot(upsample_catmull_rom(median_path, factor), body_velocity, ground_velocity,
                                             result.ground_height_m, work_fps, settings);
      std::vector<std::uint8_t> robust_contact = at_clip_frames(robust.contact, factor, clip.frame_count);
      split_at_jumps(robust_contact, median_path, clip.fps);
      merge_median_path_contacts(foot.contact, robust_contact, k_short_contact_sigmas * sigma_frames,
                                 k_median_only_contact_sigmas * sigma_frames);
      grow_noisy_contacts(foot, *feet_clip[s], k_noise_spread_radius * result.capture_noise_m,
                          static_cast<int>(std::ceil(k_noisy_contact_growth_sigmas * sigma_frames)),
                          settings.height_threshold_m);
    }
    place_intervals(foot, *feet_clip[s], *feet_read[s]);
    if (foot.intervals.empty())
      result.warnings.push_back(std::string(to_string(side)) + " foot ('" + clip.skeleton.names[foot.joint] +
                                "'): no contact detected");
  }
  return result;
}

}  // namespace footfix
