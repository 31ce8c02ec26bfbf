#include "guard_pops.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "footfix/ik/leg_ik.h"
#include "footfix/rig/pop_measure.h"

namespace footfix {
namespace {

constexpr int k_stall_passes = 40;
// What a stalled stretch keeps of the legs' corrections at frames over the limit, a pass.
constexpr double k_stall_keep = 0.9;
// Times a smoothing step that sinks a foot joint is halved before it is dropped.
constexpr int k_sink_halvings = 4;
// Frames (as seconds) a stretch reaches beyond the frames over the limit on each side.
constexpr double k_stretch_margin_s = 0.5;
// Longest stretch (frames): a long clip over the limit all along is smoothed in pieces, so the
// guard's memory stays small whatever the clip's length.
constexpr int k_max_stretch_frames = 4096;
// On noisy capture, the excess over the limit (a multiple of max_ratio) that the passes with
// every planted leg held may leave: the planted feet then stay still. 1.07 x the default 1.4 is
// 1.5 x the source's acceleration.
constexpr double k_noisy_excess_kept = 1.07;
// How much farther (meters) than before the guard a planted leg's heel may reach from its hip
// when repin_planted() puts its contact joint back: a leg the clean left bent stays bent.
constexpr double k_repin_slack_m = 0.005;

Quat expand(const PopGuardSource::CompactQuat& q) { return normalize(Quat{q[0], q[1], q[2], q[3]}); }

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

/// One stretch of frames the guard works on: the corrections and tracked positions of
/// [first, last], smoothed pass by pass where a joint is over its limit. The stretch's own end
/// frames are never changed (they hold the smoothing in place). Frames are read from the clip
/// only when a pass first needs them (most of a stretch is margin that is never touched).
class Stretch {
 public:
  /// `contacts` (may be null): the clean's contacts, for hold_planted_root().
  Stretch(Clip& cleaned, const Rig& rig, const PopGuardSource& source, int first, int last, const ContactResult* contacts)
      : clip_(cleaned), rig_(rig), source_(source), contacts_(contacts), first_(first), size_(last - first + 1) {
    const auto n = static_cast<size_t>(size_);
    for (int s = 0; s < 2; ++s) {
      correction_[s].assign(source.joints[s].size(), std::vector<Vec3>(n));
      tracks_[s] = pop_tracked_joints(rig.legs[s]);
      positions_[s].assign(tracks_[s].size(), std::vector<Vec3>(n));
      contact_before_[s].resize(n);
      extension_before_[s].assign(n, 0.0);
      marked_[s].assign(n, 0);
    }
    root_correction_.resize(n);
    for (int s = 0; s < 2; ++s) {
      const auto& lowest = source.lowest_m[s];
      if (lowest.size() >= 3) heights_[s] = LegHeights{lowest[contact_track(s)], lowest[1], lowest.back()};
    }
    read_.assign(n, 0);
    ever_changed_.assign(n, 0);
  }

  /// Checks the stretch frames `frames` (each in 1 .. size - 2) and marks, per leg, the frames
  /// around each one over the limit (clearing earlier marks); returns how many (joint, frame)
  /// pairs are over. worst_excess(): the largest acceleration found, as a multiple of its limit.
  int mark(const std::vector<int>& frames) {
    int over = 0;
    worst_excess_ = 0;
    for (int s = 0; s < 2; ++s) std::fill(marked_[s].begin(), marked_[s].end(), 0);
    for (int f : frames) {
      for (int g = f - 1; g <= f + 1; ++g) read(g);
      for (int s = 0; s < 2; ++s) {
        for (size_t k = 0; k < tracks_[s].size(); ++k) {
          const auto& p = positions_[s][k];
          const double excess = acceleration_mps2(p[f - 1], p[f], p[f + 1], source_.fps) / source_.allowed_mps2[s][k][first_ + f];
          worst_excess_ = std::max(worst_excess_, excess);
          if (excess <= 1.0) continue;
          ++over;
          for (int g = f - 1; g <= f + 1; ++g) marked_[s][g] = 1;
        }
      }
    }
    return over;
  }

