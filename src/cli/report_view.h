// What the report pages show of a clean report, decided once for the page: each clip's verdict
// (its run and its --check), the order a reviewer reads the clips in (failures first), the check
// threshold, whether the run finished, and the folders paths are shown relative to.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "footfix/batch/clip_report.h"

namespace footfix::cli {

enum class Verdict { failed, check_failed, ok, skipped };

/// A clip's verdict: "failed" (its run failed, or no status), "check failed" (cleaned or skipped,
/// but over the --check threshold), "ok" or "skipped" (unchanged, --incremental).
Verdict verdict_of(const ClipReport& clip);
/// "failed", "check failed", "ok", "skipped".
const char* verdict_label(Verdict verdict);
/// A CSS class name for the verdict ("failed", "check-failed", "ok", "skipped").
const char* verdict_class(Verdict verdict);

struct ReportView {
  std::vector<std::size_t> order;  ///< run failures, check failures, then by residual slide, worst first
  ReportSummary summary;           ///< the --check threshold, and whether the run finished
  std::string input_root, output_root;  ///< the folders every input (output) lies in, "" if none
};

ReportView report_view(const ReportDocument& report);

/// For a report of a run that did not finish, "incomplete: the run was interrupted by SIGTERM
/// after 1 of 3 clips" (or "stopped", when no signal is recorded: killed, or still running);
/// "" for a complete one.
std::string incomplete_note(const ReportView& view, std::size_t clips_done);

/// `path` relative to `root` (a folder `path` lies in, as given), or `path` itself when `root`
/// is empty.
std::string relative_to(const std::string& path, const std::string& root);

/// The clip's error message, its leading input path (as errors name the file) made relative to
/// `view.input_root`; "" when there is no error.
std::string error_of(const ClipReport& clip, const ReportView& view);

}  // namespace footfix::cli
