// footfix compare CLIP... [--json] [--slide-protocol]: no fix, runtime lock and offline clean on
// the same clip, measured with the `metrics` figures in one table.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <iostream>

#include "../core/json_text.h"
#include "batch.h"
#include "clip_options.h"
#include "command.h"
#include "control_escape.h"
#include "footfix/core/frame_rate.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/lock/causal_contacts.h"
#include "footfix/compare/compare_methods.h"
#include "lock_options.h"
#include "batch/clip_report_json.h"

namespace footfix::cli {
namespace {

using nlohmann::json;

struct CompareOptions {
  std::vector<std::string> inputs;
  bool json_output = false;
  bool slide_protocol = false;
  int jobs = 1;
  ClipOptions clip;
  LockOptions lock;
};

struct ClipComparison {
  std::string input;
  int frames = 0;
  double fps = 0;
  int onset_delay_frames = 0, release_delay_frames = 0;
  std::vector<CompareVariant> variants;
};

constexpr FixMethod k_methods[] = {FixMethod::none, FixMethod::runtime, FixMethod::offline};

void print_event_pops(const LockEventPops& pops) {
  const LockEventPop* worst = pops.worst();
  if (!worst) {
    std::printf("  runtime lock pops per event: no lock or unlock\n");
    return;
  }
  std::printf("  runtime lock pops per event: %zu events, median %.2f, worst %.2f (%s %s at frame %d), %d over %.1f\n",
              pops.events.size(), pops.median_ratio, pops.worst_ratio, to_string(worst->side),
              worst->lock ? "lock" : "unlock", worst->frame, pops.over_limit, k_event_pop_limit);
}

json event_pops_json(const LockEventPops& pops) {
  const LockEventPop* worst = pops.worst();
  json j = {{"events", pops.events.size()},
            {"median_ratio", pops.median_ratio},
            {"worst_ratio", pops.worst_ratio},
            {"over_limit", pops.over_limit},
            {"limit", k_event_pop_limit}};
  if (worst) j["worst"] = {{"side", to_string(worst->side)}, {"frame", worst->frame}, {"lock", worst->lock},
                           {"output_mps2", worst->output_mps2}, {"input_mps2", worst->input_mps2}};
  return j;
}

void print_table(const std::vector<ClipComparison>& clips, const std::vector<ItemOutcome>& outcomes, bool offline_contacts) {
  std::printf("%-40s %5s %-13s %8s %8s %6s %7s %7s %7s %6s %7s %7s\n", "clip", "scale", "method", "slide", "p95",
              "vs no", "new pen", "dev", "max dev", "leg", "accel", "non-leg");
  std::printf("%-40s %5s %-13s %8s %8s %6s %7s %7s %7s %6s %7s %7s\n", "", "", "", "cm/s", "cm/s", "fix %", "mm",
              "cm", "cm", "pops x", "m/s^2", "joints");
  for (size_t i = 0; i < clips.size(); ++i) {
    if (!outcomes[i].ok) continue;
    const ClipComparison& c = clips[i];
    for (const CompareVariant& v : c.variants) {
      const double none = v.metrics[0].cleaned_slide.mean_cm_per_s;
      for (FixMethod method : k_methods) {
        const ClipMetrics& m = v.metrics[static_cast<int>(method)];
        const double share = none > 0 ? 100.0 * m.cleaned_slide.mean_cm_per_s / none : 0.0;
        std::printf("%-40s x%4.2f %-13s %8.2f %8.2f %6.1f %7.1f %7.2f %7.2f %6.2f %7.1f %7s\n",
                    escape_for_console(std::filesystem::path(c.input).filename().string()).c_str(), v.factor, to_string(method),
                    m.cleaned_slide.mean_cm_per_s, m.cleaned_slide.p95_cm_per_s, share, m.max_new_penetration_mm,
                    m.mean_deviation_cm, m.max_deviation_cm, m.leg_accel_ratio, m.cleaned_max_leg_accel,
                    m.non_leg_unchanged() ? "same" : "CHANGED");
      }
      print_event_pops(v.runtime_pops);
    }
    if (offline_contacts)
      std::printf("  runtime contacts: offline (whole clip)\n");
    else
      std::printf("  runtime contacts: causal, %d frames (%.0f ms) late at contact start, %d (%.0f ms) at its end\n",
                  c.onset_delay_frames, 1000.0 * c.onset_delay_frames / c.fps, c.release_delay_frames,
                  1000.0 * c.release_delay_frames / c.fps);
  }
  std::printf("slide: horizontal motion of the contact joints while the unscaled clip's offline contacts say planted;\n"
              "vs no fix: slide mean as a share of no fix; pops: largest leg acceleration / the input's;\n"
              "pops per event: around each lock and unlock, the toe's largest acceleration / the input's within 0.1 s.\n");
}

json comparison_json(const ClipComparison& c, bool offline_contacts) {
  json variants = json::array();
  for (const CompareVariant& v : c.variants) {
    json methods = json::object();
    for (FixMethod method : k_methods) methods[to_string(method)] = metrics_to_json(v.metrics[static_cast<int>(method)]);
    variants.push_back({{"scale", v.factor},
                        {"methods", methods},
                        {"runtime_event_pops", event_pops_json(v.runtime_pops)},
                        {"warnings", v.warnings}});
  }
  return {{"input", c.input},
          {"frames", c.frames},
          {"fps", nominal_frame_rate(c.fps)},
          {"runtime_contacts", offline_contacts ? "offline" : "causal"},
          {"onset_delay_frames", c.onset_delay_frames},
          {"release_delay_frames", c.release_delay_frames},
          {"variants", variants}};
}

int run_compare(CompareOptions& o) {
  ReadOptions read = o.clip.resolve();
  read.limits.keep_bvh_text = false;  // no clip is written
  CompareSettings settings;
  o.lock.resolve(settings.clean, settings.runtime);
  settings.runtime_offline_contacts = o.lock.offline_contacts;
  settings.runtime_ground_velocity_mps = o.lock.ground_velocity_mps();
  const Terrain terrain = o.lock.resolve_terrain();
  if (terrain.kind != TerrainKind::flat) settings.runtime_ground = terrain_ground_query(terrain);
  // Inputs only: nothing is written, so directories need no -o.
  std::vector<BatchItem> items;
  for (const auto& input : expand_inputs(o.inputs, false, log_plan_note)) items.push_back(BatchItem{input, {}, {}, {}, true, {}});
  std::vector<ClipComparison> clips(items.size());
  const auto started = std::chrono::steady_clock::now();
  auto outcomes = run_console_batch(items, o.jobs, [&](const BatchItem& item, size_t index) {
    LoadedClip loaded = load_clip(item.input, read);
    for (const auto& w : loaded.warnings) spdlog::warn("{}: {}", item.input, w);
    ClipComparison& c = clips[index];
    c.input = item.input;
    c.frames = loaded.clip.frame_count;
    c.fps = loaded.clip.fps;
    CausalContactDetector detector(settings.runtime.contacts, loaded.clip.fps);
    c.onset_delay_frames = detector.onset_delay_frames(c.fps);
    c.release_delay_frames = detector.release_delay_frames(c.fps);
    c.variants = compare_methods(loaded.clip, loaded.rig, settings, o.slide_protocol);
    // The clip's own warnings once; the slide protocol variants' only with -v.
    for (const auto& v : c.variants)
      for (const auto& w : v.warnings)
        if (v.factor == 1.0)
          spdlog::warn("{}: {}", c.input, w);
        else
          spdlog::debug("{} x{:.2f}: {}", c.input, v.factor, w);
  });
  if (o.json_output) {
    json doc = json::array();
    for (size_t i = 0; i < items.size(); ++i)
      if (outcomes[i].ok) doc.push_back(comparison_json(clips[i], o.lock.offline_contacts));
    std::cout << json_for_console(json_text(doc, 2)) << "\n";
  } else {
    print_table(clips, outcomes, o.lock.offline_contacts);
  }
  return summarize_batch(items, outcomes, "compared", {seconds_since(started), 0});
}

}  // namespace

CLI::App* add_compare_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("compare", "No fix vs runtime lock vs offline clean on the same clips: one table of metrics");
  auto o = std::make_shared<CompareOptions>();
  cmd->add_option("inputs", o->inputs, "Clips (.bvh, .fbx) or directories (searched recursively)")->required();
  cmd->add_flag("--json", o->json_output, "Print JSON (an array, one entry per clip)");
  cmd->add_flag("--slide-protocol", o->slide_protocol,
                "Also make each clip slide (root's horizontal motion x1.25 and x0.75 about frame 0) and fix that, "
                "measured under the unscaled clip's contacts");
  cmd->add_option("-j,--jobs", o->jobs, "Clips processed in parallel (results do not depend on it)")->check(CLI::Range(1, 256));
  o->clip.add_to(*cmd);
  o->lock.add_to(*cmd);
  cmd->footer(
      "Examples:\n"
      "  footfix compare walk.bvh                     no fix, runtime lock and offline clean in one table\n"
      "  footfix compare clips/ --slide-protocol -j 2 also with the root's motion scaled x1.25 and x0.75\n"
      "  footfix compare walk.bvh --json             the same figures as JSON");
  action = [o] {
    return run_compare(*o);
  };
  return cmd;
}

}  // namespace footfix::cli
