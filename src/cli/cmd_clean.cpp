#include <spdlog/spdlog.h>

#include <chrono>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>

#include "batch.h"
#include "clean_pipeline.h"
#include "clip_options.h"
#include "command.h"
#include "contact_options.h"
#include "footfix/eval/metrics.h"
#include "footfix/io/atomic_file.h"
#include "footfix/io/clip_io.h"
#include "footfix/io/contacts_json.h"
#include "footfix/solve/clean.h"
#include "footfix/solve/clean_settings_json.h"
#include "metrics_json.h"
#include "output_guard.h"
#include "report_plot.h"

namespace footfix::cli {
namespace {

using nlohmann::json;

struct CleanOptions {
  std::vector<std::string> inputs;
  std::string output;
  bool in_place = false;
  int jobs = 1;
  bool quiet = false, verbose = false;
  std::string report_path;
  bool check = false;
  double max_slide_cm_s = 5.0;
  std::string settings_path;
  std::string solver;
  std::string format;
  ClipOptions clip;
  ContactOptions contact_options;
  CleanPipeline pipeline;  // --shard, --incremental, --html, --junit
};

CleanSettings resolve_settings(CleanOptions& o) {
  CleanSettings settings;
  if (!o.settings_path.empty()) settings = clean_settings_from_json_file(o.settings_path);
  o.contact_options.apply(settings.contacts);
  if (!o.solver.empty()) settings.solve.solver = parse_offline_solver(o.solver);
  settings.validate();
  return settings;
}

}  // namespace

CLI::App* add_clean_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("clean", "Remove foot sliding: lock planted feet, re-solve the legs, write clip + contacts JSON");
  auto o = std::make_shared<CleanOptions>();
  cmd->add_option("inputs", o->inputs, "Clips (.bvh, .fbx) or directories (searched recursively)")->required();
  cmd->add_option("-o,--output", o->output,
                  "Output file (one input) or directory (mirrors input directories). Default: <name>.clean.<ext> beside the input");
  cmd->add_flag("--in-place", o->in_place, "Overwrite the inputs (off by default: inputs are never overwritten)");
  cmd->add_option("-j,--jobs", o->jobs, "Clips cleaned in parallel (output is identical for any value)")->check(CLI::Range(1, 256));
  cmd->add_flag("-q,--quiet", o->quiet, "Only errors");
  cmd->add_flag("-v,--verbose", o->verbose, "Per-clip details");
  cmd->add_option("--report", o->report_path, "Write a JSON report: per clip metrics before/after, time, warnings");
  cmd->add_flag("--check", o->check, "Exit with code 6 when a cleaned clip's 95th-percentile contact slide exceeds --max-slide");
  cmd->add_option("--max-slide", o->max_slide_cm_s, "Threshold of --check in cm/s (default 5)")->check(CLI::PositiveNumber);
  cmd->add_option("--settings", o->settings_path, "Clean settings JSON ({\"contacts\": {...}, \"solve\": {...}, \"ik\": {...}})");
  cmd->add_option("--solver", o->solver, "Offline solver: fast (default) or reference (25000 PBD iterations)");
  cmd->add_option("--format", o->format, "Output format: bvh or fbx (default: the input's)");
  o->clip.add_to(*cmd);
  o->contact_options.add_to(*cmd);
  o->pipeline.add_to(*cmd);

  action = [o] {
    if (o->quiet) spdlog::set_level(spdlog::level::err);
    if (o->verbose) spdlog::set_level(spdlog::level::debug);
    ReadOptions read = o->clip.resolve();
    CleanSettings settings = resolve_settings(*o);
    OutputPlan plan{o->output, ".clean", o->in_place, ""};
    if (!o->format.empty()) {
      if (o->format != "bvh" && o->format != "fbx") fail(ErrorKind::usage, "--format must be bvh or fbx");
      plan.new_extension = "." + o->format;
    }
    auto items = plan_batch(o->inputs, plan);
    o->pipeline.prepare(items, o->inputs, o->output, settings, o->clip, o->format);
    for (const auto& item : items) refuse_to_overwrite_input(item.input, item.output, o->in_place);

    std::vector<json> reports(items.size());
    std::vector<double> residual_p95(items.size(), 0.0);
    auto outcomes = run_batch(items, o->jobs, o->quiet, [&](const BatchItem& item, size_t index) {
      auto start = std::chrono::steady_clock::now();
      json& report = reports[index];
      report = {{"input", item.input.string()}, {"output", item.output.string()}, {"status", "failed"}};
      if (o->pipeline.skip_unchanged(item, index, report)) {
        residual_p95[index] = residual_slide(report);
        return;
      }
      LoadedClip loaded = load_clip(item.input, read);
      CleanResult result = clean_clip(loaded.clip, loaded.rig, settings);
      ContactMask mask{result.contacts.feet[0].contact, result.contacts.feet[1].contact};
      ClipMetrics metrics = compare_clips(loaded.clip, result.cleaned, loaded.rig, mask);
      save_clip(result.cleaned, item.output);
      write_file_atomically(contacts_json_path(item.output), [&](std::ostream& out) {
        write_contacts_json(result.cleaned, result.contacts, settings.contacts, out);
      });
      double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::vector<std::string> warnings = loaded.warnings;
      warnings.insert(warnings.end(), result.warnings.begin(), result.warnings.end());
      for (const auto& w : warnings) spdlog::warn("{}: {}", item.input.string(), w);
      residual_p95[index] = metrics.cleaned_slide.p95_cm_per_s;
      spdlog::debug("{}: contact slide p95 {:.2f} -> {:.2f} cm/s, new penetration {:.1f} mm", item.input.string(),
                    metrics.source_slide.p95_cm_per_s, metrics.cleaned_slide.p95_cm_per_s,
                    metrics.max_new_penetration_mm);
      if (!o->quiet && !o->verbose) spdlog::info("cleaned {} -> {}", item.input.string(), item.output.string());
      report["status"] = "ok";
      report["time_s"] = seconds;
      report["frames"] = loaded.clip.frame_count;
      report["solver_iterations"] = result.solver_iterations;
      report["metrics"] = metrics_to_json(metrics);
      report["warnings"] = warnings;
      report["plot"] = plot_series(loaded, result, settings.contacts);
    });
    for (size_t i = 0; i < items.size(); ++i)
      if (!outcomes[i].ok) reports[i]["error"] = outcomes[i].message;
    int code = summarize_batch(items, outcomes, "cleaned");

    std::vector<std::string> over;
    if (o->check)
      for (size_t i = 0; i < items.size(); ++i)
        if (outcomes[i].ok && residual_p95[i] > o->max_slide_cm_s) {
          over.push_back(items[i].input.string());
          spdlog::error("check: {}: residual contact slide p95 {:.2f} cm/s > {:.2f}", items[i].input.string(),
                        residual_p95[i], o->max_slide_cm_s);
        }
    json doc = {{"tool", "footfix"}, {"version", FOOTFIX_VERSION}, {"clips", reports}};
    if (!o->report_path.empty())
      write_file_atomically(o->report_path, [&](std::ostream& out) { out << doc.dump(2) << "\n"; });
    o->pipeline.finish(items, doc, o->max_slide_cm_s);
    if (code == k_exit_ok && !over.empty()) return static_cast<int>(k_exit_check_failed);
    return code;
  };
  return cmd;
}

}  // namespace footfix::cli