  /// One smoothing pass ([1 2 1] / 4) of the corrections at the marked frames (never the
  /// stretch's ends); returns the frames whose accelerations it may have changed (the changed
  /// frames and their neighbours, each in 1 .. size - 2, sorted), the next pass's to check.
  /// `shrink` (<= 1) scales the legs' smoothed corrections at the marked frames: below 1 they
  /// also ease towards none (the source's pose) there.
  std::vector<int> smooth(double shrink = 1.0) {
    std::vector<int> changed;
    for (int f = 1; f + 1 < size_; ++f)
      if (marked_[0][f] || marked_[1][f]) changed.push_back(f);
    for (int f : changed)
      for (int g = f - 1; g <= f + 1; ++g) read(g);
    auto smoothed = [](const std::vector<Vec3>& v, int f, const std::vector<Vec3>& before, size_t i) {
      return (before[i] + v[f] * 2.0 + v[f + 1]) * 0.25;
    };
    // Jacobi: every new value from the old ones (the left neighbour's old value kept aside).
    auto pass = [&](std::vector<Vec3>& track, const std::vector<std::uint8_t>* marks) {
      std::vector<Vec3> left(changed.size());
      for (size_t i = 0; i < changed.size(); ++i) left[i] = track[changed[i] - 1];
      for (size_t i = 0; i < changed.size(); ++i) {
        const int f = changed[i];
        if (!marks || (*marks)[f]) track[f] = smoothed(track, f, left, i);
      }
    };
    const std::array<std::vector<std::vector<Vec3>>, 2> correction_before = keep(correction_, changed);
    const std::vector<Vec3> root_before = keep(root_correction_, changed);
    for (int s = 0; s < 2; ++s) {
      // While hold_planted_legs() is on, a planted leg's own correction is left as it is.
      std::vector<std::uint8_t> leg_marks = marked_[s];
      if (hold_planted_legs_ && contacts_)
        for (int f : changed) leg_marks[f] = leg_marks[f] && !contacts_->feet[s].contact[first_ + f];
      for (auto& track : correction_[s]) {
        pass(track, &leg_marks);
        if (shrink < 1)
          for (int f : changed)
            if (leg_marks[f]) track[f] = track[f] * shrink;
      }
    }
    // The root's correction too wherever a leg's is smoothed: a pop can come from the root's
    // correction changing fast (a lock's vertical correction at its onset), which no leg undoes.
    // While hold_planted_root() is on, not at frames where a leg is planted and not itself being
    // smoothed: the root carries that leg, so smoothing it there would move its planted toe.
    if (hold_planted_root_ && contacts_) {
      std::vector<std::uint8_t> root_marks(static_cast<size_t>(size_), 0);
      for (int f : changed) root_marks[f] = !holds_a_planted_leg(f);
      pass(root_correction_, &root_marks);
    } else {
      pass(root_correction_, nullptr);
    }
    std::vector<int> check;
    for (size_t i = 0; i < changed.size(); ++i) {
      const int f = changed[i];
      for (int g = std::max(1, f - 1); g <= std::min(size_ - 2, f + 1); ++g)
        if (check.empty() || check.back() < g) check.push_back(g);
      apply(f);
      // No new ground penetration: a step that puts a foot joint below the source's lowest is
      // halved until it does not (at most k_sink_halvings times), else not taken.
      for (int halving = 0; below_source(f) && halving <= k_sink_halvings; ++halving) {
        const double keep_step = halving < k_sink_halvings ? 0.5 : 0.0;
        for (int s = 0; s < 2; ++s)
          for (size_t j = 0; j < correction_[s].size(); ++j)
            correction_[s][j][f] = correction_before[s][j][i] + (correction_[s][j][f] - correction_before[s][j][i]) * keep_step;
        root_correction_[f] = root_before[i] + (root_correction_[f] - root_before[i]) * keep_step;
        apply(f);
      }
      ever_changed_[f] = 1;
    }
    return check;
  }

  double worst_excess() const { return worst_excess_; }

