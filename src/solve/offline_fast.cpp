// The fast offline solve. The reference iteration (offline_reference.cpp) relaxes a set of
// position constraints; here the same constraints become one weighted least-squares energy over
// all frames, minimised by Newton steps (Gauss-Newton as a fallback). Unknowns: the displacement
// d of the pelvis and both toes from the input at every frame (9 per frame). Terms:
//   soft pairs    w_soft |d[i] - d[i-1]|^2          velocity follows the input (pelvis; toes
//                                                   unless both frames are in contact)
//   hard pairs    w_hard |x[i] - x[i-1]|^2          consecutive contact frames share the toe
//   hard height   w_height (y[i] - contact h)^2     on frames of a contact pair
//   in frame      w_soft (|p - t| - L)^2            pelvis-toe distance = input's (exact
//                                                   second-order model per step)
//   toe floor     w_active (y - min)^2              non-contact toes below their floor (active set)
//   leg reach     w_reach max(0, |v| - R)^2         v = pelvis - toe + offset: hip to heel target
//                                                   no longer than the leg's reach R (when given
//                                                   and fast_reach_weight > 0; one-sided, C1, in
//                                                   the energy itself: no active set to cycle)
//   pelvis height w_height_pull dy^2                the pelvis keeps its height: a planted foot
//                                                   out of reach pulls it along, not down; with
//                                                   fast_pelvis_height_below_only only on the
//                                                   frames a step brings down (the first step
//                                                   without it; a frame pulled stays pulled): a
//                                                   rising pelvis is free
//   anchor        w_anchor |d|^2                    keeps the clip's global path (see header)
//   lock anchor   w_lock_anchor |x - m|^2           planted toes, horizontally (x, z), towards
//                                                   m: the mean of the input toe over the contact
//   lock width    w_lock_width (n . (x - m))^2      the same across the pelvis's travel over the
//                                                   contact (n: horizontal, at right angles to it)
//   smoothness    w_smooth |d[i-1] - 2d[i] + d[i+1]|^2  corrections change velocity over about
//                                                   fast_blend_s (toes) and fast_pelvis_blend_s
//                                                   (pelvis), not in one frame: lock onsets and
//                                                   releases blend in (no pops)
// Each step is one banded SPD system (half-bandwidth 18) solved by banded Cholesky:
// O(frames) time and memory, nothing dense. Weights map the PBD factors to stiffnesses.
#include <algorithm>
#include <cmath>

#include "banded_spd.h"
#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/error.h"
#include "footfix/solve/offline_solve.h"
#include "offline_window.h"

