#include "footfix/batch/report_merge.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "../core/json_text.h"
#include "batch/clip_report_json.h"
#include "batch/report_fields.h"
#include "batch/untrusted_json.h"
#include "footfix/batch/exit_codes.h"
#include "footfix/core/error.h"
#include "footfix/core/read_file.h"

namespace footfix {
using nlohmann::json;

namespace {

/// Adds `from` to a count that is absent (-1) in either.
long long add_known(long long into, long long from) {
  if (from < 0) return into;
  return into < 0 ? from : into + from;
}

/// Keeps the first of two values that must agree, with a warning naming the later report when
/// they do not.
template <class T>
void keep_agreed(T& kept, const T& value, const char* key, const std::string& where, std::vector<std::string>& warnings) {
  if (kept != value)
    warnings.push_back(where + ": summary." + key + " " + json(value).dump() + " differs from " + json(kept).dump() +
                       " (kept)");
}

/// Folds a shard's summary into the batch's (`first`: the first shard's, taken as it is).
void fold_summary(ReportSummary& into, const ReportSummary& from, bool first, const std::string& where,
                  std::vector<std::string>& warnings) {
  if (first) {
    into = from;
    return;
  }
  into.complete = into.complete && from.complete;
  if (into.interrupted.empty()) into.interrupted = from.interrupted;
  else if (!from.interrupted.empty()) keep_agreed(into.interrupted, from.interrupted, "interrupted", where, warnings);
  into.clips_done = add_known(into.clips_done, from.clips_done);
  into.clips_planned = add_known(into.clips_planned, from.clips_planned);
  if (!from.counts) return;
  if (!into.counts) {
    into.counts = from.counts;
    into.check = from.check;
    into.max_slide_cm_s = from.max_slide_cm_s;
    return;
  }
  RunCounts& c = *into.counts;
  c.clips += from.counts->clips;
  c.ok += from.counts->ok;
  c.failed += from.counts->failed;
  c.exit_code = most_severe_exit_code(c.exit_code, from.counts->exit_code);
  c.check_passed += from.counts->check_passed;
  c.check_failed += from.counts->check_failed;
  into.check = into.check || from.check;
  keep_agreed(into.max_slide_cm_s, from.max_slide_cm_s, "max_slide_cm_s", where, warnings);
}

}  // namespace

NamedReport read_report(const std::string& path) {
  std::string text = read_file(path);
  json doc = parse_untrusted_json(text, path, ErrorKind::read);
  const json* clips = field_at(doc, {"clips"});
  if (clips == nullptr || !clips->is_array()) fail(ErrorKind::read, path + ": not a footfix report (no \"clips\" array)");
  for (const auto& clip : *clips)
    if (!clip.is_object() || text_at(clip, {"input"}).empty())
      fail(ErrorKind::read, path + ": a clip entry without \"input\"");
  return {path, report_document_from_json(doc)};
}

ReportDocument merge_reports(const std::vector<NamedReport>& reports, std::vector<std::string>& warnings) {
  if (reports.empty()) fail(ErrorKind::usage, "no report to merge");
  if (reports.size() == 1) return reports.front().document;
  ReportDocument merged{reports.front().document.tool, reports.front().document.version, {}, {}};
  std::map<std::string, std::string> seen;  // input -> report it came from
  for (const auto& report : reports) {
    fold_summary(merged.summary, report.document.summary, &report == &reports.front(), report.path, warnings);
    if (report.document.version != merged.version)
      warnings.push_back(report.path + " was written by footfix " + report.document.version + ", " +
                         reports.front().path + " by " + merged.version);
    for (const ClipReport& clip : report.document.clips) {
      auto [it, inserted] = seen.emplace(clip.input, report.path);
      if (!inserted)
        fail(ErrorKind::usage, clip.input + " is in both " + it->second + " and " + report.path + " (overlapping shards?)");
      merged.clips.push_back(clip);
    }
  }
  std::stable_sort(merged.clips.begin(), merged.clips.end(), [](const ClipReport& a, const ClipReport& b) {
    return std::filesystem::path(a.input) < std::filesystem::path(b.input);
  });
  return merged;
}

std::string report_text(const ReportDocument& report) {
  json document = json::object();
  json& clips = document["clips"] = json::array();
  for (const ClipReport& clip : report.clips) clips.push_back(clip_report_to_json(clip));
  document["summary"] = report_summary_to_json(report.summary);
  document["tool"] = report.tool;
  document["version"] = report.version;
  return json_text(document, 2) + "\n";
}

}  // namespace footfix
