#include "clean_pipeline.h"

#include "console.h"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>

#include "footfix/core/error.h"
#include "footfix/files/atomic_file.h"
#include "footfix/gltf/gltf.h"
#include "solve/clean_settings_json.h"
#include "html_report.h"
#include "junit.h"
#include "footfix/batch/output_guard.h"

namespace footfix::cli {
namespace fs = std::filesystem;

namespace {

/// Whether `output_dir`, links resolved, lies inside one of the input folders.
bool inside_an_input_folder(const std::string& output_dir, const std::vector<std::string>& inputs) {
  const fs::path out = real_path(output_dir);
  for (const auto& input : inputs) {
    std::error_code ec;
    if (fs::is_directory(input, ec) && is_under(out, real_path(input))) return true;
  }
  return false;
}

std::string manifest_key(const BatchItem& item, const std::string& output_dir) {
  return std::filesystem::path(item.output).lexically_relative(output_dir).generic_string();
}

}  // namespace

void CleanPipeline::prepare(std::vector<BatchItem>& items, const std::vector<std::string>& inputs,
                            const std::string& output_dir, const CleanSettings& settings, const ClipOptions& clip,
                            const std::string& format) {
  if (!shard_text_.empty()) {
    ShardSpec spec = parse_shard(shard_text_, [](const char* name) { return std::getenv(name); });
    std::vector<fs::path> found;
    for (const auto& item : items) found.push_back(item.input);
    std::vector<BatchItem> mine;
    for (std::size_t i : shard_members(found, inputs, spec)) mine.push_back(items[i]);
    spdlog::info("shard {}/{}: {} of {}", spec.index, spec.count, mine.size(), counted(items.size(), "clip"));
    items = std::move(mine);
  }
  if (!incremental_) return;
  if (output_dir.empty() || is_clip_path(output_dir))
    fail(ErrorKind::usage, "--incremental needs -o OUTPUT_DIR (the manifest is kept there)");
  output_dir_ = output_dir;
  // Everything besides the input bytes that decides the outputs.
  std::string rig = clip.rig_profile_path.empty() ? "" : file_content_hash(clip.rig_profile_path);
  settings_hash_ = text_hash(clean_settings_to_json(settings).dump() + "|unit=" + clip.unit_scale +
                             "|up=" + clip.up + "|take=" + clip.take + "|rig=" + rig + "|format=" + format);
  if (inside_an_input_folder(output_dir, inputs)) {
    // Contributors write the input tree: a manifest there could vouch for a clip it never saw.
    spdlog::warn("--incremental: -o {} is inside an input folder, where its manifest could be forged: every clip is "
                 "redone (keep -o outside the repository to skip unchanged clips)",
                 output_dir);
    manifest_ = Manifest();
    manifest_->set_path(output_dir);
  } else {
    manifest_ = Manifest::load(output_dir);
    if (!manifest_->warning().empty()) spdlog::warn("{}", manifest_->warning());
  }
  input_hashes_.assign(items.size(), "");
}

bool CleanPipeline::skip_unchanged(const BatchItem& item, std::size_t index, ClipReport& report) {
  if (!manifest_) return false;
  input_hashes_[index] = file_content_hash(item.input);
  const Manifest::Entry* recorded =
      manifest_->unchanged(manifest_key(item, output_dir_), {input_hashes_[index], settings_hash_, FOOTFIX_VERSION, {}});
  std::error_code ec;
  if (recorded == nullptr || !fs::exists(item.output, ec) || !fs::exists(contacts_json_path(item.output), ec)) return false;
  // A glTF output is whole only with the buffer files it names (a patched .gltf's own .bin).
  if (is_gltf_path(item.output))
    for (const fs::path& buffer : gltf_buffer_files(item.output))
      if (!fs::exists(buffer, ec)) return false;
  report = recorded->report;
  report.input = item.input;
  report.output = item.output;
  report.status = ClipStatus::skipped;
  report.time_s.reset();
  return true;
}

void CleanPipeline::record(const BatchItem& item, std::size_t index, const ClipReport& clip) {
  const std::string key = manifest_key(item, output_dir_);
  if (clip.status == ClipStatus::ok && !input_hashes_[index].empty()) {
    ClipReport recorded = clip;
    recorded.time_s.reset();
    manifest_->set(key, {input_hashes_[index], settings_hash_, FOOTFIX_VERSION, std::move(recorded)});
  } else if (clip.status != ClipStatus::skipped) {
    manifest_->erase(key);
  }
}

void CleanPipeline::finish(const std::vector<BatchItem>& items, const ReportDocument& report, double max_slide_cm_s) {
  if (manifest_) {
    for (std::size_t i = 0; i < items.size() && i < report.clips.size(); ++i) record(items[i], i, report.clips[i]);
    manifest_->save();
  }
  write_report_pages(report, html_path_, junit_path_, max_slide_cm_s);
}

bool CleanPipeline::save_progress(const std::vector<BatchItem>& items, const std::vector<std::optional<ClipReport>>& clips) {
  if (!manifest_) return false;
  for (std::size_t i = 0; i < items.size() && i < clips.size(); ++i)
    if (clips[i]) record(items[i], i, *clips[i]);
  manifest_->save();
  return true;
}

void CleanPipeline::write_interrupted_pages(const std::vector<std::optional<ClipReport>>& clips,
                                            const ReportSummary& summary, double max_slide_cm_s) const {
  if (html_path_.empty() && junit_path_.empty()) return;
  ReportDocument done{"footfix", FOOTFIX_VERSION, summary, {}};
  for (const auto& clip : clips)
    if (clip) done.clips.push_back(*clip);
  write_report_pages(done, html_path_, junit_path_, max_slide_cm_s);
  for (const std::string* path : {&html_path_, &junit_path_})
    if (!path->empty()) spdlog::info("{}: written, marked incomplete", *path);
}

void write_report_pages(const ReportDocument& report, const std::string& html_path, const std::string& junit_path,
                        double max_slide_cm_s) {
  if (!html_path.empty())
    write_file_atomically(html_path, [&](std::ostream& out) { out << html_report(report); });
  if (!junit_path.empty())
    write_file_atomically(junit_path, [&](std::ostream& out) { out << junit_xml(report, max_slide_cm_s); });
}

}  // namespace footfix::cli
