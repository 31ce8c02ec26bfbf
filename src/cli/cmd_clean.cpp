#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <memory>

#include "batch.h"
#include "clean_pipeline.h"
#include "clip_options.h"
#include "command.h"
#include "console.h"
#include "contact_options.h"
#include "footfix/eval/metrics.h"
#include "footfix/batch/clean_batch.h"
#include "footfix/batch/clip_report.h"
#include "footfix/solve/clean.h"
#include "solve/clean_settings_json.h"
#include "interrupt.h"
#include "number_options.h"
#include "footfix/batch/output_guard.h"
#include "output_options.h"

namespace footfix::cli {
namespace {

struct CleanOptions {
  std::vector<std::string> inputs;
  ClipOutputOptions out;
  std::string report_path;
  bool check = false;
  double max_slide_cm_s = 5.0;
  std::string settings_path;
  std::string solver;
  std::string format;
  ClipOptions clip;
  ContactOptions contact_options;
  std::string treadmill;
  std::string ground;
  bool smooth_swing = false;
  std::vector<double> ground_velocity;
  std::string loop;
  CleanPipeline pipeline;  ///< --shard, --incremental, --html, --junit
};

/// "auto", "on" or "off" as 0, 1, 2; throws Error(usage) naming `option` otherwise.
int parse_auto_on_off(const std::string& option, const std::string& name) {
  if (name == "auto") return 0;
  if (name == "on") return 1;
  if (name == "off") return 2;
  fail(ErrorKind::usage, option + " must be auto, on or off, got '" + name + "'");
}

/// --ground: "keep", "auto" or a height in meters; throws Error(usage) otherwise.
GroundSettings parse_ground(const std::string& text) {
  GroundSettings g;
  if (text == "keep") return g;
  if (text == "auto") {
    g.mode = GroundMode::auto_detect;
    return g;
  }
  size_t used = 0;
  try {
    g.height_m = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(g.height_m))
    fail(ErrorKind::usage, "--ground must be keep, auto or a height in meters, got '" + text + "'");
  g.mode = GroundMode::height;
  return g;
}

CleanSettings resolve_settings(CleanOptions& o) {
  CleanSettings settings;
  if (!o.settings_path.empty()) settings = clean_settings_from_json_file(o.settings_path);
  o.contact_options.apply(settings.contacts);
  if (!o.solver.empty()) settings.solve.solver = parse_offline_solver(o.solver);
  constexpr TreadmillMode k_treadmill[] = {TreadmillMode::auto_detect, TreadmillMode::on, TreadmillMode::off};
  constexpr LoopMode k_loop[] = {LoopMode::auto_detect, LoopMode::on, LoopMode::off};
  if (!o.treadmill.empty()) settings.treadmill.mode = k_treadmill[parse_auto_on_off("--treadmill", o.treadmill)];
  if (!o.loop.empty()) settings.loop = k_loop[parse_auto_on_off("--loop", o.loop)];
  if (!o.ground.empty()) settings.ground = parse_ground(o.ground);
  settings.smooth_swing = settings.smooth_swing || o.smooth_swing;
  if (!o.ground_velocity.empty()) settings.treadmill.ground_velocity_mps = Vec3{o.ground_velocity[0], 0.0, o.ground_velocity[1]};
  settings.validate();
  return settings;
}

/// A clip's result in a few figures for its console line, from its report entry: "contact slide
/// p95 25.90 -> 0.06 cm/s, 14 contacts".
std::string clip_figures(const ClipReport& record) {
  return fmt::format("contact slide p95 {:.2f} -> {:.2f} cm/s, {}", source_slide(record, NAN), residual_slide(record, NAN),
                     counted(record.contact_count, "contact"));
}

/// The console lines of a cleaned (or skipped) clip.
void log_cleaned_clip(const BatchItem& item, const ClipReport& record) {
  if (record.status == ClipStatus::skipped) {
    spdlog::info("unchanged, skipped {}: {}", item.input, clip_figures(record));
    return;
  }
  const ClipMetrics& metrics = *record.metrics;
  if (const auto& g = record.ground_velocity_mps)
    spdlog::debug("{}: in place: feet locked on a treadmill at ({:.3f}, {:.3f}) m/s (X, Z)", item.input, g->x, g->z);
  for (const auto& w : record.warnings) spdlog::warn("{}: {}", item.input, w);
  for (const auto& n : record.notes) spdlog::info("{}: {}", item.input, n);
  spdlog::debug("{}: new penetration {:.1f} mm, deviation mean {:.2f} cm, max {:.2f} cm", item.input,
                metrics.max_new_penetration_mm, metrics.mean_deviation_cm, metrics.max_deviation_cm);
  if (record.ground_offset_m)
    spdlog::info("{}: moved {:+.3f} m so the planted feet stand on the ground at 0", item.input, *record.ground_offset_m);
  spdlog::info("cleaned {} -> {}: {}", item.input, item.output, clip_figures(record));
}

/// The --check lines after a finished batch: each clip over the threshold, then the verdict.
void log_check(const CleanOptions& o, const std::vector<BatchItem>& items, const CleanBatchResult& result) {
  const RunCounts& counts = *result.report.summary.counts;
  for (size_t i = 0; i < items.size(); ++i)
    if (result.outcomes[i].ok && o.check && result.residual_p95_cm_s[i] > o.max_slide_cm_s)
      spdlog::error("check failed: {}: residual contact slide p95 {:.2f} cm/s > {:.2f}", items[i].input,
                    result.residual_p95_cm_s[i], o.max_slide_cm_s);
  if (counts.check_failed > 0) {
    spdlog::error("check failed: {} of {} over {:.4g} cm/s", counts.check_failed,
                  counted(static_cast<size_t>(counts.ok), "clip"), o.max_slide_cm_s);
  } else if (o.check) {
    spdlog::info("check passed: {} at or under {:.4g} cm/s{}", counted(static_cast<size_t>(counts.check_passed), "clip"),
                 o.max_slide_cm_s, counts.ok < counts.clips ? " (failed clips were not checked)" : "");
  }
}

int run_clean(CleanOptions& o, bool max_slide_given) {
  OutputPlan plan = o.out.plan(k_clean_suffix);
  if (max_slide_given && !o.check) {
    spdlog::info("--max-slide implies --check");
    o.check = true;
  }
  CleanBatchSettings batch_settings;
  batch_settings.one.read = o.clip.resolve();
  batch_settings.one.save = o.out.format.resolve();
  batch_settings.one.clean = resolve_settings(o);
  batch_settings.one.max_slide_cm_s = o.max_slide_cm_s;
  plan.finish_item = [](BatchItem& item) { item.companion = contacts_json_path(item.output); };
  if (!o.format.empty()) {
    if (o.format != "bvh" && o.format != "fbx" && o.format != "gltf" && o.format != "glb")
      fail(ErrorKind::usage, "--format must be bvh, fbx, gltf or glb");
    plan.new_extension = "." + o.format;
  }
  auto items = plan_batch(o.inputs, plan, log_plan_note);
  if (!o.report_path.empty())
    for (const auto& item : items)
      if (real_path(item.input) == real_path(o.report_path))
        fail(ErrorKind::usage, "--report " + o.report_path + ": refusing to write the report over an input");
  // What decides the written bytes besides the settings, for --incremental; the output format
  // options only when given, so that earlier manifests still match runs without them.
  std::string written_format = o.format;
  if (!o.out.format.bvh_unit.empty()) written_format += "|bvh-unit=" + o.out.format.bvh_unit;
  if (!o.out.format.fbx_format.empty()) written_format += "|fbx-format=" + o.out.format.fbx_format;
  o.pipeline.select_shard(items, o.inputs);
  batch_settings.incremental = o.pipeline.incremental(o.inputs, o.out.output, o.clip, written_format);
  batch_settings.jobs = o.out.jobs;
  batch_settings.check = o.check;
  batch_settings.report = o.report_path;
  batch_settings.keep_clips = o.pipeline.wants_pages();
  CleanBatchCallbacks callbacks;
  callbacks.clip_done = log_cleaned_clip;
  callbacks.progress = show_batch_progress;
  callbacks.between_clips = stop_here_for_test;
  callbacks.notes = log_plan_note;
  CleanBatch batch(std::move(items), std::move(batch_settings), std::move(callbacks));
  if (o.out.dry_run) {
    print_plan(batch.items());
    return k_exit_ok;
  }

  const auto started = std::chrono::steady_clock::now();
  CleanBatchResult result;
  {
    InterruptWatch watch([&](int signal) {
      const StoppedBatch stopped = batch.stop(signal_name(signal));
      if (!stopped.recorded) return;
      spdlog::error("interrupted by {}: {} of {} finished", signal_name(signal), stopped.finished,
                    counted(batch.items().size(), "clip"));
      if (!o.report_path.empty()) spdlog::info("--report {}: written, marked incomplete", o.report_path);
      o.pipeline.write_interrupted_pages(stopped.report, o.max_slide_cm_s);
      if (stopped.manifest_saved)
        spdlog::info("--incremental: the finished clips are recorded; the same command resumes from there");
    });
    result = batch.run();
    progress_end();
  }
  if (result.stopped) return k_exit_internal;  // stop() ends the process: not reached
  summarize_batch(batch.items(), result.outcomes, "cleaned", {seconds_since(started), result.unchanged});
  log_check(o, batch.items(), result);
  o.pipeline.write_pages(result.report, o.max_slide_cm_s);
  return result.report.summary.counts->exit_code;
}

}  // namespace

CLI::App* add_clean_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("clean", "Remove foot sliding: lock planted feet, re-solve the legs, write clip + contacts JSON");
  auto o = std::make_shared<CleanOptions>();
  cmd->add_option("inputs", o->inputs, "Clips (.bvh, .fbx) or directories (searched recursively)")->required();
  o->out.add_to(*cmd,
                "Output file (.bvh/.fbx, one input) or directory (no extension or a trailing '/'; mirrors input "
                "directories). Default: <name>.clean.<ext> beside the input",
                "clean", "cleaned");
  cmd->add_option("--report", o->report_path,
                  "Write a JSON report: summary, per clip status, metrics before/after, time, warnings, check result");
  cmd->add_flag("--check", o->check,
                "CI gate: exit 6 when a cleaned clip's 95th-percentile contact slide exceeds --max-slide");
  auto* max_slide = cmd->add_option("--max-slide", o->max_slide_cm_s, "Threshold of --check in cm/s (implies --check)")
                        ->check(positive_number("cm/s"))
                        ->capture_default_str();
  cmd->add_option("--settings", o->settings_path, "Clean settings JSON ({\"contacts\": {...}, \"solve\": {...}, \"ik\": {...}})");
  cmd->add_option("--solver", o->solver, "Offline solver: fast or reference (25000 PBD iterations) [default: fast]")
      ->check(CLI::IsMember({"fast", "reference"}));
  cmd->add_option("--format", o->format, "Output format: bvh, fbx, gltf or glb [default: the input's]")
      ->check(CLI::IsMember({"bvh", "fbx", "gltf", "glb"}));
  cmd->add_option("--treadmill", o->treadmill,
                  "In-place clips: lock planted feet on a ground moving at one velocity: auto (when the root "
                  "barely travels while planted feet slide together), on, off (lock in world space) [default: auto]")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  cmd->add_option("--ground", o->ground,
                  "Floating or sinking clips: keep (their height), auto (move the whole clip so the planted feet "
                  "stand on the ground at 0; the ground is estimated from them), or HEIGHT (the input's ground "
                  "height in meters, Y up, moved to 0); the move is reported [default: keep]");
  cmd->add_flag("--smooth-swing", o->smooth_swing,
                "Noisy capture: smooth the feet's swings too, not only hold the planted feet still (the swings "
                "otherwise keep the source's shape)");
  cmd->add_option("--ground-velocity", o->ground_velocity,
                  "X,Z: the treadmill's ground velocity in m/s (Y-up internal frame) instead of the estimate; implies --treadmill on")
      ->delimiter(',')
      ->expected(2);
  cmd->add_option("--loop", o->loop,
                  "Cyclic clips: keep the first and last frames matching (feet, root, contacts wrap around): auto "
                  "(when the last frame repeats the first), on, off [default: auto]")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  o->pipeline.add_to(*cmd);
  o->clip.add_to(*cmd);
  o->contact_options.add_to(*cmd);
  cmd->footer(
      "Examples:\n"
      "  footfix clean walk.bvh                        walk.clean.bvh + walk.clean.contacts.json\n"
      "  footfix clean walk.fbx -o fixed.fbx           fixed.fbx + fixed.contacts.json\n"
      "  footfix clean clips/ -o out/ -j 4 --report r.json\n"
      "  footfix clean clips/ -o out/ --check --max-slide 3   exit 6 if a clip is over 3 cm/s\n"
      "  footfix clean clips/ -o out/ --dry-run       show what would be written");
  action = [o, max_slide] { return run_clean(*o, max_slide->count() > 0); };
  return cmd;
}

}  // namespace footfix::cli
