#include "batch/incremental_run.h"

#include <nlohmann/json.hpp>

#include <filesystem>

#include "footfix/batch/output_guard.h"
#include "solve/clean_settings_json.h"

namespace footfix {
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
  return fs::path(item.output).lexically_relative(output_dir).generic_string();
}

}  // namespace

IncrementalRun::IncrementalRun(const std::string& output_dir, const std::vector<std::string>& inputs,
                               const CleanSettings& settings, const std::string& decided_by, std::size_t item_count,
                               const PlanNotes& notes)
    : output_dir_(output_dir),
      settings_hash_(text_hash(clean_settings_to_json(settings).dump() + decided_by)),
      input_hashes_(item_count) {
  if (inside_an_input_folder(output_dir, inputs)) {
    // Contributors write the input tree: a manifest there could vouch for a clip it never saw.
    notes(NoteLevel::warning,
          "--incremental: -o " + output_dir +
              " is inside an input folder, where its manifest could be forged: every clip is redone (keep -o outside "
              "the repository to skip unchanged clips)");
    manifest_.set_path(output_dir);
  } else {
    manifest_ = Manifest::load(output_dir);
    if (!manifest_.warning().empty()) notes(NoteLevel::warning, manifest_.warning());
  }
}

std::optional<ClipReport> IncrementalRun::skip_unchanged(const BatchItem& item, std::size_t index) {
  input_hashes_[index] = file_content_hash(item.input);
  const Manifest::Entry* recorded =
      manifest_.unchanged(manifest_key(item, output_dir_), {input_hashes_[index], settings_hash_, FOOTFIX_VERSION, {}});
  std::error_code ec;
  if (recorded == nullptr || !fs::exists(item.output, ec) || !fs::exists(contacts_json_path(item.output), ec))
    return std::nullopt;
  // A glTF output is whole only with the buffer files it names (a patched .gltf's own .bin), as
  // its clean recorded them.
  for (const std::string& buffer : recorded->report.buffers)
    if (!fs::exists(buffer, ec)) return std::nullopt;
  ClipReport report = recorded->report;
  report.input = item.input;
  report.output = item.output;
  report.status = ClipStatus::skipped;
  report.time_s.reset();
  return report;
}

void IncrementalRun::record(const BatchItem& item, std::size_t index, const ClipReport& clip) {
  const std::string key = manifest_key(item, output_dir_);
  if (clip.status == ClipStatus::ok && !input_hashes_[index].empty()) {
    ClipReport recorded = clip;
    recorded.time_s.reset();
    manifest_.set(key, {input_hashes_[index], settings_hash_, FOOTFIX_VERSION, std::move(recorded)});
  } else if (clip.status != ClipStatus::skipped) {
    manifest_.erase(key);
  }
}

}  // namespace footfix
