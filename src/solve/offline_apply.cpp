#include "offline_apply.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/contacts/signal_filters.h"
#include "footfix/core/error.h"
#include "footfix/core/fk.h"

namespace footfix {
namespace {

// A hip on its heel (a broken rig) still gets a positive reach.
constexpr double k_min_reach_m = 1e-6;
/// A leg's hip-heel length at one frame: as posed, and straight (thigh plus shin).
struct LegLength {
  double posed_m = 0, straight_m = 0;
};
/// The length of a leg whose hip, knee and heel stand at these world positions.
LegLength leg_length_of(Vec3 hip, Vec3 knee, Vec3 heel) {
  return {length(heel - hip), length(knee - hip) + length(heel - knee)};
}
/// A leg's length at frames [first, first + out.size()) of `clip`, as posed and straight, into
/// `out`: from `track` (the leg's positions in every frame) where given, else from
/// joint_trajectory's positions.
void leg_lengths(const Clip& clip, const LegChain& leg, const LegTrack* track, int first, std::span<LegLength> out) {
  const size_t n = out.size();
  if (track) {
    for (size_t f = 0; f < n; ++f) {
      const size_t g = static_cast<size_t>(first) + f;
      out[f] = leg_length_of(track->hip[g], track->knee[g], track->heel[g]);
    }
    return;
  }
  std::vector<Vec3> hip(n), knee(n), heel(n);
  joint_trajectory(clip, leg.hip, first, hip);
  joint_trajectory(clip, leg.knee, first, knee);
  joint_trajectory(clip, leg.heel, first, heel);
  for (size_t f = 0; f < n; ++f) out[f] = leg_length_of(hip[f], knee[f], heel[f]);
}

/// The reach the solve keeps targets within: where the IK's soft limit begins when it ends at
/// the straight leg (reach_to_straight), so that every target the solve gives is reached exactly.
double reach_of(double straight_m, double softness_m) { return std::max(straight_m - softness_m, k_min_reach_m); }

// Share of the leg's slack (the straight leg's hip-heel length less the source pose's) by which
// the IK may extend a leg beyond the source's pose at that frame. A bent knee straightens a
// little to reach a target a few millimetres beyond the pose; a leg near full extension keeps
// the source's, where a two-bone knee would swing a long way for a tiny reach (measured in
// docs/tuning.md).
constexpr double k_extension_slack_share = 0.05;
/// Where the IK's soft reach limit ends unless the solve kept its targets within the straight
/// leg: the source's extension plus k_extension_slack_share of the leg's slack.
double slack_max_extension(const LegLength& leg) {
  return leg.posed_m + k_extension_slack_share * std::max(0.0, leg.straight_m - leg.posed_m);
}
// A solved toe target that moves less than this per frame is planted (a locked contact).
constexpr double k_planted_step_m = 1e-4;
// lower_pelvis_to_reach: the largest drop it makes (m), and the time over which a drop is
// spread (s, a Gaussian sigma: the pelvis comes down over about 0.25 s before the frame that
// needs it and goes back up over as long after).
constexpr double k_max_reach_drop_m = 0.15;
constexpr double k_reach_drop_sigma_s = 0.08;
// lower_pelvis_to_reach's horizontal move: the largest (m), the coarse search's steps either
// way, the fine search's step (m), and the most frames whose drop a candidate move is tried on.
constexpr double k_max_reach_shift_m = 0.03;
constexpr int k_reach_shift_coarse_steps = 6;
constexpr double k_reach_shift_step_m = 0.001;
constexpr size_t k_reach_shift_window_frames = 16;
// Halvings of the bisection for the least pelvis drop that reaches a target: 40 take the
// k_max_reach_drop_m interval below a picometre.
constexpr int k_reach_drop_bisections = 40;
// The pelvis shift's search: a horizontal hip-to-target direction shorter than this (m) has no
// direction to shift along; drops within k_drop_tie_m (m) of each other are equal, and the
// smaller shift wins; k_shift_round_off_m (m) absorbs the round-off of the fine search's summed
// steps at its ends.
constexpr double k_no_direction_m = 1e-9;
constexpr double k_drop_tie_m = 1e-6;
constexpr double k_shift_round_off_m = 1e-12;
// Distances within this of the reach count as reached (the pitched distance's round-off).
constexpr double k_reach_round_off_m = 1e-9;
// Standard deviation (seconds) of the smoothing of a planted foot's heel-to-toe offset, at least
// (apply_offline_solve's planted_foot_sigma_s may ask for more).
constexpr double k_heel_offset_sigma_s = 0.015;
// Times (seconds) over which the foot pitch the IK may use to reach a planted toe's target
// eases in before the toe plants, and out after it lifts (see foot_pitch_weights). Out is
// short: once the toe lifts, its target follows the swing, often further out of reach, and a
// pitch still fading then chases that swing, a pop in the leg (docs/tuning.md).
constexpr double k_foot_pitch_onset_s = 0.15;
constexpr double k_foot_pitch_release_s = 0.05;

/// The runs of frames where the solved toe target stands still (locked contacts), each from the
/// frame it arrives on to the last frame it stays.
std::vector<ContactInterval> planted_runs(const std::vector<Vec3>& toe_target) {
  // still[f]: the target did not move from frame f - 1 to f; a run of still frames [a, b] is the
  // planted run [a - 1, b].
  std::vector<std::uint8_t> still(toe_target.size(), 0);
  for (size_t f = 1; f < toe_target.size(); ++f) still[f] = length(toe_target[f] - toe_target[f - 1]) < k_planted_step_m;
  std::vector<ContactInterval> runs = contact_runs(still);
  for (ContactInterval& run : runs) --run.first_frame;
  return runs;
}

/// Per frame, how much foot pitch the IK may use to reach `toe_target` (LegIkHints::foot_pitch):
/// 1 on planted runs, easing (smoothstep) to 0 over k_foot_pitch_onset_s before each and
/// k_foot_pitch_release_s after it.
std::vector<double> foot_pitch_weights(const std::vector<ContactInterval>& planted, int frame_count, double fps) {
  std::vector<double> weight(static_cast<size_t>(frame_count), 0.0);
  const double before = std::max(1.0, k_foot_pitch_onset_s * fps), after = std::max(1.0, k_foot_pitch_release_s * fps);
  for (const ContactInterval& run : planted) {
    const int from = std::max(0, run.first_frame - static_cast<int>(before)),
              to = std::min(frame_count - 1, run.last_frame + static_cast<int>(after));
    for (int f = from; f <= to; ++f) {
      const double u = f < run.first_frame ? (run.first_frame - f) / before : f > run.last_frame ? (f - run.last_frame) / after : 0;
      weight[f] = std::max(weight[f], smoothstep(1.0 - u));
    }
  }
  return weight;
}

/// Per frame, the heel-to-toe offset (heel - toe, world) the IK keeps for `leg`: the source's,
/// smoothed (Gaussian, `sigma_s` seconds) over each run of frames where the solved toe target
/// stands still (a locked contact). There the toe is pinned, and a source toe that jitters
/// against its heel (mocap noise, tens of m/s^2 at 120 Hz; a foot that turns by degrees from
/// frame to frame on video capture) would otherwise move the heel and the knee by that jitter.
/// Empty for a rig without a toe. Call before the clip is changed.
std::vector<Vec3> planted_heel_offsets(const Clip& clip, const LegChain& leg, const std::vector<ContactInterval>& planted,
                                       double sigma_s, const LegTrack* track) {
  if (leg.toe < 0) return {};
  const auto n = static_cast<size_t>(clip.frame_count);
  std::vector<Vec3> own_heel, own_toe, offset(n);
  const std::vector<Vec3>& heel = positions_of(clip, leg.heel, track ? &track->heel : nullptr, own_heel);
  const std::vector<Vec3>& toe = positions_of(clip, leg.toe, track ? &track->toe : nullptr, own_toe);
  for (size_t f = 0; f < n; ++f) offset[f] = heel[f] - toe[f];
  const double sigma = sigma_s * clip.fps;
  for (const ContactInterval& run : planted) {
    const size_t begin = static_cast<size_t>(run.first_frame), end = static_cast<size_t>(run.last_frame) + 1;
    const std::vector<Vec3> smoothed = gaussian_smooth(std::span<const Vec3>(offset.data() + begin, end - begin), sigma);
    // Smoothed inside the run, the source's at its ends (a contact's ends are where the foot
    // pitches fastest: a lagging offset there would jump to the source's in one frame).
    const double ramp = 3 * sigma + 1;
    for (size_t f = begin; f < end; ++f) {
      const double w = std::min(smoothstep(static_cast<double>(f - begin) / ramp), smoothstep(static_cast<double>(end - 1 - f) / ramp));
      offset[f] = offset[f] + (smoothed[f - begin] - offset[f]) * w;
    }
  }
  return offset;
}

}  // namespace

OfflineSolveInput offline_input_from_clip(const Clip& clip, int translation_joint,
                                          const std::array<LegChain, 2>& legs, const LegIkSettings& ik,
                                          const LegTracks* tracks) {
  if (tracks && !tracks->match(clip, translation_joint, legs)) tracks = nullptr;
  OfflineSolveInput in;
  const auto n = static_cast<size_t>(clip.frame_count);
  in.frame_count = clip.frame_count;
  in.fps = clip.fps;
  // (positions_of computes into the vector it is given, so assigning its result is a copy only
  // from the tracks.)
  in.pelvis_ws = positions_of(clip, translation_joint, tracks ? &tracks->root_positions() : nullptr, in.pelvis_ws);
  for (int leg = 0; leg < 2; ++leg) {
    in.toe_ws[leg] =
        positions_of(clip, legs[leg].contact_joint(), tracks ? &tracks->legs[leg].contact() : nullptr, in.toe_ws[leg]);
    in.contact[leg].assign(n, 0);
    in.contact_height_m[leg].assign(n, 0.0);
    double min_y = 1e300;
    for (const Vec3& p : in.toe_ws[leg]) min_y = std::min(min_y, p.y);
    in.toe_min_height_m[leg] = n ? min_y : 0.0;
    // The leg's reach at each frame (reach_of): targets the solve keeps within it are reached
    // exactly by an IK whose soft limit ends at the straight leg (only then is it needed).
    if (!ik.reach_to_straight) continue;
    const LegTrack* t = tracks ? &tracks->legs[leg] : nullptr;
    std::vector<Vec3> own_hip, own_knee, own_heel;
    const std::vector<Vec3>& hip = positions_of(clip, legs[leg].hip, t ? &t->hip : nullptr, own_hip);
    const std::vector<Vec3>& knee = positions_of(clip, legs[leg].knee, t ? &t->knee : nullptr, own_knee);
    const std::vector<Vec3>& heel = positions_of(clip, legs[leg].heel, t ? &t->heel : nullptr, own_heel);
    in.reach_m[leg].resize(n);
    in.reach_offset_m[leg].resize(n);
    for (size_t f = 0; f < n; ++f) {
      in.reach_m[leg][f] = reach_of(leg_length_of(hip[f], knee[f], heel[f]).straight_m, ik.softness_m);
      in.reach_offset_m[leg][f] = (hip[f] - in.pelvis_ws[f]) - (heel[f] - in.toe_ws[leg][f]);
    }
  }
  return in;
}

namespace {

/// The shortest hip-heel distance the IK's foot pitch can give a toe target (toe) with heel
/// offset `foot` (heel - toe) from hip `hip`: the heel turned about the toe towards the hip by at
/// most `pitch_rad`.
double pitched_distance(Vec3 hip, Vec3 toe, Vec3 foot, double pitch_rad) {
  const Vec3 to_hip = hip - toe;
  const double hip_m = length(to_hip), foot_m = length(foot);
  if (hip_m <= 0 || foot_m <= 0) return length(hip - (toe + foot));
  const double alpha = std::acos(std::clamp(dot(to_hip, foot) / (hip_m * foot_m), -1.0, 1.0));
  const double gap = std::max(0.0, alpha - pitch_rad);
  return std::sqrt(std::max(0.0, hip_m * hip_m + foot_m * foot_m - 2 * hip_m * foot_m * std::cos(gap)));
}

/// Each frame's value held over +-`hold` frames: at every frame, the value of largest `size`
/// among the frames within `hold` of it (a default T where none is above 0).
template <typename T, typename Size>
std::vector<T> hold_largest(const std::vector<T>& values, int hold, Size size) {
  const size_t n = values.size();
  std::vector<T> held(n);
  for (size_t f = 0; f < n; ++f) {
    if (!(size(values[f]) > 0)) continue;
    const size_t from = f > static_cast<size_t>(hold) ? f - hold : 0, to = std::min(n - 1, f + hold);
    for (size_t g = from; g <= to; ++g)
      if (size(values[f]) > size(held[g])) held[g] = values[f];
  }
  return held;
}

/// What lower_pelvis_to_reach plans with: per leg and contact frame, the source hip's offset
/// from the pelvis, the heel offset, the foot pitch the IK gives exactly and the reach; and the
/// least drop of the pelvis that brings a planted target within it.
class ReachPlan {
 public:
  ReachPlan(const Clip& clip, int translation_joint, const std::array<LegChain, 2>& legs,
            const std::array<std::vector<uint8_t>, 2>& contact, const LegIkSettings& ik,
            const OfflineSolveResult& result, const LegTracks* tracks)
      : toe_ws_(result.toe_ws) {
    const auto n = static_cast<size_t>(clip.frame_count);
    if (tracks && !tracks->match(clip, translation_joint, legs)) tracks = nullptr;
    std::vector<Vec3> own_pelvis;
    const std::vector<Vec3>& pelvis =
        positions_of(clip, translation_joint, tracks ? &tracks->root_positions() : nullptr, own_pelvis);
    const double max_pitch_rad = ik.max_foot_pitch_deg * k_deg_to_rad;
    for (int leg = 0; leg < 2; ++leg) {
      const LegChain& chain = legs[leg];
      planted_[leg].assign(n, Planted{});
      if (contact[leg].size() != n) continue;
      const std::vector<double> pitch_weight = foot_pitch_weights(planted_runs(result.toe_ws[leg]), clip.frame_count, clip.fps);
      const LegTrack* t = tracks ? &tracks->legs[leg] : nullptr;
      std::vector<Vec3> own_hip, own_knee, own_heel, own_toe;
      const std::vector<Vec3>& hip = positions_of(clip, chain.hip, t ? &t->hip : nullptr, own_hip);
      const std::vector<Vec3>& knee = positions_of(clip, chain.knee, t ? &t->knee : nullptr, own_knee);
      const std::vector<Vec3>& heel = positions_of(clip, chain.heel, t ? &t->heel : nullptr, own_heel);
      const std::vector<Vec3>& toe = positions_of(clip, chain.contact_joint(), t ? &t->contact() : nullptr, own_toe);
      for (size_t f = 0; f < n; ++f) {
        if (!contact[leg][f]) continue;
        const LegLength source = leg_length_of(hip[f], knee[f], heel[f]);
        Planted& p = planted_[leg][f];
        p.on = true;
        // The distance the IK reaches exactly, its soft limit's start (see apply_offline_solve), or
        // the source's own extension (reached within the soft limit, as without this drop).
        p.reach = std::max(source.posed_m, slack_max_extension(source) - ik.softness_m);
        // The pelvis carries the hip rigidly, the toe target the heel (turned by the foot pitch).
        p.hip_from_pelvis = hip[f] - pelvis[f];
        p.foot = chain.toe >= 0 ? heel[f] - toe[f] : Vec3{};
        // Only the pitch the IK gives exactly (below its saturation): planning on more leaves toes
        // short of their targets.
        p.pitch = exact_foot_pitch_rad(max_pitch_rad * pitch_weight[f]);
      }
    }
  }

