// footfix annotate CLIP... [-o OUT] [--settings FILE.json] [--speed-threshold-mps V ...]
// Detects foot contacts and writes one <name>.contacts.json per clip.
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <filesystem>

#include "batch.h"
#include "clip_options.h"
#include "command.h"
#include "contact_options.h"
#include "footfix/contacts/detect_contacts.h"
#include "footfix/io/atomic_file.h"
#include "footfix/io/contacts_json.h"

namespace footfix::cli {
namespace {

namespace fs = std::filesystem;

struct AnnotateOptions {
  std::vector<std::string> inputs;
  std::string output;
  std::string settings_path;
  ContactOptions contact_options;  ///< settings given on the command line
  ClipOptions clip;
  int jobs = 1;
  bool quiet = false;
};

ContactSettings resolve_settings(const AnnotateOptions& opts) {
  ContactSettings settings;
  if (!opts.settings_path.empty()) {
    std::string text = read_file(opts.settings_path);
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
      fail(ErrorKind::usage, opts.settings_path + ": " + e.what());
    }
    settings = contact_settings_from_json(j, settings, opts.settings_path);
  }
  opts.contact_options.apply(settings);
  return settings;
}

void annotate_one(const BatchItem& item, const ReadOptions& read, const ContactSettings& settings) {
  const std::string input = item.input.string();
  LoadedClip loaded = load_clip(item.input, read);
  for (const auto& w : loaded.warnings) spdlog::warn("{}: {}", input, w);
  ContactResult result = detect_contacts(loaded.clip, loaded.rig, settings);
  for (const auto& w : result.warnings) spdlog::warn("{}: {}", input, w);
  result.warnings.insert(result.warnings.begin(), loaded.warnings.begin(), loaded.warnings.end());
  write_file_atomically(item.output, [&](std::ostream& out) { write_contacts_json(loaded.clip, result, settings, out); });
  spdlog::info("{}: {} + {} contacts -> {}", input, result.foot(Side::left).intervals.size(),
               result.foot(Side::right).intervals.size(), item.output.string());
}

/// One item per clip, output `<name>.contacts.json` beside the input or mirrored under -o DIR;
/// `-o FILE.json` names the output of a single input file.
std::vector<BatchItem> plan_annotate(const AnnotateOptions& opts) {
  if (fs::path(opts.output).extension() == ".json") {
    std::error_code ec;
    if (opts.inputs.size() != 1 || fs::is_directory(opts.inputs[0], ec))
      fail(ErrorKind::usage, "-o " + opts.output + ": a .json output needs exactly one input file; give a directory");
    if (!fs::exists(opts.inputs[0], ec)) fail(ErrorKind::read, opts.inputs[0] + ": no such file or directory");
    return {{opts.inputs[0], opts.output}};
  }
  OutputPlan plan;
  plan.output = opts.output;
  plan.in_place = true;  // beside the input is fine: the extension changes, the clip is never overwritten
  std::vector<BatchItem> items = plan_batch(opts.inputs, plan);
  for (auto& item : items) item.output = contacts_json_path(item.output);
  return items;
}

int run_annotate(AnnotateOptions& opts) {
  ReadOptions read = opts.clip.resolve();
  ContactSettings settings = resolve_settings(opts);
  std::vector<BatchItem> items = plan_annotate(opts);
  auto outcomes = run_batch(items, opts.jobs, opts.quiet,
                            [&](const BatchItem& item, size_t) { annotate_one(item, read, settings); });
  return summarize_batch(items, outcomes, "annotated");
}

}  // namespace

CLI::App* add_annotate_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("annotate", "Detect foot contacts and write <clip>.contacts.json per clip");
  auto opts = std::make_shared<AnnotateOptions>();
  cmd->add_option("clips", opts->inputs, "Clips (.bvh, .fbx) or directories (searched recursively)")->required();
  cmd->add_option("-o,--output", opts->output,
                  "Output directory (mirrors input directories), or a .json file for a single input "
                  "(default: beside each input)");
  cmd->add_option("--settings", opts->settings_path, "Contact settings JSON file (keys as the option names, '_' for '-')");
  cmd->add_option("-j,--jobs", opts->jobs, "Clips processed in parallel (outputs do not depend on it)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("-q,--quiet", opts->quiet, "No progress line");
  opts->contact_options.add_to(*cmd);
  opts->clip.add_to(*cmd);
  action = [opts] { return run_annotate(*opts); };
  return cmd;
}

}  // namespace footfix::cli
