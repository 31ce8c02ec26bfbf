// The clean's one pass, on the clip in the frame the solve runs in (clean_plan.h moves it
// there): contacts, the clean problem, the offline solve, and the stages after it
// (clean_stages.h). For the clean; not installed. Internal frame (meters, Y up).
#pragma once

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"
#include "footfix/ik/leg_ik.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/rig/leg_tracks.h"
#include "footfix/solve/clean.h"
#include "clean_problem.h"

namespace footfix {

/// What the clean reads of a clip before solving it: the legs' positions, the contacts, and the
/// problem the solve is handed (on noisy capture, with the paths the solve follows smoothed:
/// follow_noisy_capture). The plan decides the clip's mode from it (a pinned root, a treadmill);
/// the pass then solves the clip it was made of.
struct CleanAnalysis {
  /// Whether `tracks` holds the clip's leg positions (clips up to k_tracked_frames_max frames:
  /// longer ones have each stage compute its own, so their peak memory stays near the clip's).
  bool tracked = false;
  LegTracks tracks;
  ContactResult contacts;
  LegIkSettings ik;  ///< the settings' IK, with the solve's reach limit
  CleanProblem problem;
  const LegTracks* tracks_or_null() const { return tracked ? &tracks : nullptr; }
};

/// Clips of up to this many frames have their legs' positions computed once for all the clean's
/// stages (leg_tracks, about 290 bytes a frame, twice: the source's, then the cleaned clip's);
/// 20,000 frames (2.8 minutes at 120 Hz) is 6 MiB of tracks at most.
inline constexpr int k_tracked_frames_max = 20000;

/// What the plan decides the clip's mode from: the analysis of `clip` under `settings` with only
/// the paths of its problem (clean_problem_paths: problem.input's pelvis, toes and contacts;
/// problem.heights empty). `given`: contacts to lock instead of detecting them.
CleanAnalysis analyse_for_plan(const Clip& clip, const Rig& rig, const CleanSettings& settings,
                               const ContactResult* given);

/// The whole analysis (clean_in_solve_frame's input) from analyse_for_plan's of the same `clip`:
/// the rest of its problem made (complete_clean_problem).
void complete_analysis(CleanAnalysis& analysis, const Clip& clip, const Rig& rig);

/// The clean of `clip` (with `analysis`, made of it by analyse_for_plan and complete_analysis
/// under the same settings) in the frame it stands in: warnings about the clip, the offline solve (solved again
/// without the unreachable ends of contacts on noisy capture), then swing smoothing, reach, IK,
/// the planted-miss report and the pop guard. With `owned` (= &clip, handed over) the cleaned
/// clip is made from it in place; `clip` is then left empty. The analysis is used up.
CleanResult clean_in_solve_frame(const Clip& clip, Clip* owned, const Rig& rig, const CleanSettings& settings,
                                 CleanAnalysis& analysis);

}  // namespace footfix
