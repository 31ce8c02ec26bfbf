#include "report_merge.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "footfix/core/error.h"
#include "footfix/io/atomic_file.h"
#include "report_fields.h"

namespace footfix::cli {
using nlohmann::json;

NamedReport read_report(const std::string& path) {
  std::string text = read_file(path);
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) fail(ErrorKind::read, path + ": not valid JSON");
  const json* clips = field_at(doc, {"clips"});
  if (clips == nullptr || !clips->is_array()) fail(ErrorKind::read, path + ": not a footfix report (no \"clips\" array)");
  for (const auto& clip : *clips)
    if (!clip.is_object() || text_at(clip, {"input"}).empty())
      fail(ErrorKind::read, path + ": a clip entry without \"input\"");
  return {path, std::move(doc)};
}

json merge_reports(const std::vector<NamedReport>& reports, std::vector<std::string>& warnings) {
  if (reports.empty()) fail(ErrorKind::usage, "no report to merge");
  if (reports.size() == 1) return reports.front().document;
  json merged = reports.front().document;
  json clips = json::array();
  std::map<std::string, std::string> seen;  // input -> report it came from
  const std::string version = text_at(merged, {"version"});
  for (const auto& report : reports) {
    if (text_at(report.document, {"version"}) != version)
      warnings.push_back(report.path + " was written by footfix " + text_at(report.document, {"version"}) + ", " +
                         reports.front().path + " by " + version);
    for (const auto& clip : report.document.at("clips")) {
      std::string input = text_at(clip, {"input"});
      auto [it, inserted] = seen.emplace(input, report.path);
      if (!inserted)
        fail(ErrorKind::usage, input + " is in both " + it->second + " and " + report.path + " (overlapping shards?)");
      clips.push_back(clip);
    }
  }
  std::stable_sort(clips.begin(), clips.end(), [](const json& a, const json& b) {
    return std::filesystem::path(text_at(a, {"input"})) < std::filesystem::path(text_at(b, {"input"}));
  });
  merged["clips"] = std::move(clips);
  return merged;
}

}  // namespace footfix::cli