  bool planted(int leg, size_t f) const { return planted_[leg][f].on; }
  /// How far `leg`'s planted target at frame f stands beyond its reach with the pelvis at
  /// `pelvis_at` (m; negative: within it).
  double excess(int leg, size_t f, Vec3 pelvis_at) const { return distance_from(leg, f, pelvis_at) - planted_[leg][f].reach; }
  /// The direction (world) from `leg`'s hip to its toe target at frame f, the pelvis at `pelvis_at`.
  Vec3 hip_to_target(int leg, size_t f, Vec3 pelvis_at) const {
    return toe_ws_[leg][f] - (pelvis_at + planted_[leg][f].hip_from_pelvis);
  }
  /// The smallest drop (straight down) of the pelvis at `at` bringing `leg`'s planted target of
  /// frame f within reach, by bisection; at least `at_least` (a frame within reach at that drop
  /// costs one evaluation). k_max_reach_drop_m where even that does not reach.
  double leg_drop_needed(int leg, size_t f, Vec3 at, double at_least = 0) const {
    const Planted& p = planted_[leg][f];
    if (!p.on) return at_least;
    auto distance_after = [&](double drop) { return distance_from(leg, f, at - Vec3{0, drop, 0}); };
    if (distance_after(at_least) <= p.reach + k_reach_round_off_m) return at_least;
    double lo = at_least, hi = k_max_reach_drop_m;
    if (distance_after(hi) > p.reach) return hi;
    for (int it = 0; it < k_reach_drop_bisections; ++it) (distance_after(0.5 * (lo + hi)) > p.reach ? lo : hi) = 0.5 * (lo + hi);
    return hi;
  }
  /// The same for every planted target of frame f.
  double drop_needed(size_t f, Vec3 at, double at_least = 0) const {
    double need = at_least;
    for (int leg = 0; leg < 2; ++leg) need = leg_drop_needed(leg, f, at, need);
    return need;
  }

