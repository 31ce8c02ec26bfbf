// The CI-facing options of `clean`, kept apart from the cleaning itself: --shard (run one part of
// the batch), --incremental (skip clips whose input, settings and version are unchanged since
// the last run into the same output directory), --html (the visual report) and --junit (clips
// as test cases). `clean` calls the hooks below at fixed points of its run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli11_fwd.h"
#include "batch.h"
#include "clip_options.h"
#include "footfix/batch/clip_report.h"
#include "footfix/solve/clean.h"
#include "footfix/batch/incremental.h"
#include "footfix/batch/shard.h"

namespace footfix::cli {

class CleanPipeline {
 public:
  /// Adds --shard, --incremental, --html and --junit to `cmd`.
  void add_to(CLI::App& cmd);

  /// After planning: keeps this shard's items (all without --shard) and, with --incremental,
  /// opens the manifest of `output_dir` (which must be a directory -o) and records everything
  /// that decides a clip's outputs. Throws Error(usage) for bad options.
  void prepare(std::vector<BatchItem>& items, const std::vector<std::string>& inputs, const std::string& output_dir,
               const CleanSettings& settings, const ClipOptions& clip, const std::string& format);

  /// In the per-clip work (thread-safe): with --incremental, when the clip is unchanged since
  /// the last run and its outputs exist (a glTF output's buffer files too), replaces `report`
  /// with the recorded entry marked
  /// skipped (no time) and returns true.
  bool skip_unchanged(const BatchItem& item, std::size_t index, ClipReport& report);

  /// Whether finish() needs every clip's report entry (--incremental, --html, --junit). Without
  /// them a batch keeps no clip's entry once it is reported: its memory does not grow with it.
  bool needs_clip_records() const { return incremental_ || !html_path_.empty() || !junit_path_.empty(); }

  /// After the batch, with every clip's report entry (`report.clips`, by item): updates the
  /// manifest, writes the HTML page and the JUnit file when asked.
  void finish(const std::vector<BatchItem>& items, const ReportDocument& report, double max_slide_cm_s);

  /// On an interrupted batch, with --incremental: saves the manifest with the clips of `clips`
  /// (report entries by item, empty where not done) that finished, so that the same command
  /// resumes. Returns whether a manifest was saved.
  bool save_progress(const std::vector<BatchItem>& items, const std::vector<std::optional<ClipReport>>& clips);

  /// On an interrupted batch: writes the HTML page and the JUnit file (when asked) of the clips
  /// of `clips` that finished (report entries by item, empty where not done), marked incomplete
  /// by `summary`, and says so.
  void write_interrupted_pages(const std::vector<std::optional<ClipReport>>& clips, const ReportSummary& summary,
                               double max_slide_cm_s) const;

 private:
  /// Records clip `item`'s entry in the manifest: a cleaned one with its entry, a failed one
  /// erased, a skipped one left as it was.
  void record(const BatchItem& item, std::size_t index, const ClipReport& clip);

  std::string shard_text_, html_path_, junit_path_;
  bool incremental_ = false;
  std::string output_dir_;
  std::string settings_hash_;
  std::optional<Manifest> manifest_;
  std::vector<std::string> input_hashes_;  ///< per item, filled by skip_unchanged
};

/// Writes the HTML page and the JUnit XML of a report, each when its path is not empty.
void write_report_pages(const ReportDocument& report, const std::string& html_path, const std::string& junit_path,
                        double max_slide_cm_s);

}  // namespace footfix::cli
