// The motion the HTML report's player draws (report_player.h of the command line), kept compact enough for pages of
// hundreds of clips. Stored in each clip's --report entry as plot.motion:
//   {"fps": samples per second (at most 30), "step": source frames per sample (sample i is
//    frame i * step), "samples", "mm": the quantum in millimetres,
//    "parents": per drawn joint, the index of its parent among the drawn joints (-1: none),
//    "feet": [left, right] (the drawn joint of each leg's contact joint),
//    "source": the drawn joints' positions in the source clip (encoded, see below),
//    "moved": the drawn joints with an offset of their own, "cleaned": those offsets of the
//    cleaned clip from the source (encoded the same way); every other joint is offset as its
//    parent is (within a quantum: it rode along, as the upper body on a lowered pelvis), the
//    root not at all}.
// The drawn joints: every joint, less those within 1 cm of their parent (merged into it) and,
// while more than k_motion_joints remain, the shortest end bones (fingers, end joints); the legs'
// joints, the pelvis and the root-motion joint are always drawn. Positions are meters in the
// internal frame (Y up), the source moved as the clean moved the cleaned clip onto the ground.
// Encoding: integers in quanta, joint by joint, axis by axis (x, y, z), each series predicted
// from its two previous values (2a - b) and the residuals zigzag-varint coded, then base64:
// about 1.2 bytes per coordinate for human motion.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/batch/clip_report.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

inline constexpr int k_motion_joints = 24;
inline constexpr double k_motion_max_fps = 30.0;
inline constexpr int k_motion_max_samples = 3600;
inline constexpr double k_motion_quantum_m = 0.001;

/// The drawn joints of a skeleton and their sampled positions.
struct MotionSamples {
  int step = 1, samples = 0;
  double fps = 0;
  std::vector<int> joints;   ///< skeleton joint of each drawn joint
  std::vector<int> parents;  ///< per drawn joint, its parent's index in `joints`, -1 for none
  std::vector<Vec3> positions;  ///< samples x joints, sample-major
};

/// Chooses the drawn joints of `clip` (see above) and samples their positions.
MotionSamples sample_motion(const Clip& clip, const Rig& rig);

/// The same joints and samples, positions read from `clip` (the cleaned clip, same skeleton).
std::vector<Vec3> sample_positions(const Clip& clip, const MotionSamples& layout);

/// plot.motion from the source samples and the cleaned clip's; `source_lift_m` is added to the
/// source's heights (the clean's ground offset).
MotionPlot motion_plot(const MotionSamples& source, const std::vector<Vec3>& cleaned, const Rig& rig,
                           double source_lift_m);

/// The encoding above, of `series` (one after another, each `length` long), as bytes.
std::string encode_series(const std::vector<std::int64_t>& values, int length);
std::string base64(const std::string& bytes);

}  // namespace footfix
