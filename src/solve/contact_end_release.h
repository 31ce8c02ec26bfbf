// Internal to solve/: releasing the end frames of contacts that the leg cannot hold without
// lowering the pelvis too far, or that border a swing too short for the fast solve's locks.
#pragma once

#include <array>
#include <vector>

#include "footfix/contacts/detect_contacts.h"

namespace footfix {

/// On noisy capture (ContactResult::denoise_sigma_s > 0), how far into a contact from each end
/// (in the detection smoothing's sigmas) its frames are uncertain, and may be released.
constexpr double k_noisy_end_margin_sigmas = 2.0;

/// That margin in frames at `fps` (0 on clean capture).
int noisy_end_margin_frames(const ContactResult& contacts, double fps);

/// Holding a toe at a contact's first or last frames may need the pelvis lowered, because the
/// body has moved on: on noisy capture, whose contacts are found on smoothed positions, an end is
/// uncertain by about the smoothing's width (a contact may start before the foot lands or go on
/// after it lifts); on any clip whose steps are too long for its legs. For each contact of
/// `contacts`, releases its end frames where `needed_drop_m` (per foot and frame, m) exceeds
/// `max_drop_m`: at each end, every frame from the end inwards through the innermost frame
/// within `margin_frames` of it that exceeds it (an end frame the leg can hold goes with the
/// frames inside it that it cannot: the contact stays one run). A contact keeps at least its
/// middle frame. Updates each foot's per-frame flags and intervals (planted position and height are
/// kept: the middle of the contact found them). Returns whether any frame was released.
bool release_unreachable_contact_ends(ContactResult& contacts, const std::array<std::vector<double>, 2>& needed_drop_m,
                                      int margin_frames, double max_drop_m);

/// On noisy capture, a swing shorter than `min_swing_frames` between two contacts of a leg (the
/// fast solve's fast_short_swing_s in frames: it ramps the locks of both contacts from soft to
/// hard over that long, and a soft lock's toe follows the noisy input) is widened to that length
/// by releasing the end frames of the contacts on either side of it, alternately from the
/// earlier contact's last frame and the later one's first, at most `margin_frames` at each end
/// (their uncertain ends: noisy_end_margin_frames). A swing counts as short as the solve counts
/// it: the later contact's first frame less the earlier one's last below `min_swing_frames`. A
/// contact keeps at least its middle frame. Updates each foot's per-frame flags and intervals
/// (planted position and height kept, as release_unreachable_contact_ends does). Returns
/// whether any frame was released.
bool release_short_swing_ends(ContactResult& contacts, double min_swing_frames, int margin_frames);

}  // namespace footfix
