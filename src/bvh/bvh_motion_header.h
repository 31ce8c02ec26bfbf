// Internal to bvh/: the motion header, the lines between MOTION and the first motion row.
#pragma once

#include <limits>
#include <string>
#include <string_view>

#include "bvh_text.h"

namespace footfix::bvh_detail {

struct MotionHeader {
  int frames = 0;                 ///< as stated (0 included); k_frames_not_stated: no count stated
  int frames_at = 0;              ///< line of the "Frames:" line (0: none)
  double frame_time_s = 0;
  int frame_time_missing_at = 0;  ///< line of the first row where no "Frame Time:" came (0: it did)
  /// Line of a "Frames:" whose value is no number (a writer's placeholder never filled in, such as
  /// "Frames: PLATZHALTERFRAMES"); 0 if none. Every row is then read (frames is
  /// k_frames_not_stated).
  int frames_not_a_number_at = 0;
  std::string frames_not_a_number;  ///< that value, as written
  /// Whether the header is spelt as the writer spells it ("Frames:" then "Frame Time:", any
  /// case): only then is its text written back as read.
  bool as_written = true;
};

/// MotionHeader::frames of a header with no Frames line: the rows present decide.
inline constexpr int k_frames_not_stated = std::numeric_limits<int>::max();

/// The frame time assumed where a file states none, as video tools most often capture.
inline constexpr double k_assumed_frame_time_s = 1.0 / 30;

/// Reads the lines between MOTION and the first row, in either order, each at most once, as
/// writers spell them ("Frames" and "Frame Time" in any case and spacing, then ':', '=' or
/// nothing; Blender's importer splits them into words). Every complete row is read whatever the
/// count says (the reader warns where they disagree); a "Frames" value that is no number at all
/// counts as no count (frames_not_a_number_at);
/// with no "Frame Time" line (Blender reads such files at the scene's rate) the rows are read at
/// k_assumed_frame_time_s, which frame_time_missing_at records. Leaves `in` at the first row.
/// Throws Error(read) with the line for an unknown, repeated or malformed line.
MotionHeader read_motion_header(BvhCursor& in);

/// Whether `text` (a file's first bytes) holds the motion header whole: MOTION, then a line that
/// starts like a row.
bool holds_motion_header(std::string_view text);

}  // namespace footfix::bvh_detail
