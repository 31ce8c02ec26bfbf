#include "report_view.h"

#include <algorithm>
#include <filesystem>
#include <numeric>


namespace footfix::cli {
namespace fs = std::filesystem;

namespace {

/// The deepest folder holding every path of `paths` (lexically, as given); "" when there is
/// none or it is the current folder.
std::string common_folder(const std::vector<std::string>& paths) {
  if (paths.empty()) return "";
  fs::path common = fs::path(paths.front()).lexically_normal().parent_path();
  for (const auto& text : paths) {
    const fs::path folder = fs::path(text).lexically_normal().parent_path();
    fs::path shared;
    for (auto a = common.begin(), b = folder.begin(); a != common.end() && b != folder.end() && *a == *b; ++a, ++b)
      shared /= *a;
    common = shared;
  }
  const std::string text = common.generic_string();
  return text == "." ? "" : text;
}

std::vector<std::string> paths_of(const std::vector<ClipReport>& clips, std::string ClipReport::*path) {
  std::vector<std::string> paths;
  for (const auto& clip : clips)
    if (!(clip.*path).empty()) paths.push_back(clip.*path);
  return paths;
}

}  // namespace

Verdict verdict_of(const ClipReport& clip) {
  if (clip.status == ClipStatus::failed) return Verdict::failed;
  if (clip.check == CheckResult::failed) return Verdict::check_failed;
  return clip.status == ClipStatus::ok ? Verdict::ok : Verdict::skipped;
}

const char* verdict_label(Verdict verdict) {
  switch (verdict) {
    case Verdict::failed: return "failed";
    case Verdict::check_failed: return "check failed";
    case Verdict::ok: return "ok";
    default: return "skipped";
  }
}

const char* verdict_class(Verdict verdict) { return verdict == Verdict::check_failed ? "check-failed" : verdict_label(verdict); }

ReportView report_view(const ReportDocument& report) {
  const std::vector<ClipReport>& clips = report.clips;
  ReportView view;
  view.order.resize(clips.size());
  std::iota(view.order.begin(), view.order.end(), std::size_t{0});
  auto group = [&](std::size_t i) {
    const Verdict v = verdict_of(clips[i]);
    return v == Verdict::failed ? 0 : v == Verdict::check_failed ? 1 : 2;
  };
  auto residual = [&](std::size_t i) { return residual_slide(clips[i], -1.0); };
  std::stable_sort(view.order.begin(), view.order.end(), [&](std::size_t a, std::size_t b) {
    if (group(a) != group(b)) return group(a) < group(b);
    return residual(a) > residual(b);
  });
  view.summary = report.summary;
  view.input_root = common_folder(paths_of(clips, &ClipReport::input));
  view.output_root = common_folder(paths_of(clips, &ClipReport::output));
  return view;
}

std::string incomplete_note(const ReportView& view, std::size_t clips_done) {
  const ReportSummary& s = view.summary;
  if (s.complete) return "";
  std::string note = "incomplete: the run ";
  note += s.interrupted.empty() ? "stopped" : "was interrupted by " + s.interrupted;
  note += " after " + std::to_string(clips_done);
  if (s.clips_planned >= 0) note += " of " + std::to_string(s.clips_planned);
  note += s.clips_planned == 1 ? " clip" : " clips";
  return note;
}

std::string error_of(const ClipReport& clip, const ReportView& view) {
  std::string error = clip.error;
  const std::string& input = clip.input;
  if (!input.empty() && error.rfind(input, 0) == 0) error = relative_to(input, view.input_root) + error.substr(input.size());
  return error;
}

std::string relative_to(const std::string& path, const std::string& root) {
  if (root.empty()) return path;
  const std::string relative = fs::path(path).lexically_normal().lexically_relative(root).generic_string();
  return relative.empty() || relative.rfind("..", 0) == 0 ? path : relative;
}

}  // namespace footfix::cli