  /// The largest acceleration anywhere in the stretch (its ends excepted), as a multiple of its
  /// limit; marks the frames over it, as mark().
  double worst_excess_anywhere() {
    std::vector<int> all;
    for (int f = 1; f + 1 < size_; ++f) all.push_back(f);
    mark(all);
    return worst_excess_;
  }

  /// While on (and contacts were given), smooth() leaves the root's correction as it is at
  /// frames where a leg is planted and not itself over its limit (see smooth()).
  void hold_planted_root(bool on) { hold_planted_root_ = on; }

  /// While on (and contacts were given), smooth() leaves each leg's correction as it is at frames
  /// where that leg is planted, and the root's wherever a leg is planted: only the frames around
  /// a lock are smoothed, so every planted foot keeps its place.
  void hold_planted_legs(bool on) { hold_planted_legs_ = on; }

  /// While on (and contacts were given), smooth() puts each planted leg's contact joint back
  /// where it was before any pass, by the leg's IK, at every frame it changes: the root and the
  /// legs' corrections are smoothed, and a planted leg then reaches its planted toe from the
  /// smoothed pelvis (see repin()). `keep_bend`: the root is moved along the planted legs so
  /// each keeps the knee bend the smoothing gave it; else only where a leg would have to reach
  /// farther than before the guard. Turned on before the passes read any frame.
  void repin_planted(bool on, bool keep_bend) {
    repin_planted_ = on;
    repin_keeps_bend_ = keep_bend;
  }

  /// Frames any pass has changed so far.
  int changed_frames() const { return static_cast<int>(std::count(ever_changed_.begin(), ever_changed_.end(), 1)); }

  /// The farthest (meters) the passes have moved leg s's contact joint in a frame where
  /// `contact` (per clip frame) says it is planted.
  double planted_shift_m(int s, const std::vector<std::uint8_t>& contact) const {
    double worst = 0;
    const auto& now = positions_[s][contact_track(s)];
    for (int f = 0; f < size_; ++f)
      if (ever_changed_[f] && contact[first_ + f]) worst = std::max(worst, length(now[f] - contact_before_[s][f]));
    return worst;
  }

 private:
  // The values of `track` at `frames`, in order.
  static std::vector<Vec3> keep(const std::vector<Vec3>& track, const std::vector<int>& frames) {
    std::vector<Vec3> out(frames.size());
    for (size_t i = 0; i < frames.size(); ++i) out[i] = track[frames[i]];
    return out;
  }
  static std::array<std::vector<std::vector<Vec3>>, 2> keep(const std::array<std::vector<std::vector<Vec3>>, 2>& tracks,
                                                            const std::vector<int>& frames) {
    std::array<std::vector<std::vector<Vec3>>, 2> out;
    for (int s = 0; s < 2; ++s)
      for (const auto& track : tracks[s]) out[s].push_back(keep(track, frames));
    return out;
  }

  // True when, at stretch frame f, some leg is planted (contacts_) and not marked for smoothing
  // (or held, hold_planted_legs()).
  bool holds_a_planted_leg(int f) const {
    for (int s = 0; s < 2; ++s)
      if (contacts_->feet[s].contact[first_ + f] && (hold_planted_legs_ || !marked_[s][f])) return true;
    return false;
  }

  // True when a foot joint (heel, toe, tip: every track but the knee) of stretch frame f is
  // below the lowest the source puts it.
  bool below_source(int f) const {
    for (int s = 0; s < 2; ++s)
      for (size_t k = 1; k < tracks_[s].size(); ++k)
        if (positions_[s][k][f].y < source_.lowest_m[s][k]) return true;
    return false;
  }

  // Reads stretch frame f's corrections and tracked positions from the clip, once.
  void read(int f) {
    if (read_[f]) return;
    read_[f] = 1;
    const int frame = first_ + f, root = rig_.translation_joint;
    for (int s = 0; s < 2; ++s) read_leg_correction(s, f);
    root_correction_[f] = root >= 0 ? clip_.translation(frame, root) - source_.root_translation[frame] : Vec3{};
    measure(f);
    for (int s = 0; s < 2; ++s) {
      contact_before_[s][f] = positions_[s][contact_track(s)][f];
      const LegChain& leg = rig_.legs[s];
      if (repin_planted_ && leg.valid()) extension_before_[s][f] = length(positions_[s][1][f] - joint_world_position(clip_, frame, leg.hip));
    }
  }

