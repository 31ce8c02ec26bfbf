#include "clean_pass.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "footfix/core/error.h"
#include "footfix/core/math.h"
#include "clean_stages.h"
#include "guard_pops.h"
#include "contact_end_release.h"
#include "offline_apply.h"

namespace footfix {
namespace {

// An in-place clip is suspected (a warning) when the feet travel at least
// k_in_place_min_feet_travel_m horizontally (mean of both) while the root travels less than
// k_in_place_root_travel_share of that.
constexpr double k_in_place_min_feet_travel_m = 0.2;
constexpr double k_in_place_root_travel_share = 0.3;
// On noisy capture (contact detection smoothed the feet: ContactResult::denoise_sigma_s) the
// solve's soft terms follow the input's shaking velocities, which pull planted toes by a share
// of the noise (0.2 mm a frame for 2 cm of noise at 120 Hz: a planted foot that shakes at 2-5
// cm/s). Locks this much stiffer (a factor on fast_hard_scale) keep them still.
constexpr double k_noisy_capture_lock_stiffening = 100;
// On noisy capture, the least time (s) over which a lock's correction is blended into the swing
// on each side of a contact (OfflineSolveSettings::swing_blend_s). Contacts found on smoothed
// positions may start or end a few frames off the true ones; a toe still on the ground there
// then follows the lock's correction rather than the slide.
constexpr double k_noisy_capture_swing_blend_s = 0.25;
// On noisy capture, the pelvis drop (m) below the height of the path the solve follows that
// holding the toe at a contact's uncertain end frames (noisy_end_margin_frames) may need at most
// (release_unreachable_contact_ends).
constexpr double k_noisy_end_max_drop_m = 0.01;
// The most times the clip is solved again after releasing contact end frames.
constexpr int k_release_rounds = 3;
// How far (m) the solve and the reach step together may lower the pelvis below its input height
// before the contact end frames that need it are released, on any clip: lowered hips bend the
// knees ("dinosaur"). Taken on the reach step's plan (lower_pelvis_to_reach), before the leg IK
// and the pop guard; the issue bounds the output's drop at 2 cm.
constexpr double k_pelvis_drop_budget_m = 0.0205;
// How far into a contact from each end (s) such frames may be released.
constexpr double k_drop_release_margin_s = 0.1;

/// Per leg and frame: where that leg's planted target needs the pelvis lowered to be reached,
/// how far below its input height the solve and the reach step (lower_pelvis_to_reach, on a
/// copy of `solved`) together leave it (m); 0 elsewhere. All 0 (without the reach step's run)
/// where no frame can exceed `budget_m`: the solve's drop plus the drop needed before the reach
/// step's horizontal shift, which only lowers it, is an upper bound.
std::array<std::vector<double>, 2> pelvis_drops_for_planted_targets(const Clip& clip, const Rig& rig,
                                                                    const OfflineSolveInput& input, const LegIkSettings& ik,
                                                                    const OfflineSolveResult& solved, double budget_m,
                                                                    const LegTracks* tracks) {
  std::array<std::vector<double>, 2> drops =
      reach_drops_needed(clip, rig.translation_joint, rig.legs, input.contact, ik, solved, tracks);
  auto solve_drop = [&](size_t f) { return input.pelvis_ws[f].y - solved.pelvis_ws[f].y; };
  bool over = false;
  for (const std::vector<double>& leg : drops)
    for (size_t f = 0; f < leg.size() && !over; ++f) over = leg[f] > 0 && solve_drop(f) + leg[f] > budget_m;
  if (!over) {
    for (std::vector<double>& leg : drops) std::fill(leg.begin(), leg.end(), 0.0);
    return drops;
  }
  OfflineSolveResult reached = solved;
  lower_pelvis_to_reach(clip, rig.translation_joint, rig.legs, input.contact, ik, reached, true, tracks);
  for (std::vector<double>& leg : drops)
    for (size_t f = 0; f < leg.size(); ++f) leg[f] = leg[f] > 0 ? input.pelvis_ws[f].y - reached.pelvis_ws[f].y : 0;
  return drops;
}

/// `solved`'s pelvis raised back to the height of the path the solve followed (`input`'s pelvis)
/// wherever the solve lowered it; where the solve put it horizontally is kept.
void raise_to_input_height(OfflineSolveResult& solved, const OfflineSolveInput& input) {
  for (size_t f = 0; f < solved.pelvis_ws.size() && f < input.pelvis_ws.size(); ++f)
    solved.pelvis_ws[f].y = std::max(solved.pelvis_ws[f].y, input.pelvis_ws[f].y);
}

/// Per leg and frame: the least drop below the height of the path the solve followed that brings
/// that leg's planted target within reach (reach_drops_needed with `solved`'s pelvis raised to
/// that height, as raise_to_input_height raises it): the solve's own lowering counts as part of
/// the cost.
std::array<std::vector<double>, 2> drops_below_input_height(const Clip& clip, const Rig& rig, const OfflineSolveInput& input,
                                                            const LegIkSettings& ik, const OfflineSolveResult& solved,
                                                            const LegTracks* tracks) {
  return reach_drops_needed(clip, rig.translation_joint, rig.legs, input.contact, ik, solved, tracks, &input.pelvis_ws);
}

OfflineSolveSettings solve_settings_for(const OfflineSolveSettings& settings, const ContactResult& contacts) {
  OfflineSolveSettings out = settings;
  if (contacts.denoise_sigma_s > 0) {
    out.fast_hard_scale *= k_noisy_capture_lock_stiffening;
    out.swing_blend_s = std::max(out.swing_blend_s, k_noisy_capture_swing_blend_s);
  }
  return out;
}

OfflineSolveResult solve_clean_problem(const Clip& clip, const OfflineSolveInput& input,
                                       const OfflineSolveSettings& settings, const ContactResult& contacts) {
  try {
    return solve_offline(input, solve_settings_for(settings, contacts));
  } catch (const Error& e) {
    fail(e.kind(), clip.source_name + ": " + e.what());
  }
}

// Horizontal path length of a trajectory (meters).
double horizontal_travel(const std::vector<Vec3>& track) {
  double sum = 0;
  for (size_t f = 1; f < track.size(); ++f) sum += std::hypot(track[f].x - track[f - 1].x, track[f].z - track[f - 1].z);
  return sum;
}

// Warnings about the clip itself, before it is solved: a root that barely travels while the
// feet do (an in-place clip locked in world space: the body then walks forward of where it
// stood), and one foot planted in every frame while the other moves (both planted throughout,
// a bow or a wave, is an ordinary standing clip).
void warn_about_clip_motion(CleanResult& result, const Clip& clip, const OfflineSolveInput& input) {
  const double feet_travel = 0.5 * (horizontal_travel(input.toe_ws[0]) + horizontal_travel(input.toe_ws[1]));
  if (feet_travel > k_in_place_min_feet_travel_m &&
      horizontal_travel(input.pelvis_ws) < k_in_place_root_travel_share * feet_travel)
    result.warnings.push_back("the root barely travels while the feet do: an in-place clip? Locking its feet moves the body");
  std::array<bool, 2> always_planted{};
  for (int s = 0; s < 2; ++s) {
    const auto& c = result.contacts.feet[s].contact;
    always_planted[s] = clip.frame_count > 1 && std::all_of(c.begin(), c.end(), [](std::uint8_t v) { return v != 0; });
  }
  for (int s = 0; s < 2; ++s)
    if (always_planted[s] && !always_planted[1 - s])
      result.warnings.push_back(std::string(to_string(static_cast<Side>(s))) +
                                " foot is planted in every frame: it is held in one place for the whole clip");
}

}  // namespace

CleanAnalysis analyse_for_plan(const Clip& clip, const Rig& rig, const CleanSettings& settings,
                               const ContactResult* given) {
  CleanAnalysis a;
  a.tracked = clip.frame_count <= k_tracked_frames_max;
  if (a.tracked) a.tracks = leg_tracks(clip, rig);
  a.contacts = given ? *given : detect_contacts(clip, rig, settings.contacts, a.tracks_or_null());
  // The reach-limited solve keeps targets within the leg; the IK's soft limit then ends at the
  // straight leg (see offline_input_from_clip).
  a.ik = settings.ik;
  a.ik.reach_to_straight = settings.solve.fast_reach_weight > 0 && settings.solve.solver == OfflineSolver::fast;
  // On noisy capture every decision and the solve read the smoothed paths the problem holds: a
  // contact's raw ends shake by the noise, and their shaking alone can read as a treadmill's speed.
  a.problem.input = clean_problem_paths(clip, rig, a.contacts, a.tracks_or_null());
  return a;
}

void complete_analysis(CleanAnalysis& analysis, const Clip& clip, const Rig& rig) {
  analysis.problem = complete_clean_problem(clip, rig, analysis.contacts, std::move(analysis.problem.input), analysis.ik,
                                            analysis.tracks_or_null());
}

CleanResult clean_in_solve_frame(const Clip& clip, Clip* owned, const Rig& rig, const CleanSettings& settings,
                                 CleanAnalysis& analysis) {
  CleanResult result;
  const LegTracks* const tracked = analysis.tracks_or_null();
  result.contacts = std::move(analysis.contacts);
  for (const auto& w : result.contacts.warnings) result.warnings.push_back(w);
  const LegIkSettings& ik = analysis.ik;
  CleanProblem& problem = analysis.problem;
  warn_about_clip_motion(result, clip, problem.input);

  const bool noisy = result.contacts.denoise_sigma_s > 0;
  // On noisy capture a swing shorter than fast_short_swing_s is widened into the contacts'
  // uncertain ends: the fast solve would ramp both contacts' locks over it, and a toe under a
  // soft lock follows the input's shaking.
  if (noisy && settings.solve.solver == OfflineSolver::fast &&
      release_short_swing_ends(result.contacts, settings.solve.fast_short_swing_s * clip.fps,
                               noisy_end_margin_frames(result.contacts, clip.fps)))
    problem = prepare_clean_problem(clip, rig, result.contacts, ik, tracked);
  OfflineSolveResult solved = solve_clean_problem(clip, problem.input, settings.solve, result.contacts);
  const bool lowers_pelvis = settings.solve.fast_pelvis_height > 0 && !ik.reach_to_straight;
  // Releases contact end frames with `release` (given the solve's result; true if it released
  // any) and solves the clip again, until nothing more is released. Each solve moves the pelvis,
  // and with it what the next finds out of reach: a few rounds.
  auto release_and_solve_again = [&](auto release) {
    for (int round = 0; lowers_pelvis && round < k_release_rounds && release(solved); ++round) {
      problem = prepare_clean_problem(clip, rig, result.contacts, ik, tracked);
      solved = solve_clean_problem(clip, problem.input, settings.solve, result.contacts);
    }
  };
  // On noisy capture a contact's ends are uncertain; those the leg cannot hold without lowering
  // the pelvis below the path it follows are released (the reach step below lowers it from there).
  if (noisy)
    release_and_solve_again([&](const OfflineSolveResult& s) {
      return release_unreachable_contact_ends(result.contacts, drops_below_input_height(clip, rig, problem.input, ik, s, tracked),
                                              noisy_end_margin_frames(result.contacts, clip.fps), k_noisy_end_max_drop_m);
    });
  // On any clip, the end frames whose planted targets would need the pelvis lowered past
  // k_pelvis_drop_budget_m in all are released (by the fast solve, whose pelvis height pull keeps
  // the hips up; the reference solve lowers them as the pelvis-toe distances ask).
  if (settings.solve.solver == OfflineSolver::fast)
    release_and_solve_again([&](const OfflineSolveResult& s) {
      return release_unreachable_contact_ends(
          result.contacts, pelvis_drops_for_planted_targets(clip, rig, problem.input, ik, s, k_pelvis_drop_budget_m, tracked),
          static_cast<int>(std::ceil(k_drop_release_margin_s * clip.fps)), k_pelvis_drop_budget_m);
    });
  result.solver_iterations = solved.iterations;
  if (!solved.converged)
    result.warnings.push_back("the offline solve did not converge in " +
                              std::to_string(solved.iterations) + " steps (last change " +
                              std::to_string(solved.final_change_m * 1000) + " mm): the result may keep some sliding");
  if (settings.smooth_swing)
    smooth_swing_targets(solved, problem.input.contact, result.contacts.denoise_sigma_s, clip.fps);
  // On noisy capture the path the pelvis follows is itself off the true one by what its smoothing
  // leaves of the noise, so the clean adds only the least drop the planted legs need: the solve's
  // pelvis height keeps the input's pelvis-toe distances, which carry that noise too and lower the
  // hips further. The pelvis goes back to the path's height, and the reach step lowers it from
  // there.
  if (noisy && lowers_pelvis) raise_to_input_height(solved, problem.input);
  // Where the solve kept the pelvis up (fast_pelvis_height) and a planted target is then beyond
  // the leg, the pelvis comes down; the reach-limited solve keeps its targets within reach itself.
  reach_planted_targets(clip, rig, problem.input, ik, lowers_pelvis, solved, result.warnings, tracked);

  problem.input = OfflineSolveInput{};  // no longer needed: its memory goes before the output clip's
  const PopGuardSource pop_source = capture_pop_guard_source(clip, rig, settings.pops, tracked);
  if (owned)
    result.cleaned = std::move(*owned);  // `clip` is empty from here on
  else
    result.cleaned = clip;
  apply_solve_to_legs(result, rig, solved, problem.heights, ik, tracked);
  // From here on, the cleaned legs' positions: read by the planted misses and the pop guard.
  if (tracked) analysis.tracks = leg_tracks(result.cleaned, rig);
  report_planted_misses(result, rig, solved.toe_ws, tracked);
  guard_cleaned_pops(result, rig, pop_source, settings.pops, tracked);
  return result;
}

}  // namespace footfix
