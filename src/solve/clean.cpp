#include "footfix/solve/clean.h"

#include <algorithm>
#include <cmath>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "footfix/solve/offline_apply.h"

namespace footfix {
namespace {

// A planted foot missing its target by less than this is not worth a warning: the slide left
// is under mocap noise.
constexpr double k_warn_miss_m = 0.01;
// Pelvis drops below this are ordinary compensation, not worth a warning.
constexpr double k_warn_pelvis_drop_m = 0.03;

void check_legs(const Rig& rig) {
  for (const auto& leg : rig.legs)
    if (!leg.valid()) fail(ErrorKind::process, "clean: the rig has no valid legs");
}

// Per-frame minimum heights of one leg's foot joints, from the input clip while planted: inside
// a contact interval the lowest each joint goes during it; between contacts the lower of the
// neighbouring contacts' values (so stairs keep their levels and feet never go below where the
// source put them when planted). Without any contact, the lowest height over the whole clip.
std::vector<LegHeights> planted_heights(const Clip& clip, const LegChain& leg, const FootContacts& foot) {
  const int frames = clip.frame_count;
  std::vector<Vec3> toe(frames), heel(frames), tip(frames);
  joint_trajectory(clip, leg.contact_joint(), toe);
  joint_trajectory(clip, leg.heel, heel);
  for (int f = 0; f < frames; ++f) tip[f] = foot_tip_world(clip, f, leg);

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
  size_t next = 0;
  for (int f = 0; f < frames; ++f) {
    while (next < foot.intervals.size() && foot.intervals[next].last_frame < f) ++next;
    if (next < foot.intervals.size() && foot.intervals[next].first_frame <= f) {
      out[f] = per_interval[next];
      continue;
    }
    const LegHeights* before = next > 0 ? &per_interval[next - 1] : nullptr;
    const LegHeights* after = next < per_interval.size() ? &per_interval[next] : nullptr;
    if (!before) before = after;
    if (!after) after = before;
    out[f] = {std::min(before->toe_min_m, after->toe_min_m), std::min(before->heel_min_m, after->heel_min_m),
              std::min(before->toe_end_min_m, after->toe_end_min_m)};
  }
  return out;
}

// Horizontal path length of a trajectory (meters).
double horizontal_travel(const std::vector<Vec3>& track) {
  double sum = 0;
  for (size_t f = 1; f < track.size(); ++f) sum += std::hypot(track[f].x - track[f - 1].x, track[f].z - track[f - 1].z);
  return sum;
}

}  // namespace

void CleanSettings::validate() const {
  contacts.validate();
  solve.validate();
  ik.validate();
}

CleanProblem prepare_clean_problem(const Clip& clip, const Rig& rig, const ContactResult& contacts) {
  CleanProblem problem;
  for (int s = 0; s < 2; ++s) problem.heights[s] = planted_heights(clip, rig.legs[s], contacts.feet[s]);
  OfflineSolveInput& input = problem.input;
  input = offline_input_from_clip(clip, rig.translation_joint, rig.legs);
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

CleanResult clean_clip(const Clip& clip, const Rig& rig, const CleanSettings& settings, const ContactResult* contacts) {
  settings.validate();
  check_legs(rig);
  if (clip.frame_count < 1) fail(ErrorKind::process, clip.source_name + ": clip has no frames");
  CleanResult result;
  result.contacts = contacts ? *contacts : detect_contacts(clip, rig, settings.contacts);
  for (const auto& w : result.contacts.warnings) result.warnings.push_back(w);

  CleanProblem problem = prepare_clean_problem(clip, rig, result.contacts);
  const LegHeightTracks& heights = problem.heights;
  // An in-place clip (no root motion, feet sliding back by design) is locked in world space
  // like any other: the body then walks forward of where it stood. Say so.
  double feet_travel = 0.5 * (horizontal_travel(problem.input.toe_ws[0]) + horizontal_travel(problem.input.toe_ws[1]));
  if (feet_travel > 0.2 && horizontal_travel(problem.input.pelvis_ws) < 0.3 * feet_travel)
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
  OfflineSolveResult solved = solve_offline(problem.input, settings.solve);
  result.solver_iterations = solved.iterations;
  // Pulling the hips down to keep locked feet reachable bends the knees ("dinosaur" look).
  double max_drop_m = 0;
  for (int f = 0; f < clip.frame_count; ++f)
    max_drop_m = std::max(max_drop_m, problem.input.pelvis_ws[f].y - solved.pelvis_ws[f].y);
  if (max_drop_m > k_warn_pelvis_drop_m)
    result.warnings.push_back("the pelvis was lowered by up to " + std::to_string(static_cast<int>(std::lround(max_drop_m * 100))) +
                              " cm to keep the planted feet reachable (check for over-bent knees)");

  result.cleaned = clip;
  OfflineApplyReport applied =
      apply_offline_solve(result.cleaned, rig.translation_joint, rig.legs, solved, heights, settings.ik);
  for (int s = 0; s < 2; ++s) {
    result.unreached_frames[s] = applied.unreached_frames[s];
    result.max_miss_m[s] = applied.max_miss_m[s];
  }
  // A miss matters only where the foot is planted (a swinging foot has no target to keep), and
  // only when it is large enough to be seen.
  for (int s = 0; s < 2; ++s) {
    const auto& contact = result.contacts.feet[s].contact;
    std::vector<Vec3> reached(static_cast<size_t>(clip.frame_count));
    joint_trajectory(result.cleaned, rig.legs[s].contact_joint(), reached);
    int missed = 0;
    double worst_m = 0;
    for (int f = 0; f < clip.frame_count; ++f) {
      if (!contact[f]) continue;
      double miss = length(reached[f] - solved.toe_ws[s][f]);
      if (miss > k_warn_miss_m) ++missed;
      worst_m = std::max(worst_m, miss);
    }
    if (worst_m > k_warn_miss_m)
      result.warnings.push_back(std::string(to_string(static_cast<Side>(s))) + " foot: planted target missed in " +
                                std::to_string(missed) + " planted frames, by up to " +
                                std::to_string(static_cast<int>(std::lround(worst_m * 1000))) +
                                " mm: the leg cannot reach it, so some sliding is left (check the leg joints with "
                                "`footfix inspect`, or name them with --rig)");
  }
  return result;
}

}  // namespace footfix
