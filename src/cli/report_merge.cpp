#include "report_merge.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "footfix/core/error.h"
#include "footfix/files/atomic_file.h"
#include "batch/report_fields.h"
#include "batch/untrusted_json.h"

namespace footfix::cli {
using nlohmann::json;

namespace {

// Folds shard summaries into the batch's: integer counts add up, "exit_code" keeps the most
// severe (the highest: 0 < usage < read < process < write < check < internal), "complete" holds
// when every shard is complete and other flags when any shard's is set; other values (such as a
// threshold) must agree, and the first is kept with a warning when they do not.
void fold_summary(json& into, const json& from, const std::string& where, std::vector<std::string>& warnings) {
  for (const auto& [key, value] : from.items()) {
    auto it = into.find(key);
    if (it == into.end()) {
      into[key] = value;
    } else if (it->is_object() && value.is_object()) {
      fold_summary(*it, value, where, warnings);
    } else if (key == "exit_code" && it->is_number_integer() && value.is_number_integer()) {
      *it = std::max(it->get<long long>(), value.get<long long>());
    } else if (it->is_number_integer() && value.is_number_integer()) {
      *it = it->get<long long>() + value.get<long long>();
    } else if (it->is_boolean() && value.is_boolean()) {
      *it = key == "complete" ? (it->get<bool>() && value.get<bool>()) : (it->get<bool>() || value.get<bool>());
    } else if (*it != value) {
      warnings.push_back(where + ": summary." + key + " " + value.dump() + " differs from " + it->dump() + " (kept)");
    }
  }
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
  return {path, std::move(doc)};
}

json merge_reports(const std::vector<NamedReport>& reports, std::vector<std::string>& warnings) {
  if (reports.empty()) fail(ErrorKind::usage, "no report to merge");
  if (reports.size() == 1) return reports.front().document;
  json merged = reports.front().document;
  json clips = json::array();
  std::map<std::string, std::string> seen;  // input -> report it came from
  const std::string version = text_at(merged, {"version"});
  json summary = json::object();
  for (const auto& report : reports) {
    if (const json* s = field_at(report.document, {"summary"}); s != nullptr && s->is_object())
      fold_summary(summary, *s, report.path, warnings);
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
  if (merged.contains("summary")) merged["summary"] = std::move(summary);
  return merged;
}

}  // namespace footfix::cli