namespace footfix {
namespace {

constexpr int k_vars_per_frame = 9;  // pelvis xyz, left toe xyz, right toe xyz
// The widest coupling: a second difference joins one unknown at frames i-1 and i+1.
constexpr int k_half_bandwidth = 2 * k_vars_per_frame;
constexpr double k_max_weight = 1e8;
constexpr double k_active_scale = 1e3;  // floor weight relative to the hard height weight
// A step predicted to move less than the tolerance is skipped only once the step before it
// moved within this many tolerances: far from the minimum (the first steps, a contact's lock
// pulling hard) the moves are not yet quadratic.
constexpr double k_quadratic_tolerances = 100;
// The below-only pelvis height pulls the frames whose pelvis the solve's first step (taken
// without it) brings down by more than this (m): the round-off about the input height of a frame
// the step leaves where it was does not decide.
constexpr double k_pull_margin_m = 1e-7;

/// Energy weight equivalent to a PBD projection of stiffness k in [0, 1] (one projection per
/// sweep): the fixed point of repeated projections balances constraints as k / (1 - k).
double pbd_weight(double k) { return k >= 1 ? k_max_weight : std::min(k / (1 - k), k_max_weight); }

struct Weights {
  double soft_pair, in_frame, hard_pair, hard_height, active, anchor, lock_anchor, lock_width, smooth,
      pelvis_smooth, reach, pelvis_height;
  bool pelvis_height_below_only = false;
  /// Smoothness weight of unknown k of a frame (pelvis or toe).
  double smooth_of(int k) const { return k < 3 ? pelvis_smooth : smooth; }
  /// Per leg and frame: the mean input toe position over the contact holding the frame (read
  /// in contact frames only).
  std::array<std::vector<Vec3>, 2> lock_mean;
  /// Per leg and frame: the horizontal unit vector at right angles to the input pelvis's travel
  /// over the contact holding the frame (across the walk: the lock width anchor pulls along it);
  /// zero outside contacts and where the pelvis travels less than k_min_travel_m.
  std::array<std::vector<Vec3>, 2> lock_across;
  /// Per leg and frame i: the hard pair's and the hard height's weights of the contact pair
  /// (i-1, i) at its lock blend (lock_blend: 1 inside a contact, less near its onset or
  /// release), geometric from the soft pair weight (blend 0) to the hard one (blend 1).
  std::array<std::vector<double>, 2> lock_pair, lock_height;
  /// Per leg and frame: the input's pelvis-toe distance (the in-frame term's rest length, m).
  std::array<std::vector<double>, 2> rest_length;
  /// Windowed solve: the first pin_d.size() unknowns are held at pin_d by weight `pin`.
  double pin = 0;
  std::vector<double> pin_d;
  /// Windowed solve: the frames the below-only pelvis height pulls (as pelvis_pull_set gives
  /// them for the whole clip), taken after the first step in place of the set that step gives;
  /// empty: the first step decides.
  std::vector<uint8_t> pull_set;
};

/// Lock blend of each contact pair: smoothstep of the frames since the contact began and until
/// it ends, over `blend_frames`, and over `short_swing_frames` at an end next to a swing shorter
/// than that; frames [first, first + count) of `in` (a window's, of the whole clip's contacts).
std::array<std::vector<double>, 2> lock_blend(const OfflineSolveInput& in, double blend_frames, double short_swing_frames,
                                              int first, int count) {
  auto ramp_over = [](double frames, int k) { return frames < 1 ? 1.0 : smoothstep(k / (frames + 1)); };
  std::array<std::vector<double>, 2> lock;
  for (int leg = 0; leg < 2; ++leg) {
    lock[leg].assign(static_cast<size_t>(count), 0.0);
    const std::vector<ContactInterval> runs = contact_runs(in.contact[leg]);
    for (size_t r = 0; r < runs.size(); ++r) {
      const ContactInterval& run = runs[r];
      const bool short_before = r > 0 && run.first_frame - runs[r - 1].last_frame < short_swing_frames;
      const bool short_after = r + 1 < runs.size() && runs[r + 1].first_frame - run.last_frame < short_swing_frames;
      const double onset_frames = short_before ? std::max(blend_frames, short_swing_frames) : blend_frames;
      const double release_frames = short_after ? std::max(blend_frames, short_swing_frames) : blend_frames;
      for (int i = std::max(run.first_frame + 1, first); i <= std::min(run.last_frame, first + count - 1); ++i)
        lock[leg][i - first] =
            std::min(ramp_over(onset_frames, i - run.first_frame), ramp_over(release_frames, run.last_frame - i + 1));
    }
  }
  return lock;
}

// A contact whose pelvis travels less than this (m) has no direction across its travel.
constexpr double k_min_travel_m = 0.01;

/// Fills w.lock_mean and w.lock_across for frames [first, first + count) of `in`.
void lock_targets(const OfflineSolveInput& in, int first, int count, Weights& w) {
  for (int leg = 0; leg < 2; ++leg) {
    w.lock_mean[leg].assign(static_cast<size_t>(count), Vec3{});
    w.lock_across[leg].assign(static_cast<size_t>(count), Vec3{});
    for (const ContactInterval& run : contact_runs(in.contact[leg])) {
      if (run.last_frame < first || run.first_frame >= first + count) continue;
      Vec3 toe_sum;
      for (int i = run.first_frame; i <= run.last_frame; ++i) toe_sum = toe_sum + in.toe_ws[leg][i];
      const Vec3 mean = toe_sum / static_cast<double>(run.last_frame - run.first_frame + 1);
      const Vec3 travel = in.pelvis_ws[run.last_frame] - in.pelvis_ws[run.first_frame];
      const Vec3 across{-travel.z, 0, travel.x};
      const double across_len = length(across);
      for (int i = std::max(run.first_frame, first); i <= std::min(run.last_frame, first + count - 1); ++i) {
        w.lock_mean[leg][i - first] = mean;
        if (across_len >= k_min_travel_m) w.lock_across[leg][i - first] = across / across_len;
      }
    }
  }
}

/// The solve's weights for frames [first, first + count) of `whole` (all of it, or a window's
/// frames: the lock blend and lock means come from the whole clip's contacts).
Weights weights_for(const OfflineSolveSettings& s, const OfflineSolveInput& whole, int first, int count) {
  const double fps = whole.fps;
  // The reference moves both particles of a soft pair (and of the pelvis-toe distance) by the
  // factor: a standard PBD projection of stiffness 2 * factor over two unit-mass particles.
  // Its hard pair moves each particle half the gap (stiffness = factor) and sets each particle's
  // height (stiffness = factor, one particle).
  Weights w;
  w.soft_pair = 0.5 * pbd_weight(std::min(1.0, 2 * s.soft_factor));
  w.in_frame = w.soft_pair;
  w.hard_pair = 0.5 * pbd_weight(s.hard_factor) * s.fast_hard_scale;
  w.hard_height = pbd_weight(s.hard_factor) * s.fast_hard_scale;
  w.active = k_active_scale * w.hard_height;
  w.reach = s.fast_reach_weight * w.soft_pair;
  w.pelvis_height = w.soft_pair * s.fast_pelvis_height;
  w.pelvis_height_below_only = s.fast_pelvis_height_below_only;
  w.anchor = s.fast_anchor * w.soft_pair;
  w.lock_anchor = s.fast_lock_anchor * w.soft_pair;
  w.lock_width = s.fast_lock_width_anchor * w.soft_pair;
  // Second differences of the correction over about fast_blend_s: a correction that changes
  // velocity (a lock starting or ending) spreads that change over that time instead of one frame.
  const double blend_frames = s.fast_blend_s * fps;
  w.smooth = w.soft_pair * blend_frames * blend_frames;
  const double pelvis_frames = std::max(s.fast_blend_s, s.fast_pelvis_blend_s) * fps;
  w.pelvis_smooth = w.soft_pair * pelvis_frames * pelvis_frames;
  if (w.lock_anchor > 0 || w.lock_width > 0) lock_targets(whole, first, count, w);
  const std::array<std::vector<double>, 2> lock =
      lock_blend(whole, s.fast_lock_blend_s * fps, s.fast_short_swing_s * fps, first, count);
  auto blended = [&](double hard, double r) { return r >= 1 ? hard : w.soft_pair * std::pow(hard / w.soft_pair, r); };
  for (int leg = 0; leg < 2; ++leg) {
    w.lock_pair[leg].resize(static_cast<size_t>(count));
    w.lock_height[leg].resize(static_cast<size_t>(count));
    w.rest_length[leg].resize(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
      w.lock_pair[leg][i] = blended(w.hard_pair, lock[leg][i]);
      w.lock_height[leg][i] = blended(w.hard_height, lock[leg][i]);
      w.rest_length[leg][i] = length(whole.pelvis_ws[first + i] - whole.toe_ws[leg][first + i]);
    }
  }
  return w;
}

int var(int frame, int particle, int axis) {
  return frame * k_vars_per_frame + particle * 3 + axis;
}

/// Where assemble() puts entries in the band (offsets i - j below the diagonal, per unknown of a
/// frame): within a frame, the pelvis with itself and both toes, each toe with itself; across
/// frames, an unknown with itself one and two frames on. Long clips store only these.
detail::BandedSpd::Pattern band_pattern() {
  detail::BandedSpd::Pattern pattern(k_vars_per_frame);
  for (int c = 0; c < k_vars_per_frame; ++c) {
    const int last_in_frame = c < 3 ? k_vars_per_frame - 1 : (c / 3) * 3 + 2;  // pelvis: every later unknown
    for (int r = c; r <= last_in_frame; ++r) pattern[c].push_back(r - c);
    pattern[c].push_back(k_vars_per_frame);
    pattern[c].push_back(2 * k_vars_per_frame);
  }
  return pattern;
}

/// Accumulates the normal equations of sum w (a.d - c)^2 into A and rhs.
class Normals {
 public:
  explicit Normals(int frames)
      : a_(frames * k_vars_per_frame, k_half_bandwidth, band_pattern()),
        rhs_(static_cast<size_t>(frames) * k_vars_per_frame) {}
  void clear() {
    if (fresh_) {  // as constructed: already zero
      fresh_ = false;
      return;
    }
    a_.clear();
    std::fill(rhs_.begin(), rhs_.end(), 0.0);
  }
  /// w (d_i - c)^2
  void target(int i, double w, double c) {
    a_.add(i, i, w);
    rhs_[i] += w * c;
  }
  /// w (nx d_i + nz d_j - c)^2 (a horizontal direction (nx, nz) of one particle's x (i) and z (j))
  void directional_target(int i, int j, double nx, double nz, double w, double c) {
    a_.add(i, i, w * nx * nx);
    a_.add(j, j, w * nz * nz);
    a_.add(j, i, w * nx * nz);
    rhs_[i] += w * nx * c;
    rhs_[j] += w * nz * c;
  }
  /// w (d_j - d_i - c)^2
  void pair(int i, int j, double w, double c) {
    a_.add(i, i, w);
    a_.add(j, j, w);
    a_.add(j, i, -w);
    rhs_[i] -= w * c;
    rhs_[j] += w * c;
  }
  /// w (d_i - 2 d_j + d_k)^2
  void second_difference(int i, int j, int k, double w) {
    const int idx[3] = {i, j, k};
    const double c[3] = {1, -2, 1};
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b <= a; ++b) a_.add(idx[a], idx[b], w * c[a] * c[b]);
  }
  /// Second-order model of w (|D| - L)^2 around the current displacements, where D = pelvis -
  /// toe of one frame (particles p0, t0; 3 unknowns each), `dd` = D's displacement part
  /// d_p - d_t now. Hessian block w (n n^T + b (I - n n^T)) with b = 1 - L/|D|: exact (Newton,
  /// quadratic convergence) when `newton`, else b clamped to >= 0 (Gauss-Newton where the leg is
  /// compressed; always positive semi-definite).
  void distance(int p0, int t0, Vec3 d_now, Vec3 dd, double rest_len, double w, bool newton) {
    const double len = length(d_now);
    if (len < 1e-12) return;
    const Vec3 n = d_now / len;
    const double bend = newton ? 1.0 - rest_len / len : std::max(0.0, 1.0 - rest_len / len);
    double h[3][3];
    for (int u = 0; u < 3; ++u)
      for (int v = 0; v < 3; ++v)
        h[u][v] = w * ((1 - bend) * at(n, u) * at(n, v) + (u == v ? bend : 0.0));
    const double g = w * (len - rest_len);
    if (a_.compact()) {
      for (int u = 0; u < 3; ++u) {
        for (int v = 0; v <= u; ++v) {
          a_.add(p0 + u, p0 + v, h[u][v]);
          a_.add(t0 + u, t0 + v, h[u][v]);
        }
        for (int v = 0; v < 3; ++v) a_.add(t0 + v, p0 + u, -h[u][v]);
      }
    } else {
      // The same additions, to the entries addressed in the dense band directly: A(p0 + u,
      // p0 + v) is entry u - v of column p0 + v, A(t0 + v, p0 + u) entry t0 - p0 + v - u of
      // column p0 + u.
      constexpr int stride = k_half_bandwidth + 1;
      double* const pelvis = a_.dense_column(p0);
      double* const toe = a_.dense_column(t0);
      for (int u = 0; u < 3; ++u) {
        for (int v = 0; v <= u; ++v) {
          pelvis[v * stride + u - v] += h[u][v];
          toe[v * stride + u - v] += h[u][v];
        }
        for (int v = 0; v < 3; ++v) pelvis[u * stride + (t0 - p0) + v - u] += -h[u][v];
      }
    }
    for (int u = 0; u < 3; ++u) {
      const double r = h[u][0] * dd.x + h[u][1] * dd.y + h[u][2] * dd.z - g * at(n, u);
      rhs_[p0 + u] += r;
      rhs_[t0 + u] -= r;
    }
  }
  /// Keeps a copy of the equations as they are now (the fixed terms: the band pattern's entries
  /// and the right-hand side), where the system is small enough (k_keep_fixed_up_to_doubles): a
  /// long clip's solve stays within its band's memory.
  void save_fixed() {
    if (a_.stored_doubles() > k_keep_fixed_up_to_doubles) return;
    a_.keep_pattern_entries();
    fixed_rhs_ = rhs_;
  }
  /// Whether save_fixed() kept a copy.
  bool has_fixed() const { return !fixed_rhs_.empty(); }
  /// Frames restore_fixed() can put back on their own: a compact band's entries (grouped by
  /// the pattern) go back all at once.
  int restore_frames(int wanted, int frames) const { return a_.compact() ? frames : wanted; }
  /// Puts the equations of frames [first, end) back as save_fixed() kept them (their columns
  /// and right-hand sides; all frames at once for a compact band, see restore_frames).
  void restore_fixed(int first, int end) {
    const int from = first * k_vars_per_frame, to = end * k_vars_per_frame;
    a_.restore_pattern_entries(from, to);
    std::copy(fixed_rhs_.begin() + from, fixed_rhs_.begin() + to, rhs_.begin() + from);
  }
  /// Solves for the minimiser; false if the system is not positive definite. The right-hand
  /// side becomes the solution (no copy): the next assemble() builds it again.
  bool solve(std::vector<double>& out) {
    out.swap(rhs_);
    rhs_.resize(out.size());
    return a_.factor_solve(out);
  }