 private:
  struct Planted {
    Vec3 hip_from_pelvis, foot;
    double pitch = 0, reach = 0;
    bool on = false;
  };
  // The hip to heel-target distance the IK can give planted `leg` at frame f with the pelvis at
  // `pelvis_at` (the foot pitch it may use there included).
  double distance_from(int leg, size_t f, Vec3 pelvis_at) const {
    const Planted& p = planted_[leg][f];
    return pitched_distance(pelvis_at + p.hip_from_pelvis, toe_ws_[leg][f], p.foot, p.pitch);
  }
  const std::array<std::vector<Vec3>, 2>& toe_ws_;
  std::array<std::vector<Planted>, 2> planted_;
};

}  // namespace

std::array<std::vector<double>, 2> reach_drops_needed(const Clip& clip, int translation_joint,
                                                      const std::array<LegChain, 2>& legs,
                                                      const std::array<std::vector<uint8_t>, 2>& contact,
                                                      const LegIkSettings& ik, const OfflineSolveResult& result,
                                                      const LegTracks* tracks, const std::vector<Vec3>* no_lower_than) {
  const auto n = static_cast<size_t>(clip.frame_count);
  std::array<std::vector<double>, 2> needed{std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)};
  if (n == 0 || result.pelvis_ws.size() != n) return needed;
  const ReachPlan plan(clip, translation_joint, legs, contact, ik, result, tracks);
  const size_t floors = no_lower_than ? std::min(n, no_lower_than->size()) : 0;
  for (int leg = 0; leg < 2; ++leg)
    for (size_t f = 0; f < n; ++f) {
      Vec3 at = result.pelvis_ws[f];
      if (f < floors) at.y = std::max(at.y, (*no_lower_than)[f].y);
      needed[leg][f] = plan.leg_drop_needed(leg, f, at);
    }
  return needed;
}

