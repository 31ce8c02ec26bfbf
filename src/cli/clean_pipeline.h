// The CI-facing options of `clean`, kept apart from the cleaning itself: --shard (run one part of
// the batch), --incremental (skip clips whose input, settings and version are unchanged since
// the last run into the same output directory), --html (the visual report) and --junit (clips
// as test cases). They become settings of the library's batch (footfix/batch/clean_batch.h);
// the pages are written here from its report.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli11_fwd.h"
#include "clip_options.h"
#include "footfix/batch/clean_batch.h"
#include "footfix/batch/clip_report.h"

namespace footfix::cli {

class CleanPipeline {
 public:
  /// Adds --shard, --incremental, --html and --junit to `cmd`.
  void add_to(CLI::App& cmd);

  /// After planning: keeps this shard's items (all without --shard) and says how many.
  void select_shard(std::vector<BatchItem>& items, const std::vector<std::string>& inputs) const;

  /// With --incremental, what the batch needs to skip unchanged clips: `output_dir` (which must
  /// be a directory -o; Error(usage) otherwise) and everything besides the settings that decides
  /// a clip's outputs. None without --incremental.
  std::optional<IncrementalSettings> incremental(const std::vector<std::string>& inputs, const std::string& output_dir,
                                                 const ClipOptions& clip, const std::string& format) const;

  /// Whether a page (--html, --junit) needs every clip's report entry.
  bool wants_pages() const { return !html_path_.empty() || !junit_path_.empty(); }

  /// Writes the HTML page and the JUnit file, each when asked.
  void write_pages(const ReportDocument& report, double max_slide_cm_s) const;

  /// On an interrupted batch: writes the pages (when asked) of the clips that finished, marked
  /// incomplete by the report's summary, and says so.
  void write_interrupted_pages(const ReportDocument& report, double max_slide_cm_s) const;

 private:
  std::string shard_text_, html_path_, junit_path_;
  bool incremental_ = false;
};

/// Writes the HTML page and the JUnit XML of a report, each when its path is not empty.
void write_report_pages(const ReportDocument& report, const std::string& html_path, const std::string& junit_path,
                        double max_slide_cm_s);

}  // namespace footfix::cli