 private:
  // 8 MiB: clips of up to ~6,000 frames keep their fixed terms.
  static constexpr std::size_t k_keep_fixed_up_to_doubles = std::size_t{1} << 20;
  detail::BandedSpd a_;
  std::vector<double> rhs_;
  bool fresh_ = true;
  std::vector<double> fixed_rhs_;
};

Vec3 rest_of(const OfflineSolveInput& in, int frame, int particle) {
  return particle == 0 ? in.pelvis_ws[frame] : in.toe_ws[particle - 1][frame];
}
Vec3 disp_of(const std::vector<double>& d, int frame, int particle) {
  return {d[var(frame, particle, 0)], d[var(frame, particle, 1)], d[var(frame, particle, 2)]};
}
/// How far the hip to heel-target vector of `leg` at frame i is beyond the leg's reach (<= 0:
/// within it); `v` receives the vector. 0 when the input gives no reach.
double reach_excess(const OfflineSolveInput& in, int leg, int i, Vec3 pelvis, Vec3 toe, Vec3& v) {
  if (in.reach_m[leg].empty()) return 0;
  v = pelvis - toe + in.reach_offset_m[leg][i];
  return length(v) - in.reach_m[leg][i];
}
bool both_in_contact(const OfflineSolveInput& in, int leg, int i) {
  return i > 0 && in.contact[leg][i - 1] && in.contact[leg][i];
}

/// The frames where a term acts on some frames only; a Newton step descends the energy with
/// these sets as they are, and they are updated between steps.
struct ActiveSets {
  /// Per leg and frame: a non-contact toe below its floor (the toe floor acts on it).
  std::array<std::vector<uint8_t>, 2> floor;
  /// Per frame: the below-only pelvis height pulls this pelvis (its first step brought it down);
  /// empty before the first step.
  std::vector<uint8_t> pulled;
  explicit ActiveSets(int frames) {
    for (auto& f : floor) f.assign(static_cast<size_t>(frames), 0);
  }
  bool pulls(int i) const { return !pulled.empty() && pulled[static_cast<size_t>(i)]; }
};

/// The normal equations' terms that do not depend on the displacements (all but the pelvis-toe
/// distance, the leg reach, the toe floor and a below-only pelvis height, whose frames the first
/// step decides), added to `eq`.
void assemble_fixed(const OfflineSolveInput& in, const Weights& w, Normals& eq) {
  for (size_t k = 0; k < w.pin_d.size(); ++k) eq.target(static_cast<int>(k), w.pin, w.pin_d[k]);
  for (int i = 0; i < in.frame_count; ++i) {
    for (int k = 0; k < k_vars_per_frame; ++k) eq.target(var(i, 0, 0) + k, w.anchor, 0.0);
    if (!w.pelvis_height_below_only) eq.target(var(i, 0, 1), w.pelvis_height, 0.0);
    if (i > 0)
      for (int ax = 0; ax < 3; ++ax) eq.pair(var(i - 1, 0, ax), var(i, 0, ax), w.soft_pair, 0.0);
    if (i > 0 && i + 1 < in.frame_count)
      for (int k = 0; k < k_vars_per_frame; ++k)
        if (w.smooth_of(k) > 0)
          eq.second_difference(var(i - 1, 0, 0) + k, var(i, 0, 0) + k, var(i + 1, 0, 0) + k, w.smooth_of(k));
    for (int leg = 0; leg < 2; ++leg) {
      const int t = 1 + leg;
      if (both_in_contact(in, leg, i)) {
        const Vec3 rest_step = rest_of(in, i, t) - rest_of(in, i - 1, t);
        for (int ax = 0; ax < 3; ++ax)
          eq.pair(var(i - 1, t, ax), var(i, t, ax), w.lock_pair[leg][i], -at(rest_step, ax));
        for (int f : {i - 1, i})
          eq.target(var(f, t, 1), w.lock_height[leg][i], in.contact_height_m[leg][f] - rest_of(in, f, t).y);
      } else if (i > 0) {
        for (int ax = 0; ax < 3; ++ax) eq.pair(var(i - 1, t, ax), var(i, t, ax), w.soft_pair, 0.0);
      }
      if (in.contact[leg][i] && w.lock_anchor > 0)
        for (int ax : {0, 2}) eq.target(var(i, t, ax), w.lock_anchor, at(w.lock_mean[leg][i] - rest_of(in, i, t), ax));
      if (in.contact[leg][i] && w.lock_width > 0) {
        const Vec3 n = w.lock_across[leg][i];
        eq.directional_target(var(i, t, 0), var(i, t, 2), n.x, n.z, w.lock_width,
                              dot(n, w.lock_mean[leg][i] - rest_of(in, i, t)));
      }
    }
  }
}

/// Adds the terms of frames [first, end) that depend on the current displacements `d` or on the
/// `active` sets (pelvis-toe distance, leg reach, toe floor of the floor's toes, a below-only
/// pelvis height on the pulled frames) to `eq`, which holds assemble_fixed's. A frame's terms
/// join its own unknowns only.
void assemble_moving(const OfflineSolveInput& in, const Weights& w, const std::vector<double>& d,
                     const ActiveSets& active, bool newton, int first, int end, Normals& eq) {
  for (int i = first; i < end; ++i) {
    if (active.pulls(i)) eq.target(var(i, 0, 1), w.pelvis_height, 0.0);
    const Vec3 pelvis = in.pelvis_ws[i] + disp_of(d, i, 0);
    for (int leg = 0; leg < 2; ++leg) {
      const int t = 1 + leg;
      const Vec3 toe = rest_of(in, i, t) + disp_of(d, i, t);
      eq.distance(var(i, 0, 0), var(i, t, 0), pelvis - toe, disp_of(d, i, 0) - disp_of(d, i, t),
                  w.rest_length[leg][i], w.in_frame, newton);
      Vec3 v;
      if (w.reach > 0 && reach_excess(in, leg, i, pelvis, toe, v) > 0)
        eq.distance(var(i, 0, 0), var(i, t, 0), v, disp_of(d, i, 0) - disp_of(d, i, t), in.reach_m[leg][i], w.reach,
                    true);
      if (active.floor[leg][i])
        eq.target(var(i, t, 1), w.active, in.toe_min_height_m[leg] - rest_of(in, i, t).y);
    }
  }
}

// Frames whose equations assemble() puts back and gives their moving terms together (about
// 44 KiB of band: the moving terms are added while the frames are in cache).
constexpr int k_assemble_chunk_frames = 32;

/// Builds the normal equations around the current displacements `d`: the fixed terms (once,
/// then from the copy `eq` keeps where it has room for one, a chunk of frames at a time), then
/// the moving ones.
void assemble(const OfflineSolveInput& in, const Weights& w, const std::vector<double>& d,
              const ActiveSets& active, bool newton, Normals& eq) {
  if (eq.has_fixed()) {
    const int chunk = std::max(1, eq.restore_frames(k_assemble_chunk_frames, in.frame_count));
    for (int first = 0; first < in.frame_count; first += chunk) {
      const int end = std::min(in.frame_count, first + chunk);
      eq.restore_fixed(first, end);
      assemble_moving(in, w, d, active, newton, first, end, eq);
    }
    return;
  }
  eq.clear();
  assemble_fixed(in, w, eq);
  eq.save_fixed();
  assemble_moving(in, w, d, active, newton, 0, in.frame_count, eq);
}

/// Marks non-contact toes below their floor; returns true if the set changed.
bool update_floor(const OfflineSolveInput& in, const std::vector<double>& d, ActiveSets& active) {
  bool changed = false;
  for (int leg = 0; leg < 2; ++leg) {
    for (int i = 0; i < in.frame_count; ++i) {
      const double y = rest_of(in, i, 1 + leg).y + d[var(i, 1 + leg, 1)];
      const uint8_t a = !in.contact[leg][i] && y < in.toe_min_height_m[leg];
      changed |= a != active.floor[leg][i];
      active.floor[leg][i] = a;
    }
  }
  return changed;
}

/// The frames whose pelvis displacements `d` bring it down by more than k_pull_margin_m.
std::vector<uint8_t> brought_down(const std::vector<double>& d) {
  std::vector<uint8_t> down(d.size() / k_vars_per_frame);
  for (size_t i = 0; i < down.size(); ++i) down[i] = d[var(static_cast<int>(i), 0, 1)] < -k_pull_margin_m;
  return down;
}

/// With a below-only pelvis height, after a step (displacements `d`): after the first, the
/// pulled frames are w.pull_set where given, else those the step brought down; after the others,
/// the frames the step brought down join them (none leaves). Returns true if the set changed.
bool update_pulled(const Weights& w, const std::vector<double>& d, bool first_step, ActiveSets& active) {
  if (!w.pelvis_height_below_only || w.pelvis_height <= 0) return false;
  if (first_step) {
    active.pulled = w.pull_set.empty() ? brought_down(d) : w.pull_set;
    return std::find(active.pulled.begin(), active.pulled.end(), 1) != active.pulled.end();
  }
  const std::vector<uint8_t> down = brought_down(d);
  bool joined = false;
  for (size_t i = 0; i < down.size(); ++i) {
    joined |= down[i] && !active.pulled[i];
    active.pulled[i] |= down[i];
  }
  return joined;
}

/// The energy a step minimises, at displacements `d`: the terms and weights of assemble(), with
/// the toe floor on the toes of the `active` floor set and a below-only pelvis height on its
/// pulled frames (the sets are updated between steps, so each step descends one smooth energy).
double energy(const OfflineSolveInput& in, const Weights& w, const std::vector<double>& d, const ActiveSets& active) {
  auto sq = [](double v) { return v * v; };
  // Each frame's terms are summed on their own (a chain of additions per frame, the frames'
  // independent of one another), then the frames' sums: the same terms as one running sum,
  // with round-off far under line_search's slack (1e-12 of the energy).
  double e = 0;
  for (size_t k = 0; k < w.pin_d.size(); ++k) e += w.pin * sq(d[k] - w.pin_d[k]);
  for (int i = 0; i < in.frame_count; ++i) {
    double ef = 0;
    for (int k = 0; k < k_vars_per_frame; ++k) ef += w.anchor * sq(d[var(i, 0, 0) + k]);
    if (!w.pelvis_height_below_only || active.pulls(i)) ef += w.pelvis_height * sq(d[var(i, 0, 1)]);
    if (i > 0 && i + 1 < in.frame_count)
      for (int k = 0; k < k_vars_per_frame; ++k)
        ef += w.smooth_of(k) * sq(d[var(i - 1, 0, 0) + k] - 2 * d[var(i, 0, 0) + k] + d[var(i + 1, 0, 0) + k]);
    if (i > 0) ef += w.soft_pair * length_sq(disp_of(d, i, 0) - disp_of(d, i - 1, 0));
    const Vec3 pelvis = in.pelvis_ws[i] + disp_of(d, i, 0);
    for (int leg = 0; leg < 2; ++leg) {
      const int t = 1 + leg;
      const Vec3 toe = rest_of(in, i, t) + disp_of(d, i, t);
      if (both_in_contact(in, leg, i)) {
        ef += w.lock_pair[leg][i] * length_sq(toe - rest_of(in, i - 1, t) - disp_of(d, i - 1, t));
        for (int f : {i - 1, i})
          ef += w.lock_height[leg][i] * sq(rest_of(in, f, t).y + d[var(f, t, 1)] - in.contact_height_m[leg][f]);
      } else if (i > 0) {
        ef += w.soft_pair * length_sq(disp_of(d, i, t) - disp_of(d, i - 1, t));
      }
      ef += w.in_frame * sq(length(pelvis - toe) - w.rest_length[leg][i]);
      Vec3 v;
      ef += w.reach * sq(std::max(0.0, reach_excess(in, leg, i, pelvis, toe, v)));
      if (active.floor[leg][i]) ef += w.active * sq(toe.y - in.toe_min_height_m[leg]);
      if (in.contact[leg][i] && w.lock_anchor > 0)
        ef += w.lock_anchor * (sq(toe.x - w.lock_mean[leg][i].x) + sq(toe.z - w.lock_mean[leg][i].z));
      if (in.contact[leg][i] && w.lock_width > 0)
        ef += w.lock_width * sq(dot(w.lock_across[leg][i], toe - w.lock_mean[leg][i]));
    }
    e += ef;
  }
  return e;
}

/// The terms of energy() that only the `active` sets switch on: the toe floor on the floor set's
/// toes and a below-only pelvis height on the pulled frames. After the sets change, energy()
/// changes by this much less its value before (no need to evaluate every term again).
double active_set_energy(const OfflineSolveInput& in, const Weights& w, const std::vector<double>& d, const ActiveSets& active) {
  auto sq = [](double v) { return v * v; };
  double e = 0;
  for (int leg = 0; leg < 2; ++leg)
    for (int i = 0; i < in.frame_count; ++i)
      if (active.floor[leg][i]) e += w.active * sq(rest_of(in, i, 1 + leg).y + d[var(i, 1 + leg, 1)] - in.toe_min_height_m[leg]);
  if (w.pelvis_height_below_only)
    for (int i = 0; i < in.frame_count; ++i)
      if (active.pulls(i)) e += w.pelvis_height * sq(d[var(i, 0, 1)]);
  return e;
}

/// Backtracking along `next - d` from d: the largest step of 1, 1/2, 1/4, ... that does not
/// raise the energy above `e_now` (plus round-off). Writes the accepted point into `next` and
/// its energy into `e_next` and the step taken into `alpha`; false when no step of at least
/// k_min_step helps.
bool line_search(const OfflineSolveInput& in, const Weights& w, const std::vector<double>& d,
                 const ActiveSets& active, double e_now, std::vector<double>& next,
                 double& e_next, double& alpha) {
  constexpr double k_min_step = 1.0 / 64;
  const double slack = 1e-12 * std::max(1.0, e_now);
  // The whole step first, at `next` as given (most steps take it): the step's vector is made
  // only to back off.
  alpha = 1;
  e_next = energy(in, w, next, active);
  if (std::isfinite(e_next) && e_next <= e_now + slack) return true;
  std::vector<double> step(d.size());
  for (size_t k = 0; k < d.size(); ++k) step[k] = next[k] - d[k];
  for (alpha = 0.5; alpha >= k_min_step; alpha *= 0.5) {
    for (size_t k = 0; k < d.size(); ++k) next[k] = d[k] + alpha * step[k];
    e_next = energy(in, w, next, active);
    if (std::isfinite(e_next) && e_next <= e_now + slack) return true;
  }
  return false;
}

bool all_finite(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
}

OfflineSolveResult solve_fast(const OfflineSolveInput& in, const Weights& w, const OfflineSolveSettings& s) {
  const int n = in.frame_count;
  std::vector<double> d(static_cast<size_t>(n) * k_vars_per_frame, 0.0), next;
  std::copy(w.pin_d.begin(), w.pin_d.end(), d.begin());
  ActiveSets active(n);
  update_floor(in, d, active);

  OfflineSolveResult r;
  Normals eq(n);
  bool newton = true;
  double e_now = energy(in, w, d, active), e_next = 0, alpha = 0;
  // The move of the last full Newton step on an unchanged floor set (0: none).
  double newton_change = 0;
  // Tries one step from d with the current model: solves, then backtracks on the energy.
  auto try_step = [&]() {
    assemble(in, w, d, active, newton, eq);
    return eq.solve(next) && all_finite(next) && line_search(in, w, d, active, e_now, next, e_next, alpha);
  };
  for (int step = 0; step < s.fast_max_steps && n > 0; ++step) {
    if (!try_step()) {
      // Compressed legs made the exact Hessian indefinite, or its step did not lower the
      // energy: a Gauss-Newton step instead (its matrix is positive definite thanks to the
      // anchor, so its step is a descent direction).
      if (!newton || (newton = false, !try_step())) {
        if (step == 0)
          fail(ErrorKind::process, "offline solve: no step could be taken (the system is not positive definite "
                                   "or its step does not lower the energy); nothing was cleaned");
        break;  // keep the last good iterate; final_change_m says it did not converge
      }
    }
    double change = 0;
    for (size_t k = 0; k < d.size(); ++k) change = std::max(change, std::abs(next[k] - d[k]));
    // Each step tries the exact Hessian first: a Gauss-Newton step taken where it failed does
    // not make the next one fail, and staying on Gauss-Newton converges only linearly (the
    // shared hop clip at x1.25: 19 steps against 9).
    const bool full_newton = newton && alpha == 1;
    newton = true;
    d.swap(next);
    e_now = e_next;
    r.iterations = step + 1;
    r.final_change_m = change;
    // The below-only pelvis height pulls the frames the first step (taken without it) brought
    // down, and any a later step brings down; a pulled frame stays pulled. Updated both ways
    // (the frames below their input height after each step), the set's edges crept a few frames
    // per step (the shared start-walk-stop clip: 606, 447, 403, 381, 376, 374, 373 frames):
    // 84 Newton steps over the shared BVH against 65, for the same cleaned clips within
    // bench_clean_quality's precision.
    const double set_terms = active_set_energy(in, w, d, active);
    const bool pull_changed = update_pulled(w, d, step == 0, active);
    const bool active_changed = update_floor(in, d, active) || pull_changed;
    if (active_changed) e_now += active_set_energy(in, w, d, active) - set_terms;
    // Two full Newton steps in a row on one energy converge quadratically: the next move would
    // be about C change^2 with C = change / previous^2. Once that is under the tolerance (and
    // the moves shrink), the step that would only confirm it is not taken. A toe that step would
    // take across its floor (a swing toe at its lowest sits on it, within a nanometer) would
    // change the floor's set, but the toe crosses by no more than the move, which the floor
    // then undoes: the solution stays within the move, under the tolerance. (Requiring every
    // swing toe 0.1 mm from its floor kept one clip in five taking that step: 4% of the shared
    // BVH's frame-steps.)
    const double ratio = newton_change > 0 ? change / newton_change : 1;
    const double predicted = change * ratio * ratio;
    const bool predicted_converged = step >= 2 && full_newton && ratio < 0.5 &&
                                     change < k_quadratic_tolerances * s.fast_tolerance_m &&
                                     predicted < s.fast_tolerance_m;
    if (!active_changed && (change < s.fast_tolerance_m || predicted_converged)) {
      if (change >= s.fast_tolerance_m) r.final_change_m = predicted;  // the move the skipped step would make
      r.converged = true;
      break;
    }
    newton_change = full_newton && !active_changed ? change : 0;
  }
  if (n == 0) r.converged = true;

  r.pelvis_ws.resize(static_cast<size_t>(n));
  for (auto& t : r.toe_ws) t.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    r.pelvis_ws[i] = in.pelvis_ws[i] + disp_of(d, i, 0);
    for (int leg = 0; leg < 2; ++leg) {
      Vec3 t = rest_of(in, i, 1 + leg) + disp_of(d, i, 1 + leg);
      // The floor penalty leaves active toes a hair below the floor; put them on it.
      if (!in.contact[leg][i]) t.y = std::max(t.y, in.toe_min_height_m[leg]);
      r.toe_ws[leg][i] = t;
    }
  }
  return r;
}

