// A clip whose first frame is a rest or reference pose (a T-pose or the skeleton's zero pose,
// kept as frame 0 by many BVH exporters) and whose motion only starts at frame 1: the legs jump
// from frame 0 into frame 1 by far more than they turn per frame after it. That frame is not
// motion: detect_contacts reports no contact on frame 0 (its contacts are those of frames 1..),
// and clean leaves it exactly as it is and cleans frames 1.. on their own. Without this, the
// jump reads as a planted foot's frame, a contact spans it, and the leg IK bends the reference
// pose towards that contact's lock (a pop, and a changed bind pose).
#pragma once

#include <string>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

/// Frame 0 -> 1 must turn a hip or knee joint by at least this (radians, 10 degrees)...
inline constexpr double k_reference_pose_min_jump_rad = 0.1745;
/// ...and by at least this many times both the turn from frame 1 to 2 (a motion under way goes
/// on) and the median per-frame turn over the next second of motion (the largest hip or knee
/// turn of each frame; the median, as one fast moment a clean may smooth away must not decide).
inline constexpr double k_reference_pose_jump_ratio = 5.0;

/// Whether frame 0 of `clip` is a pose the legs jump from into the motion (see the constants).
/// False for clips under 3 frames.
bool starts_with_reference_pose(const Clip& clip, const Rig& rig);

/// The note that the clip's frame 0 is such a pose, ending with `what_was_done` with it (it does
/// not name the clip: notes belong to the clip's result, and the CLI prefixes its path).
std::string reference_pose_note(const std::string& what_was_done);

/// Frames [1, frame_count) of `clip` (same skeleton, fps and source).
Clip without_first_frame(const Clip& clip);
/// The same on `clip` itself: frame 0 removed in place (the pose vectors keep their capacity).
void drop_first_frame(Clip& clip);

/// `contacts` of frames [1, n) as contacts of frames [0, n): frame 0 gets no contact (zero
/// signals), every interval moves on by one frame.
ContactResult with_reference_frame_prepended(const ContactResult& contacts);

}  // namespace footfix
