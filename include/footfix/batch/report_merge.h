// Merging clean reports (`footfix report merge`): the reports of the shards of one batch become
// the report a single run over the whole batch would have written, apart from timings. Reports
// are read into ClipReport entries and written back by the one serializer (clip_report.h), so a
// merged report has exactly the fields a report of this version has.
#pragma once

#include <string>
#include <vector>

#include "footfix/batch/clip_report.h"

namespace footfix {

struct NamedReport {
  std::string path;  ///< for messages
  ReportDocument document;
};

/// Reads a report file. Throws Error(read) naming the file when it is unreadable or not a
/// report (an object with a "clips" array whose entries each name their input).
NamedReport read_report(const std::string& path);

/// One report: the first report's tool and version, the clips of all, and their summaries
/// folded (counts added, the most severe exit code, "complete" only when all are, the check on
/// when any had it). The clips of several reports are sorted by input path (the order of a run
/// over one directory). Throws Error(usage) when a clip appears in two reports (overlapping
/// shards). Appends to `warnings` when the reports come from different footfix versions or
/// disagree on the check's threshold or the signal that stopped them (the first is kept).
ReportDocument merge_reports(const std::vector<NamedReport>& reports, std::vector<std::string>& warnings);

/// A report's text as `clean --report` writes it (JSON, two spaces a level, keys sorted).
std::string report_text(const ReportDocument& report);

}  // namespace footfix
