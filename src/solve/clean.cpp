#include "footfix/solve/clean.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "footfix/core/math.h"
#include "footfix/contacts/leg_glitches.h"
#include "footfix/contacts/reference_pose.h"
#include "footfix/contacts/signal_filters.h"
#include "footfix/solve/pinned_root.h"
#include "clean_problem.h"
#include "guard_pops.h"
#include "loop_wrap.h"
#include "noisy_contact_ends.h"
#include "offline_apply.h"

namespace footfix {
namespace {

// A planted foot missing its target by less than this is not worth a warning: the slide left
// is under mocap noise.
constexpr double k_warn_miss_m = 0.01;
// An in-place clip is suspected (a warning) when the feet travel at least
// k_in_place_min_feet_travel_m horizontally (mean of both) while the root travels less than
// k_in_place_root_travel_share of that.
constexpr double k_in_place_min_feet_travel_m = 0.2;
constexpr double k_in_place_root_travel_share = 0.3;
// Pelvis drops below this are ordinary compensation, not worth a warning.
constexpr double k_warn_pelvis_drop_m = 0.03;
// Accelerations the pop guard leaves up to this much over its limit are not worth a warning.
constexpr double k_warn_pop_excess = 1.1;
// Time over which the IK's height floors ease into a contact's own at its start and end (s).
constexpr double k_floor_ease_s = 0.1;
// Clips of up to this many frames have their legs' positions computed once for all the clean's
// stages (leg_tracks, about 290 bytes a frame, twice: the source's, then the cleaned clip's);
// longer ones compute them stage by stage, so a very long clip's peak memory stays near its
// decoded size. 20,000 frames (2.8 minutes at 120 Hz) covers a library's clips with 6 MiB of
// tracks at most.
constexpr int k_tracked_frames_max = 20000;
// The global anchor of the solve on a treadmill (see clean_on_treadmill), relative to the soft
// weight like OfflineSolveSettings::fast_anchor.
constexpr double k_treadmill_path_anchor = 0.05;

// On noisy capture (contact detection smoothed the feet: ContactResult::denoise_sigma_s) the
// solve's soft terms follow the input's shaking velocities, which pull planted toes by a share
// of the noise (0.2 mm a frame for 2 cm of noise at 120 Hz: a planted foot that shakes at 2-5
// cm/s). Locks this much stiffer keep them still.
constexpr double k_noisy_capture_lock_stiffening = 100;
// The white noise (m per axis) the pelvis path the solve follows keeps on noisy capture.
constexpr double k_pelvis_noise_left_m = 0.002;
// The widest pelvis smoothing (s, sigma of local_quadratic_smooth): it passes the body's bob at
// 2.5 Hz (a brisk walk's steps) with 90% of its amplitude.
constexpr double k_pelvis_max_sigma_s = 0.064;
// In flight (no foot planted) the pelvis path is smoothed over this share of that sigma: a
// parabola fitted across a hop's take-off and landing lowers its apex by about the square of its
// width, 1-2 cm at the full width at 30 Hz, and no planted leg takes up the noise left.
constexpr double k_flight_pelvis_sigma_share = 0.5;
// On noisy capture, how far into a contact from each end (in the detection smoothing's sigmas)
// its frames may be released, and the pelvis drop (m) holding the toe there may need at most
// (release_unreachable_contact_ends).
constexpr double k_noisy_end_margin_sigmas = 2.0;
constexpr double k_noisy_end_max_drop_m = 0.005;
// The most times the clip is solved again after releasing such frames.
constexpr int k_noisy_end_rounds = 3;

OfflineSolveSettings solve_settings_for(const OfflineSolveSettings& settings, const ContactResult& contacts) {
  OfflineSolveSettings out = settings;
  if (contacts.denoise_sigma_s > 0) out.fast_hard_scale *= k_noisy_capture_lock_stiffening;
  return out;
}

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

OfflineSolveResult solve_clean_problem(const Clip& clip, const OfflineSolveInput& input,
                                       const OfflineSolveSettings& settings, const ContactResult& contacts) {
  try {
    return solve_offline(input, solve_settings_for(settings, contacts));
  } catch (const Error& e) {
    fail(e.kind(), clip.source_name + ": " + e.what());
  }
}

// --smooth-swing on clean capture: the narrowest smoothing of the swings (s, Gaussian sigma).
constexpr double k_smooth_swing_min_sigma_s = 0.03;

// The solved toe targets of every swing frame (no contact) replaced by the targets smoothed over
// the capture noise's sigma (at least k_smooth_swing_min_sigma_s); planted frames keep theirs.
void smooth_swings(OfflineSolveResult& solved, const std::array<std::vector<std::uint8_t>, 2>& contact,
                   double noise_sigma_s, double fps) {
  const double sigma_frames = std::max(noise_sigma_s, k_smooth_swing_min_sigma_s) * fps;
  for (int leg = 0; leg < 2; ++leg) {
    std::vector<Vec3>& toe = solved.toe_ws[leg];
    const std::vector<Vec3> smoothed = gaussian_smooth(std::span<const Vec3>(toe), sigma_frames);
    for (size_t f = 0; f < toe.size() && f < contact[leg].size(); ++f)
      if (!contact[leg][f]) toe[f] = smoothed[f];
  }
}

void check_legs(const Rig& rig) {
  for (const auto& leg : rig.legs)
    if (!leg.valid()) fail(ErrorKind::process, "clean: the rig has no valid legs");
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

// What the pop guard gave up, when it is worth a word: a planted foot moved by more than
// k_warn_miss_m, or accelerations left well over the limit.
void add_pop_guard_warnings(CleanResult& r, const PopGuardSettings& settings) {
  for (int s = 0; s < 2; ++s)
    if (r.pops.max_planted_shift_m[s] > k_warn_miss_m)
      r.warnings.push_back(std::string(to_string(static_cast<Side>(s))) + " foot: moved by up to " +
                           std::to_string(static_cast<int>(std::lround(r.pops.max_planted_shift_m[s] * 1000))) +
                           " mm while planted, to keep the leg's accelerations near the source's (pop guard)");
  if (r.pops.worst_ratio_left > k_warn_pop_excess * settings.max_ratio) {
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2f", r.pops.worst_ratio_left);
    r.warnings.push_back("pop guard: " + std::to_string(r.pops.frames_over) + " leg joint frames still accelerate up to " +
                         ratio + " x the source's after its passes");
  }
}

// Horizontal path length of a trajectory (meters).
double horizontal_travel(const std::vector<Vec3>& track) {
  double sum = 0;
  for (size_t f = 1; f < track.size(); ++f) sum += std::hypot(track[f].x - track[f - 1].x, track[f].z - track[f - 1].z);
  return sum;
}

CleanResult clean_on_treadmill(const Clip& clip, Clip* owned, const Rig& rig, const CleanSettings& settings,
                               const ContactResult* contacts, Vec3 g);
CleanResult clean_loop(const Clip& clip, Clip* owned, const Rig& rig, const CleanSettings& settings);
CleanResult clean_carried_by_feet(const Clip& clip, Clip* owned, const Rig& rig, const CleanSettings& settings,
                                  const std::array<std::vector<Vec3>, 2>& toe_ws, const ContactResult& contacts);
CleanResult clean_after_reference_frame(const Clip& clip, Clip* owned, const Rig& rig, const CleanSettings& settings);

// The whole clean in the ground's frame: the clip with its body moved by -g t is an ordinary
// root-motion clip (contacts are detected on it as on any walk, planted feet are locked still),
// and the cleaned clip is moved back by +g t. Planted feet then move at exactly g and the root
// stays where the source had it. With `owned` (= &clip, handed over) that is done in place.
CleanResult clean_on_treadmill(const Clip& clip, Clip* owned, const Rig& rig, const CleanSettings& settings,
                               const ContactResult* contacts, Vec3 g) {
  CleanSettings still = settings;
  still.treadmill.mode = TreadmillMode::off;
  still.treadmill.ground_velocity_mps.reset();
  // On the treadmill the root is what the source got right (it stays where the source had it);
  // the input toes in the ground's frame carry the fitted ground velocity's error, so their mean
  // over a contact is no foothold to pull the lock to.
  still.solve.fast_lock_anchor = 0;
  // For the same reason the pelvis keeps its path much more firmly than in world space (where a
  // clip made to slide needs its path changed): the global anchor at k_treadmill_path_anchor
  // instead of fast_anchor's 1e-3 keeps the root's end-to-end drift within ~1.5 cm on the shared
  // walks and runs made in place (bench_inplace; 5-7 cm with the world-space anchor) for ~1-4
  // points more treadmill slide (still under 15% of the in-place input's).
  still.solve.fast_anchor = std::max(still.solve.fast_anchor, k_treadmill_path_anchor);
  const double fps = clip.fps;
  Clip ground = owned ? std::move(*owned) : clip;  // `clip` may be empty from here on
  shift_clip_by_ground_in_place(ground, rig.translation_joint, g, -1);
  CleanResult r = clean_clip(std::move(ground), rig, still, contacts);
  shift_clip_by_ground_in_place(r.cleaned, rig.translation_joint, g, +1);
  r.treadmill = true;
  r.ground_velocity_mps = g;
  r.contacts.ground_velocity_mps = g;
  std::vector<Vec3> root_ws(static_cast<size_t>(r.cleaned.frame_count));
  joint_trajectory(r.cleaned, rig.translation_joint, root_ws);
  r.contacts.ground_distance_m = ground_distance_curve(root_ws, g, fps);
  // Planted positions as the world sees them: where the foot is at the middle of its contact.
  for (auto& foot : r.contacts.feet)
    for (auto& iv : foot.intervals) iv.planted_position_m += g * (0.5 * (iv.first_frame + iv.last_frame) / fps);
  return r;
}

// A pinned root (see solve/pinned_root.h): the body is first given the travel its planted feet
// imply, from the contacts detected on the pinned clip, then again from the contacts detected
// on the clip so carried (a turn or a stop the first detection missed is seen once the body
// moves), and that root-motion clip is cleaned in world space. `toe_ws`: the pinned clip's
// contact-joint positions. With `owned` (= &clip, handed over) the clip is moved in place.
CleanResult clean_carried_by_feet(const Clip& clip, Clip* owned, const Rig& rig, const CleanSettings& settings,
                                  const std::array<std::vector<Vec3>, 2>& toe_ws, const ContactResult& contacts) {
  Clip carried = owned ? std::move(*owned) : clip;  // `clip` may be empty from here on
  std::array<std::vector<std::uint8_t>, 2> planted{contacts.feet[0].contact, contacts.feet[1].contact};
  std::vector<Vec3> applied(static_cast<size_t>(carried.frame_count));
  for (int round = 0; round < 2; ++round) {
    if (round > 0) {
      const ContactResult again = detect_contacts(carried, rig, settings.contacts);
      planted = {again.feet[0].contact, again.feet[1].contact};
    }
    const std::vector<Vec3> travel = travel_from_planted_feet(toe_ws, planted, carried.fps);
    for (int f = 0; f < carried.frame_count; ++f) move_body(carried, f, rig.translation_joint, travel[f] - applied[f]);
    applied = travel;
  }
  double farthest = 0;
  for (const Vec3& t : applied) farthest = std::max(farthest, std::hypot(t.x, t.z));
  CleanSettings world = settings;
  world.treadmill.mode = TreadmillMode::off;
  CleanResult r = clean_clip(std::move(carried), rig, world);
  char text[240];
  std::snprintf(text, sizeof text,
                "the root never moves horizontally while the planted feet slide (a pinned root): the body was "
                "carried with its planted feet, up to %.2f m from where it stood (--treadmill on keeps it in place)",
                farthest);
  r.warnings.push_back(text);
  return r;
}

/// Frames [first, first + count) of a foot's contacts; intervals rebuilt from the cut runs, each
/// keeping the planted position and height of the interval it came from.
FootContacts cut_contacts(const FootContacts& foot, int first, int count) {
  auto cut = [&](const auto& v) { return std::decay_t<decltype(v)>(v.begin() + first, v.begin() + first + count); };
  FootContacts out = foot;
  out.smoothed = cut(foot.smoothed);
  out.contact = cut(foot.contact);
  out.speed_mps = cut(foot.speed_mps);
  out.effective_speed_mps = cut(foot.effective_speed_mps);
  out.height_above_ground_m = cut(foot.height_above_ground_m);
  out.intervals = contact_runs(out.contact);
  for (auto& iv : out.intervals)
    for (const auto& whole : foot.intervals)
      if (whole.first_frame <= iv.first_frame + first && iv.first_frame + first <= whole.last_frame) {
        iv.planted_position_m = whole.planted_position_m;
        iv.height_m = whole.height_m;
      }
  return out;
}

// A cycle: cleaned with up to a second wrapped around each end, then cut back; its last frame's
// legs are set to its first frame's and its root height to the first's (as in the source). With
// `owned` (= &clip, handed over) the wrapped clip is made from it in place, and the cleaned clip
// is cut back in place: no copy of the clip beyond the wrapped margins.
CleanResult clean_loop(const Clip& clip, Clip* owned, const Rig& rig, const CleanSettings& settings) {
  const int n = clip.frame_count;
  const int pad = std::min(n - 2, static_cast<int>(std::lround(clip.fps)));
  const int root = rig.translation_joint, parent = clip.skeleton.parents[root];
  // What the cut needs from the source: its root's rise over the cycle, and what it was read from.
  const double source_rise_m = joint_world(clip, n - 1, root).translation.y - joint_world(clip, 0, root).translation.y;
  std::shared_ptr<const SourceData> source = clip.source;
  CleanSettings once = settings;
  once.loop = LoopMode::off;
  CleanResult r = clean_clip(owned ? wrap_loop(std::move(*owned), rig, pad) : wrap_loop(clip, rig, pad), rig, once);
  Clip& cleaned = r.cleaned;  // `clip` is empty from here on when it was handed over
  keep_frames(cleaned, pad, n);
  cleaned.source = std::move(source);
  for (const auto& leg : rig.legs)
    for (int j : {leg.hip, leg.knee, leg.heel, leg.toe})
      if (j >= 0) cleaned.rotation(n - 1, j) = cleaned.rotation(0, j);
  // The root's height closes too; its travel over the cycle is the cleaned one (a clip made to
  // slide travels less, or more, once its feet are locked).
  const Transform parent_first = parent >= 0 ? joint_world(cleaned, 0, parent) : Transform{};
  const Transform parent_last = parent >= 0 ? joint_world(cleaned, n - 1, parent) : Transform{};
  Vec3 last_ws = apply(parent_last, cleaned.translation(n - 1, root));
  last_ws.y = apply(parent_first, cleaned.translation(0, root)).y + source_rise_m;
  cleaned.translation(n - 1, root) = rotate(inverse(parent_last.rotation), last_ws - parent_last.translation);
  for (auto& foot : r.contacts.feet) foot = cut_contacts(foot, pad, n);
  if (auto& distance = r.contacts.ground_distance_m; !distance.empty()) {
    const double start = distance[static_cast<size_t>(pad)];
    distance.assign(distance.begin() + pad, distance.begin() + pad + n);
    for (double& d : distance) d -= start;
  }
  r.loop = true;
  return r;
}

// A rest or reference pose kept as frame 0 (see contacts/reference_pose.h): frames 1.. are cleaned on their own and
// frame 0 is written back as it was, with no contact.
CleanResult clean_after_reference_frame(const Clip& clip, Clip* owned, const Rig& rig, const CleanSettings& settings) {
  const std::string note = reference_pose_note("left as it is, frames 1.. cleaned");
  const int frame_count = clip.frame_count;
  const auto per_frame = static_cast<std::ptrdiff_t>(clip.joint_count());
  const std::vector<Quat> first_rotations(clip.rotations.begin(), clip.rotations.begin() + per_frame);
  const std::vector<Vec3> first_translations(clip.translations.begin(), clip.translations.begin() + per_frame);
  // The pops are guarded over the whole clip, frame 0 included (the step from frame 0 to the
  // first cleaned frame is the source's plus the clean's correction there).
  const PopGuardSource pop_source = capture_pop_guard_source(clip, rig, settings.pops);
  CleanSettings rest = settings;
  rest.pops.max_ratio = 0;
  CleanResult r;
  if (owned) {
    // The rest cleaned in place (the vectors keep their capacity, so frame 0 goes back in front
    // without a second copy of the clip); `clip` is empty or unspecified from here on.
    drop_first_frame(*owned);
    r = clean_clip(std::move(*owned), rig, rest);
  } else {
    r = clean_clip(without_first_frame(clip), rig, rest);
  }
  // Frame 0 put back in front of the cleaned frames.
  r.cleaned.rotations.insert(r.cleaned.rotations.begin(), first_rotations.begin(), first_rotations.end());
  r.cleaned.translations.insert(r.cleaned.translations.begin(), first_translations.begin(), first_translations.end());
  r.cleaned.frame_count = frame_count;
  r.contacts = with_reference_frame_prepended(r.contacts);
  r.pops = guard_pops(r.cleaned, rig, pop_source, settings.pops, &r.contacts);
  add_pop_guard_warnings(r, settings.pops);
  r.contacts.notes.push_back(note);
  return r;
}

}  // namespace

void CleanSettings::validate() const {
  contacts.validate();
  ground.validate();
  solve.validate();
  ik.validate();
  treadmill.validate();
  pops.validate();
}

CleanProblem prepare_clean_problem(const Clip& clip, const Rig& rig, const ContactResult& contacts,
                                   const LegIkSettings& ik, const LegTracks* tracks) {
  if (tracks && !tracks->match(clip, rig)) tracks = nullptr;
  CleanProblem problem;
  for (int s = 0; s < 2; ++s)
    problem.heights[s] = planted_heights(clip, rig.legs[s], contacts.feet[s], tracks ? &tracks->legs[s] : nullptr);
  OfflineSolveInput& input = problem.input;
  input = offline_input_from_clip(clip, rig.translation_joint, rig.legs, ik, tracks);
  for (int s = 0; s < 2; ++s) {
    const FootContacts& foot = contacts.feet[s];
    input.contact[s] = foot.contact;
    for (const auto& iv : foot.intervals)
      for (int f = iv.first_frame; f <= iv.last_frame; ++f) input.contact_height_m[s][f] = iv.height_m;
    double lowest = 1e300;
    for (const auto& h : problem.heights[s]) lowest = std::min(lowest, h.toe_min_m);
    input.toe_min_height_m[s] = lowest;
  }
  return problem;
}

namespace {

CleanResult clean_clip_impl(const Clip& clip, Clip* owned, const Rig& rig, const CleanSettings& settings,
                            const ContactResult* contacts);

// The whole clip moved up or down so its planted feet stand at 0 (CleanSettings::ground), then
// cleaned where it stands. With `owned` (= &clip, handed over) it is moved in place.
CleanResult clean_on_the_ground(const Clip& clip, Clip* owned, const Rig& rig, const CleanSettings& settings,
                                const ContactResult* contacts) {
  double ground_m = settings.ground.height_m;
  if (settings.ground.mode == GroundMode::auto_detect)
    ground_m = estimate_ground_height(clip, rig, contacts ? *contacts : detect_contacts(clip, rig, settings.contacts));
  Clip moved = owned ? std::move(*owned) : clip;  // `clip` may be empty from here on
  for (int f = 0; f < moved.frame_count; ++f) move_body(moved, f, rig.translation_joint, {0.0, -ground_m, 0.0});
  CleanSettings kept = settings;
  kept.ground.mode = GroundMode::keep;
  ContactResult moved_contacts;
  if (contacts) {
    moved_contacts = *contacts;
    moved_contacts.ground_height_m -= ground_m;
    for (auto& foot : moved_contacts.feet)
      for (auto& in : foot.intervals) {
        in.planted_position_m.y -= ground_m;
        in.height_m -= ground_m;
      }
  }
  CleanResult r = clean_clip_impl(moved, &moved, rig, kept, contacts ? &moved_contacts : nullptr);
  r.ground_offset_m = -ground_m;
  r.contacts.ground_offset_m = -ground_m;
  return r;
}

// clean_clip's work; with `owned` (the caller's clip, = &clip, handed over) the cleaned clip is
// made from it in place instead of a copy.
CleanResult clean_clip_impl(const Clip& clip, Clip* owned, const Rig& rig, const CleanSettings& settings,
                            const ContactResult* contacts) {
  settings.validate();
  check_legs(rig);
  if (clip.frame_count < 1) fail(ErrorKind::process, clip.source_name + ": clip has no frames");
  if (settings.ground.mode != GroundMode::keep) return clean_on_the_ground(clip, owned, rig, settings, contacts);
  if (!contacts && starts_with_reference_pose(clip, rig)) return clean_after_reference_frame(clip, owned, rig, settings);
  if (!contacts && settings.loop != LoopMode::off && clip.frame_count >= 3 &&
      (settings.loop == LoopMode::on || is_loop(clip, rig)))
    return clean_loop(clip, owned, rig, settings);
  CleanResult result;
  // The legs' positions, read by each stage below instead of computed again by each. A long clip
  // leaves each stage to compute its own (k_tracked_frames_max): memory stays what it was.
  const bool clip_is_tracked = clip.frame_count <= k_tracked_frames_max;
  LegTracks tracks = clip_is_tracked ? leg_tracks(clip, rig) : LegTracks{};
  const LegTracks* const tracked = clip_is_tracked ? &tracks : nullptr;
  result.contacts = contacts ? *contacts : detect_contacts(clip, rig, settings.contacts, tracked);
  for (const auto& w : result.contacts.warnings) result.warnings.push_back(w);

  // The reach-limited solve keeps targets within the leg; the IK's soft limit then ends at the
  // straight leg (see offline_input_from_clip).
  LegIkSettings ik = settings.ik;
  ik.reach_to_straight = settings.solve.fast_reach_weight > 0 && settings.solve.solver == OfflineSolver::fast;
  CleanProblem problem = prepare_clean_problem(clip, rig, result.contacts, ik, tracked);
  const LegHeightTracks& heights = problem.heights;
  // On noisy capture every decision below reads the paths the solve follows: a contact's raw
  // ends shake by the noise, and their shaking alone can read as a treadmill's speed.
  const bool noisy = result.contacts.denoise_sigma_s > 0;
  if (noisy) follow_noisy_capture(problem.input, result.contacts.denoise_sigma_s * clip.fps);
  // A pinned root whose feet slide around it is carried by them (unless a treadmill is asked for).
  if (!contacts && settings.treadmill.mode != TreadmillMode::on && !settings.treadmill.ground_velocity_mps &&
      root_is_pinned(problem.input.pelvis_ws) &&
      length(estimate_ground_velocity(problem.input.toe_ws, problem.input.contact, clip.fps)) >=
          k_treadmill_min_speed_mps) {
    const std::array<std::vector<Vec3>, 2> toe_ws = problem.input.toe_ws;
    problem = CleanProblem{};
    return clean_carried_by_feet(clip, owned, rig, settings, toe_ws, result.contacts);
  }
  // An in-place clip (no root motion, feet sliding back by design) is locked on a treadmill:
  // the solve runs in the ground's frame. Forced off, it is locked in world space like any
  // other and the body then walks forward of where it stood: say so.
  TreadmillDecision treadmill = decide_treadmill(problem.input, settings.treadmill);
  if (treadmill.on && !settings.treadmill.ground_velocity_mps && !contacts)
    treadmill.ground_velocity_mps = refine_ground_velocity(clip, rig, settings.contacts,
                                                           tracked ? *tracked : leg_tracks(clip, rig),
                                                           treadmill.ground_velocity_mps);
  double feet_travel = 0.5 * (horizontal_travel(problem.input.toe_ws[0]) + horizontal_travel(problem.input.toe_ws[1]));
  if (!treadmill.on && feet_travel > k_in_place_min_feet_travel_m &&
      horizontal_travel(problem.input.pelvis_ws) < k_in_place_root_travel_share * feet_travel)
    result.warnings.push_back("the root barely travels while the feet do: an in-place clip? Locking its feet moves the body");
  // Both feet planted throughout (a bow, a wave) is an ordinary standing clip: no warning.
  // One foot planted throughout while the other moves is worth a word.
  std::array<bool, 2> always_planted{};
  for (int s = 0; s < 2; ++s) {
    const auto& c = result.contacts.feet[s].contact;
    always_planted[s] = clip.frame_count > 1 && std::all_of(c.begin(), c.end(), [](std::uint8_t v) { return v != 0; });
  }
  for (int s = 0; s < 2; ++s)
    if (always_planted[s] && !always_planted[1 - s])
      result.warnings.push_back(std::string(to_string(static_cast<Side>(s))) +
                                " foot is planted in every frame: it is held in one place for the whole clip");
  if (treadmill.on) {
    problem = CleanProblem{};  // the clean in the ground's frame makes its own
    return clean_on_treadmill(clip, owned, rig, settings, contacts, treadmill.ground_velocity_mps);
  }
  OfflineSolveResult solved = solve_clean_problem(clip, problem.input, settings.solve, result.contacts);
  const bool lowers_pelvis = settings.solve.fast_pelvis_height > 0 && !ik.reach_to_straight;
  // On noisy capture a contact's ends are uncertain; those the leg cannot hold without lowering
  // the pelvis are released, and the clip solved again without them. (Each solve moves the
  // pelvis, and with it what the next finds out of reach: a few rounds.)
  for (int round = 0; noisy && lowers_pelvis && round < k_noisy_end_rounds; ++round) {
    if (!release_unreachable_contact_ends(
            result.contacts,
            reach_drops_needed(clip, rig.translation_joint, rig.legs, problem.input.contact, ik, solved, tracked),
            static_cast<int>(std::ceil(k_noisy_end_margin_sigmas * result.contacts.denoise_sigma_s * clip.fps)),
            k_noisy_end_max_drop_m))
      break;
    problem = prepare_clean_problem(clip, rig, result.contacts, ik, tracked);
    follow_noisy_capture(problem.input, result.contacts.denoise_sigma_s * clip.fps);
    solved = solve_clean_problem(clip, problem.input, settings.solve, result.contacts);
  }
  result.solver_iterations = solved.iterations;
  if (!solved.converged)
    result.warnings.push_back("the offline solve did not converge in " +
                              std::to_string(solved.iterations) + " steps (last change " +
                              std::to_string(solved.final_change_m * 1000) + " mm): the result may keep some sliding");
  // Where the solve kept the pelvis up (fast_pelvis_height) and a planted target is then beyond
  // the leg, the pelvis moves towards it where that helps, then comes down by the least that
  // reaches it, both spread over a few tenths of a second. The reach-limited solve keeps its
  // targets within reach itself.
  if (settings.smooth_swing) smooth_swings(solved, problem.input.contact, result.contacts.denoise_sigma_s, clip.fps);
  if (lowers_pelvis)
    lower_pelvis_to_reach(clip, rig.translation_joint, rig.legs, problem.input.contact, ik, solved, true, tracked);
  // Pulling the hips down to keep locked feet reachable bends the knees ("dinosaur" look).
  double max_drop_m = 0;
  for (int f = 0; f < clip.frame_count; ++f)
    max_drop_m = std::max(max_drop_m, problem.input.pelvis_ws[f].y - solved.pelvis_ws[f].y);
  if (max_drop_m > k_warn_pelvis_drop_m)
    result.warnings.push_back("the pelvis was lowered by up to " + std::to_string(static_cast<int>(std::lround(max_drop_m * 100))) +
                              " cm to keep the planted feet reachable (check for over-bent knees)");

  problem.input = OfflineSolveInput{};  // no longer needed: its memory goes before the output clip's
  const PopGuardSource pop_source = capture_pop_guard_source(clip, rig, settings.pops, tracked);
  if (owned)
    result.cleaned = std::move(*owned);  // `clip` is empty from here on
  else
    result.cleaned = clip;
  const int frames = result.cleaned.frame_count;
  OfflineApplyReport applied =
      apply_offline_solve(result.cleaned, rig.translation_joint, rig.legs, solved, heights, ik, tracked);
  // From here on, the cleaned legs' positions: read by the planted misses and the pop guard.
  tracks = clip_is_tracked ? leg_tracks(result.cleaned, rig) : LegTracks{};
  for (int s = 0; s < 2; ++s) {
    result.unreached_frames[s] = applied.unreached_frames[s];
    result.max_miss_m[s] = applied.max_miss_m[s];
  }
  // A miss matters only where the foot is planted (a swinging foot has no target to keep), and
  // only when it is large enough to be seen.
  for (int s = 0; s < 2; ++s) {
    const auto& contact = result.contacts.feet[s].contact;
    std::vector<Vec3> own_reached;
    const std::vector<Vec3>& reached =
        positions_of(result.cleaned, rig.legs[s].contact_joint(), tracked ? &tracks.legs[s].contact() : nullptr, own_reached);
    int missed = 0;
    double worst_m = 0;
    for (int f = 0; f < frames; ++f) {
      if (!contact[f]) continue;
      double miss = length(reached[f] - solved.toe_ws[s][f]);
      if (miss > k_warn_miss_m) ++missed;
      worst_m = std::max(worst_m, miss);
    }
    result.max_planted_miss_m[s] = worst_m;
    if (worst_m > k_warn_miss_m)
      result.warnings.push_back(std::string(to_string(static_cast<Side>(s))) + " foot: planted target missed in " +
                                std::to_string(missed) + " planted frames, by up to " +
                                std::to_string(static_cast<int>(std::lround(worst_m * 1000))) +
                                " mm: the leg cannot reach it, so some sliding is left (check the leg joints with "
                                "`footfix inspect`, or name them with --rig)");
  }
  result.pops = guard_pops(result.cleaned, rig, pop_source, settings.pops, &result.contacts, tracked);
  add_pop_guard_warnings(result, settings.pops);
  return result;
}

}  // namespace

namespace {

/// `result` with the warning that `glitches` were bridged, first.
CleanResult with_glitch_warning(CleanResult result, const std::vector<LegGlitch>& glitches) {
  if (!glitches.empty()) result.warnings.insert(result.warnings.begin(), describe_leg_glitches(glitches, result.cleaned));
  return result;
}

}  // namespace

CleanResult clean_clip(const Clip& clip, const Rig& rig, const CleanSettings& settings, const ContactResult* contacts) {
  const std::vector<LegGlitch> glitches = find_leg_glitches(clip, rig);
  if (glitches.empty()) return clean_clip_impl(clip, nullptr, rig, settings, contacts);
  Clip bridged = clip;
  bridge_leg_glitches(bridged, glitches);
  return with_glitch_warning(clean_clip_impl(bridged, &bridged, rig, settings, contacts), glitches);
}

CleanResult clean_clip(Clip&& clip, const Rig& rig, const CleanSettings& settings, const ContactResult* contacts) {
  const std::vector<LegGlitch> glitches = find_leg_glitches(clip, rig);
  bridge_leg_glitches(clip, glitches);
  return with_glitch_warning(clean_clip_impl(clip, &clip, rig, settings, contacts), glitches);
}

}  // namespace footfix
