// footfix annotate CLIP... [-o OUT] [--settings FILE.json] [--speed-threshold-mps V ...]
// Detects foot contacts and writes one <name>.contacts.json per clip.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "batch.h"
#include "clip_options.h"
#include "console.h"
#include "command.h"
#include "contact_options.h"
#include "footfix/contacts/detect_contacts.h"
#include "footfix/contacts/leg_glitches.h"
#include "footfix/core/text_location.h"
#include "footfix/files/atomic_file.h"
#include "contacts/contacts_json.h"
#include "solve/clean_settings_json.h"
#include "../core/json_text.h"

namespace footfix::cli {
namespace {

namespace fs = std::filesystem;

struct AnnotateOptions {
  std::vector<std::string> inputs;
  std::string output;
  std::string settings_path;
  bool dry_run = false;
  bool follow_symlinks = false;
  ContactOptions contact_options;  ///< settings given on the command line
  ClipOptions clip;
  int jobs = 1;
};

/// Whether `j` has the shape of a clean settings file (only "contacts", "solve", "ik" keys).
bool is_clean_settings_shape(const nlohmann::json& j) {
  if (!j.is_object()) return false;
  for (const auto& [key, value] : j.items())
    if (key != "contacts" && key != "solve" && key != "ik") return false;
  return true;
}

/// The same settings file as `clean --settings`; only its "contacts" object matters here. The
/// older flat shape (contact keys at the top level) is still read, with a deprecation warning.
ContactSettings resolve_settings(const AnnotateOptions& opts) {
  ContactSettings settings;
  if (!opts.settings_path.empty()) {
    const std::string text = read_file(opts.settings_path);
    refuse_deep_json(text, opts.settings_path, ErrorKind::usage);
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
      fail(ErrorKind::usage,
           opts.settings_path + ": not valid JSON at " + text_location(text, e.byte > 0 ? e.byte - 1 : 0));
    }
    if (is_clean_settings_shape(j)) {
      settings = clean_settings_from_json(j, opts.settings_path).contacts;
    } else {
      spdlog::warn("{}: contact settings at the top level are deprecated: put them under \"contacts\"",
                   opts.settings_path);
      settings = contact_settings_from_json(j, settings, opts.settings_path);
    }
  }
  opts.contact_options.apply(settings);
  return settings;
}

void annotate_one(const BatchItem& item, const ReadOptions& read, const ContactSettings& settings) {
  const std::string input = item.input;
  LoadedClip loaded = load_clip(item.input, read);
  // Contacts of the clip as clean detects them: with its tracking glitches bridged.
  if (std::string warning = bridge_leg_glitches(loaded.clip, loaded.rig); !warning.empty())
    loaded.warnings.push_back(std::move(warning));
  for (const auto& w : loaded.warnings) spdlog::warn("{}: {}", input, w);
  ContactResult result = detect_contacts(loaded.clip, loaded.rig, settings);
  for (const auto& w : result.warnings) spdlog::warn("{}: {}", input, w);
  for (const auto& n : result.notes) spdlog::info("{}: {}", input, n);
  result.warnings.insert(result.warnings.begin(), loaded.warnings.begin(), loaded.warnings.end());
  write_file_atomically(item.output, [&](std::ostream& out) { write_contacts_json(loaded.clip, result, settings, out); });
  const size_t left = result.foot(Side::left).intervals.size(), right = result.foot(Side::right).intervals.size();
  spdlog::info("annotated {} -> {}: {} ({} left, {} right)", input, item.output, counted(left + right, "contact"),
               left, right);
}

/// One item per clip, output `<name>.contacts.json` beside the input or mirrored under -o DIR;
/// `-o FILE.json` names the output of a single input file.
std::vector<BatchItem> plan_annotate(const AnnotateOptions& opts) {
  OutputPlan plan;
  plan.output = opts.output;
  plan.overwrite = false;
  plan.file_extensions = {".json"};
  plan.follow_symlinks = opts.follow_symlinks;
  plan.finish_item = [](BatchItem& item) {
    if (std::filesystem::path(item.output).extension() != ".json") item.output = contacts_json_path(item.output);
  };
  return plan_batch(opts.inputs, plan, log_plan_note);
}

int run_annotate(AnnotateOptions& opts) {
  ReadOptions read = opts.clip.resolve();
  read.limits.keep_bvh_text = false;  // no clip is written
  ContactSettings settings = resolve_settings(opts);
  std::vector<BatchItem> items = plan_annotate(opts);
  if (opts.dry_run) {
    print_plan(items);
    return k_exit_ok;
  }
  const auto started = std::chrono::steady_clock::now();
  auto outcomes =
      run_console_batch(items, opts.jobs, [&](const BatchItem& item, size_t) { annotate_one(item, read, settings); });
  return summarize_batch(items, outcomes, "annotated", {seconds_since(started), 0});
}

}  // namespace

CLI::App* add_annotate_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("annotate", "Detect foot contacts and write <clip>.contacts.json per clip");
  auto opts = std::make_shared<AnnotateOptions>();
  cmd->add_option("clips", opts->inputs, "Clips (.bvh, .fbx) or directories (searched recursively)")->required();
  cmd->add_option("-o,--output", opts->output,
                  "Output directory (mirrors input directories), or a .json file for a single input "
                  "(default: <name>.contacts.json beside each input)");
  cmd->add_option("--settings", opts->settings_path,
                  "Settings JSON, the same file as clean --settings ({\"contacts\": {...}}; other sections are checked "
                  "and ignored)");
  cmd->add_option("-j,--jobs", opts->jobs, "Clips processed in parallel (outputs do not depend on it)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_flag("-n,--dry-run", opts->dry_run, "Print the plan (input -> output) and write nothing");
  cmd->add_flag("--follow-symlinks", opts->follow_symlinks,
                "In directories, also read file symlinks whose target is outside the directory");
  opts->contact_options.add_to(*cmd);
  opts->clip.add_to(*cmd);
  cmd->footer(
      "Examples:\n"
      "  footfix annotate walk.bvh                   walk.contacts.json beside it\n"
      "  footfix annotate clips/ -o contacts/        mirrors clips/ under contacts/");
  action = [opts] { return run_annotate(*opts); };
  return cmd;
}

}  // namespace footfix::cli
