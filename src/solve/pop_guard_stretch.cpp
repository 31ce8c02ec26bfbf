#include "pop_guard_stretch.h"

#include <cmath>

#include "footfix/core/fk.h"
#include "footfix/rig/pop_measure.h"

namespace footfix {
namespace {

// Times a smoothing step that sinks a foot joint is halved before it is dropped.
constexpr int k_sink_halvings = 4;
// How much farther (meters) than before the guard a planted leg's heel may reach from its hip
// when repin_planted() puts its contact joint back: a leg the clean left bent stays bent.
constexpr double k_repin_slack_m = 0.005;
// How far (m) above the source's lowest lift_sunk_feet() puts the deepest foot joint: rounding
// then never leaves it below.
constexpr double k_lift_clearance_m = 1e-6;

Quat expand_compact_quat(const PopGuardSource::CompactQuat& q) { return normalize(Quat{q[0], q[1], q[2], q[3]}); }

// The values of `track` at `frames`, in order.
std::vector<Vec3> values_at_frames(const std::vector<Vec3>& track, const std::vector<int>& frames) {
  std::vector<Vec3> out(frames.size());
  for (size_t i = 0; i < frames.size(); ++i) out[i] = track[frames[i]];
  return out;
}

std::array<std::vector<std::vector<Vec3>>, 2> values_at_frames(const std::array<std::vector<std::vector<Vec3>>, 2>& tracks,
                                                               const std::vector<int>& frames) {
  std::array<std::vector<std::vector<Vec3>>, 2> out;
  for (int s = 0; s < 2; ++s)
    for (const auto& track : tracks[s]) out[s].push_back(values_at_frames(track, frames));
  return out;
}

}  // namespace

PopGuardStretch::PopGuardStretch(Clip& cleaned, const Rig& rig, const PopGuardSource& source, int first, int last,
                                 const ContactResult* contacts)
    : clip_(&cleaned), rig_(&rig), source_(&source), contacts_(contacts), first_(first), size_(last - first + 1) {
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

int PopGuardStretch::mark(const std::vector<int>& frames) {
  int over = 0;
  worst_excess_ = 0;
  for (int s = 0; s < 2; ++s) std::fill(marked_[s].begin(), marked_[s].end(), 0);
  for (int f : frames) {
    for (int g = f - 1; g <= f + 1; ++g) read(g);
    for (int s = 0; s < 2; ++s) {
      for (size_t k = 0; k < tracks_[s].size(); ++k) {
        const auto& p = positions_[s][k];
        const double excess = acceleration_mps2(p[f - 1], p[f], p[f + 1], source_->fps) / source_->allowed_mps2[s][k][first_ + f];
        worst_excess_ = std::max(worst_excess_, excess);
        if (excess <= 1.0) continue;
        ++over;
        for (int g = f - 1; g <= f + 1; ++g) marked_[s][g] = 1;
      }
    }
  }
  return over;
}

std::vector<int> PopGuardStretch::smooth(double shrink) {
  floor_held_a_step_ = false;
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
  const std::array<std::vector<std::vector<Vec3>>, 2> correction_before = values_at_frames(correction_, changed);
  const std::vector<Vec3> root_before = values_at_frames(root_correction_, changed);
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
    // lifted (lift_sunk_feet()), or halved until it does not (at most k_sink_halvings times),
    // else not taken.
    if (lift_sunk_feet_) lift_above_source(f);
    floor_held_a_step_ = floor_held_a_step_ || below_source(f);
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

double PopGuardStretch::worst_excess_anywhere() {
  std::vector<int> all;
  for (int f = 1; f + 1 < size_; ++f) all.push_back(f);
  mark(all);
  return worst_excess_;
}

void PopGuardStretch::repin_planted(bool on, bool keep_bend) {
  repin_planted_ = on;
  repin_keeps_bend_ = keep_bend;
}

std::vector<double> PopGuardStretch::planted_shifts_m(int s, const std::vector<std::uint8_t>& contact) const {
  std::vector<double> out(static_cast<size_t>(size_), 0.0);
  const auto& now = positions_[s][contact_track(s)];
  for (int f = 0; f < size_; ++f)
    if (ever_changed_[f] && contact[first_ + f]) out[f] = length(now[f] - contact_before_[s][f]);
  return out;
}

double PopGuardStretch::planted_shift_m(int s, const std::vector<std::uint8_t>& contact) const {
  const std::vector<double> shifts = planted_shifts_m(s, contact);
  return shifts.empty() ? 0.0 : *std::max_element(shifts.begin(), shifts.end());
}

bool PopGuardStretch::holds_a_planted_leg(int f) const {
  for (int s = 0; s < 2; ++s)
    if (contacts_->feet[s].contact[first_ + f] && (hold_planted_legs_ || !marked_[s][f])) return true;
  return false;
}

bool PopGuardStretch::below_source(int f) const { return depth_below_source(f) > 0; }

double PopGuardStretch::depth_below_source(int f) const {
  double depth = 0;
  for (int s = 0; s < 2; ++s)
    for (size_t k = 1; k < tracks_[s].size(); ++k) depth = std::max(depth, source_->lowest_m[s][k] - positions_[s][k][f].y);
  return depth;
}

void PopGuardStretch::lift_above_source(int f) {
  const int root = rig_->translation_joint;
  const double depth = depth_below_source(f);
  if (root < 0 || depth <= 0) return;
  const int parent = clip_->skeleton.parents[root];
  const Quat parent_rotation = parent >= 0 ? joint_world(*clip_, first_ + f, parent).rotation : Quat{};
  root_correction_[f] = root_correction_[f] + rotate(inverse(parent_rotation), Vec3{0, depth + k_lift_clearance_m, 0});
  apply(f);
}

void PopGuardStretch::read(int f) {
  if (read_[f]) return;
  read_[f] = 1;
  const int frame = first_ + f, root = rig_->translation_joint;
  for (int s = 0; s < 2; ++s) read_leg_correction(s, f);
  root_correction_[f] = root >= 0 ? clip_->translation(frame, root) - source_->root_translation[frame] : Vec3{};
  measure(f);
  for (int s = 0; s < 2; ++s) {
    contact_before_[s][f] = positions_[s][contact_track(s)][f];
    const LegChain& leg = rig_->legs[s];
    if (repin_planted_ && leg.valid()) extension_before_[s][f] = length(positions_[s][1][f] - joint_world_position(*clip_, frame, leg.hip));
  }
}

void PopGuardStretch::read_leg_correction(int s, int f) {
  const int frame = first_ + f;
  const auto& joints = source_->joints[s];
  for (size_t i = 0; i < joints.size(); ++i)
    correction_[s][i][f] = rotation_vector(inverse(expand_compact_quat(source_->rotations[s][i][frame])) * clip_->rotation(frame, joints[i]));
}

void PopGuardStretch::apply(int f) {
  write(f);
  if (repin_planted_ && contacts_) repin(f);
  measure(f);
}

void PopGuardStretch::repin(int f) {
  const int frame = first_ + f;
  std::array<bool, 2> planted{};
  for (int s = 0; s < 2; ++s) planted[s] = contacts_->feet[s].contact[frame] && rig_->legs[s].valid();
  if (!planted[0] && !planted[1]) return;
  // The root first moves along the planted legs (least squares, the smallest move) by what
  // each leg's reach to its heel target differs from its smoothed extension (keep_bend), or
  // exceeds its extension before the guard: a near-straight knee moves centimetres for a
  // millimetre of reach, so the IK is left little to change in the knee.
  std::array<double, 2> extension{0, 0};
  const int root = rig_->translation_joint;
  std::array<Vec3, 2> along{};
  std::array<double, 2> short_by{0, 0};  // meters the root should come closer along `along`
  for (int s = 0; s < 2; ++s) {
    if (!planted[s]) continue;
    const LegChain& leg = rig_->legs[s];
    const Vec3 hip = joint_world_position(*clip_, frame, leg.hip), heel = joint_world_position(*clip_, frame, leg.heel);
    const Vec3 contact = pop_tracked_position(*clip_, frame, leg, tracks_[s][contact_track(s)]);
    const Vec3 reach = contact_before_[s][f] + heel - contact - hip;
    extension[s] = length(heel - hip);
    if (length(reach) < 1e-6) continue;
    along[s] = reach * (1.0 / length(reach));
    short_by[s] = repin_keeps_bend_ ? length(reach) - extension[s] : std::max(0.0, length(reach) - extension_before_[s][f]);
  }
  if (root >= 0 && clip_->skeleton.parents[root] < 0) {
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
    clip_->translation(frame, root) = source_->root_translation[frame] + root_correction_[f];
  }
  for (int s = 0; s < 2; ++s) {
    if (!planted[s]) continue;
    const double max_extension =
        (repin_keeps_bend_ ? std::max(extension[s], extension_before_[s][f]) : extension_before_[s][f]) + k_repin_slack_m;
    solve_leg(*clip_, frame, rig_->legs[s], contact_before_[s][f], heights_[s], max_extension, ik_);
    read_leg_correction(s, f);
  }
}

void PopGuardStretch::write(int f) {
  const int frame = first_ + f, root = rig_->translation_joint;
  for (int s = 0; s < 2; ++s) {
    const auto& joints = source_->joints[s];
    for (size_t i = 0; i < joints.size(); ++i)
      clip_->rotation(frame, joints[i]) = expand_compact_quat(source_->rotations[s][i][frame]) * from_rotation_vector(correction_[s][i][f]);
  }
  if (root >= 0) clip_->translation(frame, root) = source_->root_translation[frame] + root_correction_[f];
}

void PopGuardStretch::measure(int f) {
  for (int s = 0; s < 2; ++s)
    for (size_t k = 0; k < tracks_[s].size(); ++k)
      positions_[s][k][f] = pop_tracked_position(*clip_, first_ + f, rig_->legs[s], tracks_[s][k]);
}

}  // namespace footfix