  // Reads leg s's correction at stretch frame f from the clip.
  void read_leg_correction(int s, int f) {
    const int frame = first_ + f;
    const auto& joints = source_.joints[s];
    for (size_t i = 0; i < joints.size(); ++i)
      correction_[s][i][f] = rotation_vector(inverse(expand(source_.rotations[s][i][frame])) * clip_.rotation(frame, joints[i]));
  }

  // Writes stretch frame f's corrections into the clip, puts its planted contact joints back
  // (repin_planted()) and measures it.
  void apply(int f) {
    write(f);
    if (repin_planted_ && contacts_) repin(f);
    measure(f);
  }

  // Solves each leg planted at stretch frame f so its contact joint is where it was before any
  // pass (the leg reaches it from where the smoothed root and hip now are, its knee bending in
  // the plane the smoothed correction gives), and takes the solved rotations (and the root's
  // move) as the corrections there.
  void repin(int f) {
    const int frame = first_ + f;
    std::array<bool, 2> planted{};
    for (int s = 0; s < 2; ++s) planted[s] = contacts_->feet[s].contact[frame] && rig_.legs[s].valid();
    if (!planted[0] && !planted[1]) return;
    // The root first moves along the planted legs (least squares, the smallest move) by what
    // each leg's reach to its heel target differs from its smoothed extension (keep_bend), or
    // exceeds its extension before the guard: a near-straight knee moves centimetres for a
    // millimetre of reach, so the IK is left little to change in the knee.
    std::array<double, 2> extension{0, 0};
    const int root = rig_.translation_joint;
    std::array<Vec3, 2> along{};
    std::array<double, 2> short_by{0, 0};  // meters the root should come closer along `along`
    for (int s = 0; s < 2; ++s) {
      if (!planted[s]) continue;
      const LegChain& leg = rig_.legs[s];
      const Vec3 hip = joint_world_position(clip_, frame, leg.hip), heel = joint_world_position(clip_, frame, leg.heel);
      const Vec3 contact = pop_tracked_position(clip_, frame, leg, tracks_[s][contact_track(s)]);
      const Vec3 reach = contact_before_[s][f] + heel - contact - hip;
      extension[s] = length(heel - hip);
      if (length(reach) < 1e-6) continue;
      along[s] = reach * (1.0 / length(reach));
      short_by[s] = repin_keeps_bend_ ? length(reach) - extension[s] : std::max(0.0, length(reach) - extension_before_[s][f]);
    }
    if (root >= 0 && clip_.skeleton.parents[root] < 0) {
      Vec3 pull{};
      const double g01 = dot(along[0], along[1]);
      const double det = 1 - g01 * g01;
      if (planted[0] && planted[1] && det > 1e-3) {
        const double a0 = (short_by[0] - g01 * short_by[1]) / det, a1 = (short_by[1] - g01 * short_by[0]) / det;
        pull = along[0] * a0 + along[1] * a1;
      } else {
        const int n = planted[0] + planted[1];
        for (int s = 0; s < 2; ++s)
          if (planted[s]) pull = pull + along[s] * (short_by[s] / n);
      }
      root_correction_[f] = root_correction_[f] + pull;
      clip_.translation(frame, root) = source_.root_translation[frame] + root_correction_[f];
    }
    for (int s = 0; s < 2; ++s) {
      if (!planted[s]) continue;
      const double max_extension =
          (repin_keeps_bend_ ? std::max(extension[s], extension_before_[s][f]) : extension_before_[s][f]) + k_repin_slack_m;
      solve_leg(clip_, frame, rig_.legs[s], contact_before_[s][f], heights_[s], max_extension, ik_);
      read_leg_correction(s, f);
    }
  }