/// The displacements of `r`'s pelvis and toes from `in`'s.
std::vector<double> displacements(const OfflineSolveInput& in, const OfflineSolveResult& r) {
  std::vector<double> d(static_cast<size_t>(in.frame_count) * k_vars_per_frame);
  for (int i = 0; i < in.frame_count; ++i)
    for (int p = 0; p < 3; ++p) {
      const Vec3 x = p == 0 ? r.pelvis_ws[i] : r.toe_ws[p - 1][i];
      const Vec3 delta = x - rest_of(in, i, p);
      for (int ax = 0; ax < 3; ++ax) d[var(i, p, ax)] = at(delta, ax);
    }
  return d;
}

}  // namespace

std::vector<uint8_t> detail::pelvis_pull_set(const OfflineSolveInput& whole, int first, int count, int lookback_frames,
                                             const OfflineSolveSettings& s) {
  if (!s.fast_pelvis_height_below_only || !(s.fast_pelvis_height > 0)) return {};
  const int from = std::max(0, first - lookback_frames);
  const OfflineSolveInput span = slice_input(whole, from, first + count - from);
  OfflineSolveSettings first_step = s;
  first_step.fast_max_steps = 1;
  const std::vector<uint8_t> down =
      brought_down(displacements(span, solve_fast(span, weights_for(s, whole, from, span.frame_count), first_step)));
  return {down.begin() + (first - from), down.end()};
}