double lower_pelvis_to_reach(const Clip& clip, int translation_joint, const std::array<LegChain, 2>& legs,
                             const std::array<std::vector<uint8_t>, 2>& contact, const LegIkSettings& ik,
                             OfflineSolveResult& result, bool shift_first, const LegTracks* tracks) {
  const auto n = static_cast<size_t>(clip.frame_count);
  if (n == 0 || result.pelvis_ws.size() != n) return 0;
  const ReachPlan plan(clip, translation_joint, legs, contact, ik, result, tracks);
  auto drop_needed = [&](size_t f, Vec3 at, double at_least = 0) { return plan.drop_needed(f, at, at_least); };
  const double sigma = std::max(1.0, k_reach_drop_sigma_s * clip.fps);
  const int hold = static_cast<int>(std::ceil(3 * sigma));
  // Each frame's drop with the pelvis where the solve left it (found again only if it moves).
  std::vector<double> needed(n, 0.0);
  for (size_t f = 0; f < n; ++f) needed[f] = drop_needed(f, result.pelvis_ws[f]);
  // First, horizontally (shift_first): where a target is out of reach, the pelvis moves along
  // the line towards it, by what least needs a drop at the frames short of reach within the
  // move's spread, the other planted leg included; the move is spread as the drop is.
  if (shift_first) {
    std::vector<Vec3> shift(n);
    bool any = false;
    std::vector<size_t> short_of_reach;
    for (size_t f = 0; f < n; ++f)
      if (needed[f] > 0) short_of_reach.push_back(f);
    // A move is held over +-hold frames: one search every quarter of that along a run of
    // frames short of reach (the cost stays linear in the clip's frames).
    const size_t stride = static_cast<size_t>(std::max(1, hold / 4));
    size_t next_search = 0;
    for (size_t f : short_of_reach) {
      if (f < next_search) continue;
      next_search = f + stride;
      // Towards the planted toe farthest out of reach, horizontally.
      Vec3 dir;
      double worst = -1;
      for (int leg = 0; leg < 2; ++leg) {
        if (!plan.planted(leg, f)) continue;
        const double excess = plan.excess(leg, f, result.pelvis_ws[f]);
        if (excess > worst) {
          worst = excess;
          dir = plan.hip_to_target(leg, f, result.pelvis_ws[f]);
        }
      }
      dir.y = 0;
      if (length(dir) < k_no_direction_m) continue;
      dir = dir / length(dir);
      // The shift is held over +-hold frames: it must help the frames short of reach there too.
      // (Frames short of reach within it, at most k_reach_shift_window_frames of them, evenly.)
      const auto first = std::lower_bound(short_of_reach.begin(), short_of_reach.end(), f > static_cast<size_t>(hold) ? f - hold : 0);
      const auto last = std::upper_bound(first, short_of_reach.end(), f + hold);
      const size_t in_window = static_cast<size_t>(last - first);
      const size_t every = std::max<size_t>(1, in_window / k_reach_shift_window_frames);
      auto window_need = [&](double s) {
        double need = 0;
        for (size_t k = 0; k < in_window; k += every) {
          const size_t g = first[static_cast<std::ptrdiff_t>(k)];
          need = drop_needed(g, result.pelvis_ws[g] + dir * s, need);
        }
        return need;
      };
      // A coarse search, then a fine one about its best.
      double best = window_need(0), best_s = 0;
      auto try_move = [&](double s) {
        const double need = window_need(s);
        if (need < best - k_drop_tie_m || (need < best + k_drop_tie_m && std::abs(s) < std::abs(best_s))) {
          best = need;
          best_s = s;
        }
      };
      constexpr int coarse = k_reach_shift_coarse_steps;
      for (int k = -coarse; k <= coarse; ++k)
        if (k != 0) try_move(k * k_max_reach_shift_m / coarse);  // 0 is `best` already
      const double coarse_step = k_max_reach_shift_m / coarse, around = best_s;
      for (double s = around - coarse_step + k_reach_shift_step_m; s < around + coarse_step - k_shift_round_off_m; s += k_reach_shift_step_m)
        if (std::abs(s) <= k_max_reach_shift_m + k_shift_round_off_m) try_move(s);
      shift[f] = dir * best_s;
      any |= best_s != 0;
    }
    if (any) {
      const std::vector<Vec3> held = hold_largest(shift, hold, [](Vec3 v) { return length(v); });
      std::array<std::vector<double>, 2> axis{std::vector<double>(n), std::vector<double>(n)};
      for (size_t f = 0; f < n; ++f) axis[0][f] = held[f].x, axis[1][f] = held[f].z;
      for (auto& a : axis) a = gaussian_smooth(a, sigma);
      for (size_t f = 0; f < n; ++f) {
        result.pelvis_ws[f] = result.pelvis_ws[f] + Vec3{axis[0][f], 0, axis[1][f]};
        needed[f] = drop_needed(f, result.pelvis_ws[f]);
      }
    }
  }
  if (*std::max_element(needed.begin(), needed.end()) == 0) return 0;
  // Spread: each needed drop is held over +-3 sigma, then smoothed (sigma), so the pelvis comes
  // down and back up smoothly and reaches at least 99.7% of the drop where it is needed.
  const std::vector<double> drop = gaussian_smooth(hold_largest(needed, hold, [](double v) { return v; }), sigma);
  double applied = 0;
  for (size_t f = 0; f < n; ++f) {
    result.pelvis_ws[f].y -= drop[f];
    applied = std::max(applied, drop[f]);
  }
  return applied;
}

