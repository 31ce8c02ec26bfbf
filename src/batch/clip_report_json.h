// Internal (pipeline, the command line and tests): the JSON of a clip's report entry
// (batch/clip_report.h), the one serializer of the report, the manifest and the pages.
// Written keys are sorted (nlohmann's objects); a failed clip's entry holds input, status,
// exit_code, error and check; a cleaned or skipped one every field, time_s when set, notes when
// not empty, ground_velocity_mps, ground_offset_m and plot when present. Real numbers that are
// NaN are written as null and read back as NaN, so an entry read and written again keeps its
// bytes. The metrics object is also what `footfix metrics --json` prints.
#pragma once

#include <nlohmann/json.hpp>

#include "footfix/batch/clip_report.h"

namespace footfix {

nlohmann::json clip_report_to_json(const ClipReport& clip);
/// Never throws: see clip_report.h for what absent or mistyped fields read as.
ClipReport clip_report_from_json(const nlohmann::json& entry);

nlohmann::json metrics_to_json(const ClipMetrics& metrics);

/// The summary fields the pages read, and a whole report document ({"tool", "version",
/// "summary", "clips"}); a document that is not an object reads as one without clips.
ReportSummary report_summary_from_json(const nlohmann::json& summary);
/// A summary as the report writes it: the counts and the check where there are counts, then
/// complete, interrupted (where set), clips_done and clips_planned (where known).
nlohmann::json report_summary_to_json(const ReportSummary& summary);
ReportDocument report_document_from_json(const nlohmann::json& document);

}  // namespace footfix
