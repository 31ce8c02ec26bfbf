// Cleaning one clip from file to files: read it (load_clip), clean it (clean_clip), measure the
// sliding before and after (compare_frames; on a treadmill both clips in the ground's frame),
// write the cleaned clip and its contacts file beside it (put in place together, through a
// CommitGate where the caller has one: no clip is left without its contacts), and return the
// clip's report entry. The command line turns its options
// into CleanOneSettings, runs this per clip of a batch and prints what the entry holds.
#pragma once

#include <filesystem>

#include "footfix/io/clip_io.h"
#include "footfix/batch/clip_report.h"
#include "footfix/batch/commit_gate.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"

namespace footfix {

struct CleanOneSettings {
  ReadOptions read;
  SaveOptions save;  ///< how the clip is written (glTF: the contacts also go into the animation's extras)
  CleanSettings clean;
  /// The residual contact slide (p95, cm/s) a clip should stay under (--check's threshold): a
  /// clip over it whose planted feet missed their targets by 5-10 mm gets a warning saying so
  /// (larger misses are warned about by the clean itself).
  double max_slide_cm_s = 5.0;
  bool plot = false;  ///< make the report's plot series (ClipReport::plot)
};

/// Where one clip's outputs go.
struct CleanOneOutputs {
  std::filesystem::path clip;      ///< the cleaned clip (its format from the extension)
  std::filesystem::path contacts;  ///< the contacts file (contacts_json.h)
  /// Where set, the clip's files (written and synced first) are put in place through it, so that
  /// a batch's stop waits for them; a closed gate leaves them unwritten (Error(write)).
  CommitGate* gate = nullptr;
};

/// Cleans `input` into `outputs`. Returns its entry with status ok and every cleaned field set
/// (time_s: seconds from the read to the files in place; buffers: what save_clip returned);
/// input, exit_code and check are the caller's. Throws Error (read, process, write) as load_clip, clean_clip and the writers do.
ClipReport clean_one(const std::filesystem::path& input, const CleanOneOutputs& outputs, const CleanOneSettings& settings);

}  // namespace footfix