  // Writes the corrections of stretch frame f into the clip.
  void write(int f) {
    const int frame = first_ + f, root = rig_.translation_joint;
    for (int s = 0; s < 2; ++s) {
      const auto& joints = source_.joints[s];
      for (size_t i = 0; i < joints.size(); ++i)
        clip_.rotation(frame, joints[i]) = expand(source_.rotations[s][i][frame]) * from_rotation_vector(correction_[s][i][f]);
    }
    if (root >= 0) clip_.translation(frame, root) = source_.root_translation[frame] + root_correction_[f];
  }

  // The contact joint's index in tracks_[s] (toe, else heel: see pop_tracked_joints).
  size_t contact_track(int s) const { return rig_.legs[s].toe >= 0 ? 2 : 1; }

  void measure(int f) {
    for (int s = 0; s < 2; ++s)
      for (size_t k = 0; k < tracks_[s].size(); ++k)
        positions_[s][k][f] = pop_tracked_position(clip_, first_ + f, rig_.legs[s], tracks_[s][k]);
  }

  Clip& clip_;
  const Rig& rig_;
  const PopGuardSource& source_;
  const ContactResult* contacts_;
  int first_, size_;
  bool hold_planted_root_ = false;
  bool hold_planted_legs_ = false;
  bool repin_planted_ = false;
  bool repin_keeps_bend_ = true;
  std::array<LegHeights, 2> heights_;  // the floors repin() keeps the feet above: the source's lowest
  LegIkSettings ik_;
  std::array<std::vector<std::vector<Vec3>>, 2> correction_;  // [leg][joint][frame] rotation vectors
  std::vector<Vec3> root_correction_;
  std::array<std::vector<int>, 2> tracks_;
  std::array<std::vector<std::vector<Vec3>>, 2> positions_;  // [leg][track][frame]
  std::array<std::vector<std::uint8_t>, 2> marked_;
  std::vector<std::uint8_t> read_, ever_changed_;
  double worst_excess_ = 0;
  std::array<std::vector<Vec3>, 2> contact_before_;  // [leg][frame]: the contact joint before any pass
  std::array<std::vector<double>, 2> extension_before_;  // [leg][frame]: |hip - heel| before any pass
};

/// What a stretch's passes left: for the report.
struct StretchOutcome {
  int over = 0;
  double worst_excess = 0;
  int changed_frames = 0;
  std::array<double, 2> planted_shift_m{0, 0};
};

StretchOutcome outcome_of(const Stretch& stretch, int over, const ContactResult* contacts) {
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
void run_passes(Stretch& stretch, std::vector<int>& check, int& left, int& passes, int max_passes, double shrink) {
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
StretchOutcome smooth_freely(Stretch& stretch, std::vector<int>& check, int& left, int& passes, int max_passes,
                             const ContactResult* contacts, Clip& cleaned, const Rig& rig, const PopGuardSource& source,
                             int first, int last) {
  stretch.hold_planted_root(true);
  run_passes(stretch, check, left, passes, max_passes, 1.0);
  stretch.hold_planted_root(false);
  if (left > 0) run_passes(stretch, check, left, passes, max_passes, 1.0);
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

PopGuardReport guard_pops(Clip& cleaned, const Rig& rig, const PopGuardSource& source, const PopGuardSettings& settings,
                          const ContactResult* contacts, const LegTracks* tracks) {
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
    Stretch stretch(cleaned, rig, source, first, last, contacts);
    std::vector<int> check;
    for (; next_over < over.size() && over[next_over] <= last; ++next_over) check.push_back(over[next_over] - first);
    int passes = 0, left = stretch.mark(check);
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
          Stretch pinned(cleaned, rig, source, first, last, contacts);
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
            break;
          }
        }
        if (!kept) restore_frames(cleaned, rig, source.joints, moved);
      }
    }
    report.passes = std::max(report.passes, passes);
    report.frames_over += outcome.over;
    if (outcome.over > 0) report.worst_ratio_left = std::max(report.worst_ratio_left, settings.max_ratio * outcome.worst_excess);
    report.frames_smoothed += outcome.changed_frames;
    for (int s = 0; s < 2; ++s) report.max_planted_shift_m[s] = std::max(report.max_planted_shift_m[s], outcome.planted_shift_m[s]);
  }
  return report;
}

}  // namespace footfix
