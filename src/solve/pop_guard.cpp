#include "guard_pops.h"
#include "pop_guard_stretch.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "footfix/ik/leg_ik.h"
#include "footfix/rig/pop_measure.h"
#include "contact_end_release.h"

namespace footfix {
namespace {

constexpr int k_stall_passes = 40;
// What a stalled stretch keeps of the legs' corrections at frames over the limit, a pass.
constexpr double k_stall_keep = 0.9;
// Frames (as seconds) a stretch reaches beyond the frames over the limit on each side.
constexpr double k_stretch_margin_s = 0.5;
// Longest stretch (frames): a long clip over the limit all along is smoothed in pieces, so the
// guard's memory stays small whatever the clip's length.
constexpr int k_max_stretch_frames = 4096;
// On noisy capture, the excess over the limit (a multiple of max_ratio) that the passes with
// every planted leg held may leave: the planted feet then stay still. 1.07 x the default 1.4 is
// 1.5 x the source's acceleration.
constexpr double k_noisy_excess_kept = 1.07;
// On noisy capture, how far (m) the guard may move a planted contact joint before the contact
// end frames where it did are released (release_moved_contact_ends): less is within the lock's
// own stillness.
constexpr double k_noisy_still_shift_m = 0.001;

/// The accelerations of `leg`'s tracked joints (pop_tracked_joints) in `clip`: [k][frame] in
/// m/s^2 (0 at both ends); lowest_m[k], if given, the lowest height joint k reaches. From
/// `track` (the leg's positions, leg_tracks) where given, else composed a block of frames at a
/// time (memory stays that of a block).
std::vector<std::vector<double>> leg_accelerations(const Clip& clip, const LegChain& leg, double fps, const LegTrack* track,
                                                   std::vector<double>* lowest_m = nullptr) {
  const std::vector<JointPoint> points = pop_tracked_points(clip, leg);
  const size_t tracked = points.size();
  std::vector<std::vector<double>> accel(tracked, std::vector<double>(static_cast<size_t>(clip.frame_count), 0.0));
  const std::vector<const std::vector<Vec3>*> whole = track ? pop_tracked_tracks(*track, leg) : std::vector<const std::vector<Vec3>*>{};
  std::vector<Vec3> before_last(tracked), last(tracked);
  std::vector<double> lowest(tracked, 1e300);
  constexpr int k_block_frames = 1024;
  std::vector<std::vector<Vec3>> block(track ? 0 : tracked, std::vector<Vec3>(static_cast<size_t>(std::min(clip.frame_count, k_block_frames))));
  std::vector<Vec3*> block_out;
  for (auto& b : block) block_out.push_back(b.data());
  for (int first = 0; first < clip.frame_count; first += k_block_frames) {
    const int count = std::min(k_block_frames, clip.frame_count - first);
    if (!track) point_trajectories(clip, points, first, count, block_out);
    for (size_t k = 0; k < tracked; ++k)
      for (int f = first; f < first + count; ++f) {
        const Vec3 p = track ? (*whole[k])[static_cast<size_t>(f)] : block[k][static_cast<size_t>(f - first)];
        if (f >= 2) accel[k][static_cast<size_t>(f - 1)] = acceleration_mps2(before_last[k], last[k], p, fps);
        lowest[k] = std::min(lowest[k], p.y);
        before_last[k] = last[k];
        last[k] = p;
      }
  }
  if (lowest_m) *lowest_m = lowest;
  return accel;
}

/// What a stretch's passes left: for the report.
struct StretchOutcome {
  int over = 0;
  double worst_excess = 0;
  int changed_frames = 0;
  std::array<double, 2> planted_shift_m{0, 0};
};

StretchOutcome outcome_of(const PopGuardStretch& stretch, int over, const ContactResult* contacts) {
  StretchOutcome out{over, stretch.worst_excess(), stretch.changed_frames(), {0, 0}};
  if (contacts)
    for (int s = 0; s < 2; ++s) out.planted_shift_m[s] = stretch.planted_shift_m(s, contacts->feet[s].contact);
  return out;
}

/// The values the guard may change (legs' rotations, the root's translation) of frames
/// [first, last], to put back as they were.
struct SavedFrames {
  int first = 0, last = -1;
  std::vector<Quat> rotations;
  std::vector<Vec3> root_translations;
};

SavedFrames save_frames(const Clip& clip, const Rig& rig, const std::array<std::vector<int>, 2>& joints, int first, int last) {
  SavedFrames out{first, last, {}, {}};
  for (int f = first; f <= last; ++f) {
    for (const auto& leg : joints)
      for (int j : leg) out.rotations.push_back(clip.rotation(f, j));
    if (rig.translation_joint >= 0) out.root_translations.push_back(clip.translation(f, rig.translation_joint));
  }
  return out;
}

void restore_frames(Clip& clip, const Rig& rig, const std::array<std::vector<int>, 2>& joints, const SavedFrames& saved) {
  size_t r = 0, t = 0;
  for (int f = saved.first; f <= saved.last; ++f) {
    for (const auto& leg : joints)
      for (int j : leg) clip.rotation(f, j) = saved.rotations[r++];
    if (rig.translation_joint >= 0) clip.translation(f, rig.translation_joint) = saved.root_translations[t++];
  }
}

/// Frames (interior, 1 .. n-2) where some tracked joint of `clip` is over its limit, in order.
std::vector<int> frames_over(const Clip& clip, const Rig& rig, const PopGuardSource& source, const LegTracks* tracks) {
  std::vector<std::uint8_t> over(static_cast<size_t>(clip.frame_count), 0);
  for (int s = 0; s < 2; ++s) {
    const std::vector<std::vector<double>> accel =
        leg_accelerations(clip, rig.legs[s], source.fps, tracks ? &tracks->legs[s] : nullptr);
    for (size_t k = 0; k < accel.size(); ++k)
      for (size_t f = 0; f < accel[k].size(); ++f) over[f] = over[f] | (accel[k][f] > source.allowed_mps2[s][k][f]);
  }
  std::vector<int> out;
  for (int f = 0; f < clip.frame_count; ++f)
    if (over[f]) out.push_back(f);
  return out;
}

/// Smoothing passes on `stretch` from the frames `check` (left: how many are over, updated):
/// they stop when nothing is over, at max_passes (passes counts them), or when k_stall_passes in
/// a row have not lowered the count over the limit.
void run_passes(PopGuardStretch& stretch, std::vector<int>& check, int& left, int& passes, int max_passes, double shrink) {
  int fewest = left, since_fewer = 0;
  while (left > 0 && passes < max_passes && since_fewer < k_stall_passes) {
    check = stretch.smooth(shrink);
    ++passes;
    left = stretch.mark(check);
    since_fewer = left < fewest ? 0 : since_fewer + 1;
    fewest = std::min(fewest, left);
  }
}

/// The passes that may move the root and the legs wherever a leg is over its limit: first with
/// the root held where a planted leg hangs from it (the planted foot keeps its place); only what
/// that leaves over the limit gets the root smoothed there too. Where that stalls, the legs'
/// corrections also ease towards none. Returns what they leave.
StretchOutcome smooth_freely(PopGuardStretch& stretch, std::vector<int>& check, int& left, int& passes, int max_passes,
                             const ContactResult* contacts, Clip& cleaned, const Rig& rig, const PopGuardSource& source,
                             int first, int last) {
  stretch.hold_planted_root(true);
  run_passes(stretch, check, left, passes, max_passes, 1.0);
  stretch.hold_planted_root(false);
  if (left > 0) run_passes(stretch, check, left, passes, max_passes, 1.0);
  if (left > 0 && passes < max_passes && stretch.floor_held_a_step()) {
    // Stalled where a foot joint rests on the source's lowest point: each step that would
    // smooth that frame sinks it, and is dropped. The same passes go on with the root raised
    // there instead (lift_sunk_feet); kept where that brings the stretch within the limit, else
    // the frames and the stretch go back as they were.
    const SavedFrames saved = save_frames(cleaned, rig, source.joints, first, last);
    const PopGuardStretch before = stretch;
    const std::vector<int> check_before = check;
    const int left_before = left, passes_before = passes;
    stretch.lift_sunk_feet(true);
    run_passes(stretch, check, left, passes, max_passes, 1.0);
    stretch.lift_sunk_feet(false);
    if (left > 0) {
      restore_frames(cleaned, rig, source.joints, saved);
      stretch = before;
      check = check_before;
      left = left_before;
      passes = passes_before;
    }
  }
  StretchOutcome outcome = outcome_of(stretch, left, contacts);
  if (left > 0 && passes < max_passes) {
    // Stalled: a correction held over a jolt of the source's that the source cancels inside
    // the leg (a pelvis spike its hip rotation undoes) cannot be smoothed away. The legs'
    // corrections there then also ease towards none (k_stall_keep a pass); kept only if that
    // lowers the worst acceleration left, else the frames go back as they were.
    const SavedFrames saved = save_frames(cleaned, rig, source.joints, first, last);
    run_passes(stretch, check, left, passes, max_passes, k_stall_keep);
    const StretchOutcome eased = outcome_of(stretch, left, contacts);
    if (eased.over == 0 || eased.worst_excess < outcome.worst_excess)
      outcome = eased;
    else
      restore_frames(cleaned, rig, source.joints, saved);
  }
  return outcome;
}

}  // namespace

void PopGuardSettings::validate() const {
  if (!std::isfinite(max_ratio) || (max_ratio != 0 && (max_ratio < 1.05 || max_ratio > 100)))
    fail(ErrorKind::usage, "pops.max_ratio must be 0 (off) or in [1.05, 100], got " + std::to_string(max_ratio));
  if (max_passes < 0 || max_passes > 100000)
    fail(ErrorKind::usage, "pops.max_passes must be in [0, 100000], got " + std::to_string(max_passes));
}

PopGuardSource capture_pop_guard_source(const Clip& source, const Rig& rig, const PopGuardSettings& settings,
                                        const LegTracks* tracks) {
  if (tracks && !tracks->match(source, rig.translation_joint, rig.legs)) tracks = nullptr;
  PopGuardSource out;
  out.frame_count = source.frame_count;
  out.fps = source.fps;
  if (settings.max_ratio == 0) return out;
  const auto n = static_cast<size_t>(source.frame_count);
  for (int s = 0; s < 2; ++s) {
    const LegChain& leg = rig.legs[s];
    for (int j : {leg.hip, leg.knee, leg.heel, leg.toe})
      if (j >= 0) out.joints[s].push_back(j);
    for (int j : out.joints[s]) {
      std::vector<PopGuardSource::CompactQuat> track(n);
      for (size_t f = 0; f < n; ++f) {
        const Quat& q = source.rotation(static_cast<int>(f), j);
        track[f] = {static_cast<float>(q.w), static_cast<float>(q.x), static_cast<float>(q.y), static_cast<float>(q.z)};
      }
      out.rotations[s].push_back(std::move(track));
    }
    std::vector<double> lowest;
    const std::vector<std::vector<double>> accel =
        leg_accelerations(source, leg, source.fps, tracks ? &tracks->legs[s] : nullptr, &lowest);
    for (size_t k = 0; k < accel.size(); ++k) {
      const std::vector<double> reference = pop_reference_mps2(accel[k], source.fps);
      std::vector<float> allowed(n);
      for (size_t f = 0; f < n; ++f) allowed[f] = static_cast<float>(settings.max_ratio * reference[f]);
      out.allowed_mps2[s].push_back(std::move(allowed));
      out.lowest_m[s].push_back(lowest[k]);
    }
  }
  if (rig.translation_joint >= 0) {
    out.root_translation.resize(n);
    for (size_t f = 0; f < n; ++f) out.root_translation[f] = source.translation(static_cast<int>(f), rig.translation_joint);
  }
  return out;
}

namespace {

/// Smooths stretch [first, last] of `cleaned` (see guard_pops) from `check`, its frames over the
/// limit (stretch frames); `passes` counts the passes run. `moved_m` (per leg, per stretch frame,
/// m): on noisy capture, how far the kept passes moved each planted contact joint (what
/// release_moved_contact_ends reads; empty otherwise).
StretchOutcome guard_stretch(Clip& cleaned, const Rig& rig, const PopGuardSource& source, const PopGuardSettings& settings,
                             const ContactResult* contacts, int first, int last, std::vector<int> check, int& passes,
                             std::array<std::vector<double>, 2>& moved_m) {
  PopGuardStretch stretch(cleaned, rig, source, first, last, contacts);
  int left = stretch.mark(check);
  // On noisy capture, first with every planted leg held (a planted foot that moves is what
  // the clean of such capture must not leave).
  bool held_enough = false;
  const bool noisy = contacts && contacts->denoise_sigma_s > 0;
  if (noisy) {
    stretch.hold_planted_root(true);
    stretch.hold_planted_legs(true);
    run_passes(stretch, check, left, passes, settings.max_passes, 1.0);
    stretch.hold_planted_legs(false);
    held_enough = stretch.worst_excess() <= k_noisy_excess_kept;
  }
  StretchOutcome outcome = outcome_of(stretch, left, contacts);
  if (!held_enough) {
    const SavedFrames held = noisy ? save_frames(cleaned, rig, source.joints, first, last) : SavedFrames{};
    const std::vector<int> held_check = check;
    const int held_passes = passes;
    outcome = smooth_freely(stretch, check, left, passes, settings.max_passes, contacts, cleaned, rig, source, first, last);
    if (noisy && outcome.planted_shift_m != std::array<double, 2>{0, 0}) {
      // That moved planted feet. The same passes again from the held round's result, each
      // planted contact joint put back after every pass (repin_planted(), keeping the knees'
      // smoothed bend first, then their reach before the guard); kept where that smooths the
      // whole stretch as far as the held round may leave it, else the moved feet stay.
      const SavedFrames moved = save_frames(cleaned, rig, source.joints, first, last);
      bool kept = false;
      for (bool keep_bend : {true, false}) {
        restore_frames(cleaned, rig, source.joints, held);
        PopGuardStretch pinned(cleaned, rig, source, first, last, contacts);
        pinned.repin_planted(true, keep_bend);
        std::vector<int> pinned_check = held_check;
        int pinned_left = pinned.mark(held_check), pinned_passes = held_passes;
        const StretchOutcome repinned = smooth_freely(pinned, pinned_check, pinned_left, pinned_passes, settings.max_passes,
                                                       contacts, cleaned, rig, source, first, last);
        const double pinned_excess = pinned.worst_excess_anywhere();
        if (pinned_excess <= k_noisy_excess_kept) {
          outcome = repinned;
          outcome.changed_frames = std::max(outcome.changed_frames, stretch.changed_frames());
          passes = pinned_passes;
          kept = true;
          for (int s = 0; s < 2; ++s) moved_m[s] = pinned.planted_shifts_m(s, contacts->feet[s].contact);
          break;
        }
      }
      if (!kept) restore_frames(cleaned, rig, source.joints, moved);
    }
  }
  if (noisy && moved_m[0].empty())
    for (int s = 0; s < 2; ++s) moved_m[s] = stretch.planted_shifts_m(s, contacts->feet[s].contact);
  return outcome;
}

/// On noisy capture, where guard_stretch kept planted feet moved by more than
/// k_noisy_still_shift_m (`outcome`, `moved_m`) at frames within noisy_end_margin_frames of a
/// contact's ends (where detection on smoothed positions leaves the foot's landing or lift
/// uncertain), those end frames are released from `contacts` and the stretch is smoothed again
/// from `initial` (its frames before the guard). Kept where that moves the planted feet less and
/// leaves no more frames over the limit (`outcome`, `passes` and `contacts` then updated), else
/// the frames go back as the first smoothing left them.
void release_moved_contact_ends(Clip& cleaned, const Rig& rig, const PopGuardSource& source,
                                const PopGuardSettings& settings, ContactResult& contacts, int first, int last,
                                const std::vector<int>& check, const SavedFrames& initial,
                                const std::array<std::vector<double>, 2>& moved_m, StretchOutcome& outcome, int& passes) {
  std::array<std::vector<double>, 2> moved_by_frame;
  for (int s = 0; s < 2; ++s) {
    moved_by_frame[s].assign(static_cast<size_t>(cleaned.frame_count), 0.0);
    std::copy(moved_m[s].begin(), moved_m[s].end(), moved_by_frame[s].begin() + first);
  }
  ContactResult released = contacts;
  if (!release_unreachable_contact_ends(released, moved_by_frame, noisy_end_margin_frames(contacts, source.fps),
                                        k_noisy_still_shift_m))
    return;
  const SavedFrames moved = save_frames(cleaned, rig, source.joints, first, last);
  restore_frames(cleaned, rig, source.joints, initial);
  int again_passes = 0;
  std::array<std::vector<double>, 2> again_moved_m;
  const StretchOutcome again =
      guard_stretch(cleaned, rig, source, settings, &released, first, last, check, again_passes, again_moved_m);
  auto farthest = [](const StretchOutcome& o) { return std::max(o.planted_shift_m[0], o.planted_shift_m[1]); };
  if (farthest(again) < farthest(outcome) && again.over <= outcome.over) {
    outcome = again;
    passes = again_passes;
    contacts = std::move(released);
  } else {
    restore_frames(cleaned, rig, source.joints, moved);
  }
}

}  // namespace

PopGuardReport guard_pops(Clip& cleaned, const Rig& rig, const PopGuardSource& source, const PopGuardSettings& settings,
                          ContactResult* contacts, const LegTracks* tracks) {
  settings.validate();
  PopGuardReport report;
  if (settings.max_ratio == 0 || cleaned.frame_count < 3) return report;
  if (source.frame_count != cleaned.frame_count)
    fail(ErrorKind::process, cleaned.source_name + ": pop guard: the source has " + std::to_string(source.frame_count) +
                                 " frames, the cleaned clip " + std::to_string(cleaned.frame_count));
  if (tracks && !tracks->match(cleaned, rig.translation_joint, rig.legs)) tracks = nullptr;
  const std::vector<int> over = frames_over(cleaned, rig, source, tracks);
  // Stretches: the frames over the limit with k_stretch_margin_s on both sides (a pass widens
  // the smoothed frames by one frame on each side; a stretch's ends hold), merged where they
  // overlap up to k_max_stretch_frames. Each is smoothed on its own, in order (one that overlaps
  // the one before reads the clip as that one left it), so memory follows k_max_stretch_frames.
  const int n = cleaned.frame_count;
  const int margin = std::min(settings.max_passes, static_cast<int>(std::ceil(k_stretch_margin_s * source.fps))) + 2;
  std::vector<std::pair<int, int>> stretches;
  for (int f : over) {
    const int lo = std::max(0, f - margin), hi = std::min(n - 1, f + margin);
    if (!stretches.empty() && lo <= stretches.back().second && hi - stretches.back().first < k_max_stretch_frames)
      stretches.back().second = hi;
    else
      stretches.emplace_back(lo, hi);  // may overlap the one before: stretches run one after another
  }
  size_t next_over = 0;
  for (const auto& [first, last] : stretches) {
    std::vector<int> check;
    for (; next_over < over.size() && over[next_over] <= last; ++next_over) check.push_back(over[next_over] - first);
    const bool noisy = contacts && contacts->denoise_sigma_s > 0;
    const SavedFrames initial = noisy ? save_frames(cleaned, rig, source.joints, first, last) : SavedFrames{};
    int passes = 0;
    std::array<std::vector<double>, 2> moved_m;
    StretchOutcome outcome = guard_stretch(cleaned, rig, source, settings, contacts, first, last, check, passes, moved_m);
    if (noisy && std::max(outcome.planted_shift_m[0], outcome.planted_shift_m[1]) > k_noisy_still_shift_m)
      release_moved_contact_ends(cleaned, rig, source, settings, *contacts, first, last, check, initial, moved_m, outcome,
                                 passes);
    report.passes = std::max(report.passes, passes);
    report.frames_over += outcome.over;
    if (outcome.over > 0) report.worst_ratio_left = std::max(report.worst_ratio_left, settings.max_ratio * outcome.worst_excess);
    report.frames_smoothed += outcome.changed_frames;
    for (int s = 0; s < 2; ++s) report.max_planted_shift_m[s] = std::max(report.max_planted_shift_m[s], outcome.planted_shift_m[s]);
  }
  return report;
}

}  // namespace footfix
