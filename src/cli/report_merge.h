// Merging clean reports (`footfix report merge`): the reports of the shards of one batch become
// the report a single run over the whole batch would have written, apart from timings.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace footfix::cli {

struct NamedReport {
  std::string path;  ///< for messages
  nlohmann::json document;
};

/// Reads a report file. Throws Error(read) naming the file when it is unreadable or not a
/// report (an object with a "clips" array).
NamedReport read_report(const std::string& path);

/// One report: the first document's top-level fields, the clips of all, and their "summary"
/// objects folded (counts added, the most severe exit code, "complete" only when all are). A
/// single report is returned as is; the clips of several are sorted by input path (the order of
/// a run over one directory). Throws Error(usage) when a clip appears in two reports
/// (overlapping shards).
/// Appends to `warnings` when the reports come from different footfix versions.
nlohmann::json merge_reports(const std::vector<NamedReport>& reports, std::vector<std::string>& warnings);

}  // namespace footfix::cli
