// Internal (the clean batch): --incremental over one run. Opens the manifest of the output
// directory, skips a clip whose input, settings and version are unchanged and whose outputs are
// all there, and records each finished clip for the next run.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "footfix/batch/clip_report.h"
#include "footfix/batch/incremental.h"
#include "footfix/batch/plan_batch.h"
#include "footfix/solve/clean.h"

namespace footfix {

class IncrementalRun {
 public:
  /// Opens the manifest of `output_dir` for `item_count` items. `decided_by` is everything besides
  /// the clean settings and the input bytes that decides a clip's outputs. An output directory
  /// inside one of the input folders gets an empty manifest (a contributor could forge one
  /// there): every clip is redone; `notes` is told so, and why a manifest was not trusted.
  IncrementalRun(const std::string& output_dir, const std::vector<std::string>& inputs, const CleanSettings& settings,
                 const std::string& decided_by, std::size_t item_count, const PlanNotes& notes);

  /// Thread-safe for distinct indices: when clip `index` is unchanged since the last run and its
  /// outputs exist (a glTF output's buffer files too), returns the recorded entry marked skipped
  /// (no time), naming this item's input and output.
  std::optional<ClipReport> skip_unchanged(const BatchItem& item, std::size_t index);

  /// Records clip `index`'s entry: a cleaned one with its entry, a failed one erased, a skipped
  /// one left as it was.
  void record(const BatchItem& item, std::size_t index, const ClipReport& clip);

  /// Writes the manifest. Throws Error(write).
  void save() const { manifest_.save(); }

 private:
  std::string output_dir_;
  std::string settings_hash_;
  Manifest manifest_;
  std::vector<std::string> input_hashes_;  ///< per item, filled by skip_unchanged
};

}  // namespace footfix
