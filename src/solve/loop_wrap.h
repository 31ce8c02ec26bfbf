// Cyclic clips, the clean's side (see footfix/solve/loop.h): whether a clip is a loop, and the
// clip wrapped around its ends and cut back. Internal frame (meters, Y up). Not installed.
#pragma once

#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/solve/loop.h"

namespace footfix {

/// Largest local rotation difference (radians) of any joint between the first and last frame,
/// and largest root height / foot-relative-to-root difference (meters), for a match.
inline constexpr double k_loop_max_angle_rad = 0.02;
inline constexpr double k_loop_max_offset_m = 0.01;

/// Whether the last frame of `clip` repeats its first (see the constants). Clips under 8 frames
/// are never loops.
bool is_loop(const Clip& clip, const Rig& rig);

/// Horizontal world travel of the translation joint from the first to the last frame (m).
Vec3 loop_travel(const Clip& clip, const Rig& rig);

/// The clip with `pad` frames wrapped around each end (pad <= frame_count - 2): frame k of the
/// result is frame k - pad of the clip, continued cyclically with period frame_count - 1 and
/// the translation joint moved by -D before the start and +D after the end.
/// The result has no `source` (its frames are no longer the file's).
Clip wrap_loop(const Clip& clip, const Rig& rig, int pad);
/// The same, made from `clip` itself (handed over, left empty): its frames are moved within
/// their vectors, so there is no second copy of the clip, only of the 2 x pad wrapped frames.
Clip wrap_loop(Clip&& clip, const Rig& rig, int pad);

/// Keeps frames [first, first + count) of `clip` in place (0 <= first, first + count <=
/// frame_count): cuts a wrapped clip back.
void keep_frames(Clip& clip, int first, int count);

}  // namespace footfix
