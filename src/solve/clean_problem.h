// The problem clean_clip hands to the offline solve and the leg IK, built from a clip and its
// contacts: for the clean's own stages, their tests and benchmarks (not installed).
#pragma once

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"
#include "footfix/ik/leg_ik.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/rig/leg_tracks.h"
#include "footfix/solve/offline_solve.h"
#include "offline_apply.h"

namespace footfix {

/// What clean_clip hands to the offline solve and to the leg IK: the pelvis and contact-joint
/// trajectories with contacts and per-contact heights, and per-frame minimum heights of each
/// leg's foot joints (inside a contact: the lowest each joint goes during it; between contacts:
/// the lower of the neighbouring contacts').
struct CleanProblem {
  OfflineSolveInput input;
  LegHeightTracks heights;
};
/// On noisy capture (contacts found on smoothed feet: ContactResult::denoise_sigma_s), the
/// paths the solve follows are smoothed: the pelvis (over the feet's planted frames more widely
/// than in flight) and each toe's path about its contacts (over the noise's sigma), so a locked
/// foot's onset and release do not shake by the noise.
/// `tracks`: the clip's leg_tracks for `rig` where the caller has them (the same result).
CleanProblem prepare_clean_problem(const Clip& clip, const Rig& rig, const ContactResult& contacts,
                                   const LegIkSettings& ik = {}, const LegTracks* tracks = nullptr);

/// The part of prepare_clean_problem's input that the clean's decisions read (a pinned root, a
/// treadmill): frame_count, fps, pelvis_ws, toe_ws (smoothed on noisy capture, as the solve
/// follows them) and contact. The other fields are left empty: complete_clean_problem fills them.
OfflineSolveInput clean_problem_paths(const Clip& clip, const Rig& rig, const ContactResult& contacts,
                                      const LegTracks* tracks = nullptr);

/// prepare_clean_problem from `paths` (clean_problem_paths of the same clip, contacts and
/// tracks), which are moved in rather than made again.
CleanProblem complete_clean_problem(const Clip& clip, const Rig& rig, const ContactResult& contacts,
                                    OfflineSolveInput paths, const LegIkSettings& ik = {},
                                    const LegTracks* tracks = nullptr);

}  // namespace footfix