OfflineSolveResult solve_offline_fast(const OfflineSolveInput& in, const OfflineSolveSettings& s) {
  return solve_fast(in, weights_for(s, in, 0, in.frame_count), s);
}

OfflineSolveResult detail::solve_offline_fast_window(const OfflineSolveInput& whole, const OfflineSolveInput& window,
                                                     int first, const OfflineSolveResult& pinned,
                                                     std::vector<uint8_t> pull_set, const OfflineSolveSettings& s) {
  Weights w = weights_for(s, whole, first, window.frame_count);
  w.pull_set = std::move(pull_set);
  // Far stiffer than any other term, so a pinned frame moves by nanometers at most.
  w.pin = k_active_scale * w.active;
  for (size_t i = 0; i < pinned.pelvis_ws.size(); ++i)
    for (int p = 0; p < 3; ++p) {
      const Vec3 delta = (p == 0 ? pinned.pelvis_ws[i] : pinned.toe_ws[p - 1][i]) - rest_of(window, static_cast<int>(i), p);
      for (int ax = 0; ax < 3; ++ax) w.pin_d.push_back(at(delta, ax));
    }
  return solve_fast(window, w, s);
}

double offline_fast_energy(const OfflineSolveInput& in, const OfflineSolveSettings& s,
                           const OfflineSolveResult& r) {
  const std::vector<double> d = displacements(in, r);
  ActiveSets active(in.frame_count);
  update_floor(in, d, active);
  // The pull's frames as the solve reaching `r` has them, or nearly: those its first step brought
  // down, and those below their input height at `r` (a frame that joined and came back up is
  // missed).
  const Weights w = weights_for(s, in, 0, in.frame_count);
  active.pulled = detail::pelvis_pull_set(in, 0, in.frame_count, 0, s);
  update_pulled(w, d, false, active);
  return energy(in, w, d, active);
}

}  // namespace footfix