LegHeightTracks constant_heights(const std::array<LegHeights, 2>& heights, int frame_count) {
  return {std::vector<LegHeights>(static_cast<size_t>(frame_count), heights[0]),
          std::vector<LegHeights>(static_cast<size_t>(frame_count), heights[1])};
}

OfflineApplyReport apply_offline_solve(Clip& clip, int translation_joint,
                                       const std::array<LegChain, 2>& legs,
                                       const OfflineSolveResult& result,
                                       const LegHeightTracks& heights,
                                       const LegIkSettings& settings,
                                       const LegTracks* tracks, double planted_foot_sigma_s) {
  settings.validate();
  if (tracks && !tracks->match(clip, translation_joint, legs)) tracks = nullptr;
  const auto n = static_cast<size_t>(clip.frame_count);
  if (result.pelvis_ws.size() != n || result.toe_ws[0].size() != n || result.toe_ws[1].size() != n ||
      heights[0].size() != n || heights[1].size() != n)
    fail(ErrorKind::process, clip.source_name + ": offline solve result has " +
                                 std::to_string(result.pelvis_ws.size()) + " frames, clip has " +
                                 std::to_string(n));
  const int parent = clip.skeleton.parents[translation_joint];
  std::array<std::vector<Vec3>, 2> heel_offsets;
  std::array<std::vector<double>, 2> foot_pitch;
  for (int leg = 0; leg < 2; ++leg) {
    const std::vector<ContactInterval> planted = planted_runs(result.toe_ws[leg]);
    heel_offsets[leg] = planted_heel_offsets(clip, legs[leg], planted, std::max(k_heel_offset_sigma_s, planted_foot_sigma_s),
                                             tracks ? &tracks->legs[leg] : nullptr);
    foot_pitch[leg] = foot_pitch_weights(planted, clip.frame_count, clip.fps);
  }
  // A block of frames at a time: the pelvis at each frame of the block first, then the legs'
  // lengths read from their trajectories over the block (each frame's hang from its own pelvis
  // only, and no leg's IK moves the other's joints), then the IK. Memory stays that of a block.
  constexpr int k_block_frames = 1024;
  std::array<std::vector<LegLength>, 2> lengths;
  OfflineApplyReport report;
  for (int first = 0; first < clip.frame_count; first += k_block_frames) {
    const int end = std::min(clip.frame_count, first + k_block_frames);
    for (int f = first; f < end; ++f) {
      const Transform parent_ws = parent >= 0 ? joint_world(clip, f, parent) : Transform{};
      clip.translation(f, translation_joint) =
          rotate(inverse(parent_ws.rotation), result.pelvis_ws[f] - parent_ws.translation);
    }
    for (int leg = 0; leg < 2; ++leg) {
      lengths[leg].resize(static_cast<size_t>(end - first));
      // The clip's tracks, taken before the pelvis moved: the legs' lengths do not move with it.
      leg_lengths(clip, legs[leg], tracks ? &tracks->legs[leg] : nullptr, first, lengths[leg]);
    }
    for (int f = first; f < end; ++f) {
      for (int leg = 0; leg < 2; ++leg) {
        const LegChain& chain = legs[leg];
        // The soft reach limit ends at the source's extension of the frame plus a share of the
        // leg's slack (k_extension_slack_share: a leg near full extension is never straighter
        // than the source had it), or at the straight leg when the solve kept its targets short
        // of where that limit begins (reach_of): near full extension a two-bone knee swings a
        // long way for a tiny change of the target, which the soft limit smooths.
        const LegLength& source = lengths[leg][static_cast<size_t>(f - first)];
        const double max_ext = settings.reach_to_straight ? source.straight_m : slack_max_extension(source);
        const LegIkHints hints{heel_offsets[leg].empty() ? nullptr : &heel_offsets[leg][f], foot_pitch[leg][f]};
        const LegIkResult r = solve_leg(clip, f, chain, result.toe_ws[leg][f], heights[leg][f], max_ext, settings, hints);
        report.unreached_frames[leg] += r.reached ? 0 : 1;
        report.max_miss_m[leg] = std::max(report.max_miss_m[leg], r.miss_m);
      }
    }
  }
  return report;
}

}  // namespace footfix
