// Cyclic clips (loops): a clip whose last frame repeats its first (the pose, with the root
// possibly moved on by one cycle's travel D) keeps that match after clean. The clip is cleaned
// with up to a second of itself wrapped around each end (before: its tail moved back by D;
// after: its head moved on by D), so contacts, the solve and the feet see one continuous
// motion across the seam; the middle is kept and the last frame's legs and root height are set
// to the first frame's, as in the source (the root's travel over the cycle is the cleaned one).
// Internal frame (meters, Y up).
#pragma once

namespace footfix {

enum class LoopMode {
  auto_detect,  ///< wrap when the first and last frames match (default)
  on,           ///< always treat the clip as a cycle
  off,          ///< never
};

}  // namespace footfix
