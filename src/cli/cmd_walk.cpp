// footfix walk [--terrain FILE|flat|slope:DEG|hills|stairs|stairs-down] [--path straight|turn:DEG|stop-go]
//              [--speed M_PER_S] [--duration S] [--fps N] [--skeleton CLIP.bvh] [--seed N]
//              [--limits FILE.json] [--upper-body frames|rest] [--check] -o walk.bvh
// Generates a procedural walk driven entirely by IK and writes walk.bvh, walk.contacts.json
// (the ground-truth contacts) and walk.terrain.json (terrain and footsteps); prints the
// acceptance figures.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "batch.h"
#include "clip_options.h"
#include "command.h"
#include "footfix/files/atomic_file.h"
#include "footfix/files/read_limits.h"
#include "footfix/pipeline/load_clip.h"
#include "contacts/contacts_json.h"
#include "console.h"
#include "control_escape.h"
#include "footfix/walk/walk.h"
#include "footfix/walk/walk_metrics.h"
#include "footfix/batch/output_guard.h"
#include "write_format_options.h"

namespace footfix::cli {
namespace {

namespace fs = std::filesystem;

struct WalkOptions {
  std::string terrain = "flat";
  std::string path = "straight";
  std::string skeleton;
  std::string limits;
  std::string upper_body = "frames";
  std::string output;
  bool check = false;
  WalkSettings settings;
  ClipOptions clip;
  WriteFormatOptions format;
};

/// Acceptance thresholds of a generated walk. The sole may sit as far below the terrain as the
/// IK may miss its target.
constexpr double k_max_slide_mm = 0.5;
constexpr double k_max_penetration_mm = 2.0;
constexpr double k_max_sole_penetration_mm = 1.0;
constexpr double k_max_ik_error_mm = 1.0;

/// One acceptance figure as printed, and whether it meets its goal.
struct Figure {
  std::string line;
  std::string name;
  bool ok = true;
};

std::string format(const char* fmt, double a, double b = 0, double c = 0, double d = 0, double e = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, a, b, c, d, e);
  return buf;
}

std::vector<Figure> walk_figures(const WalkResult& walk, const WalkMeasures& m) {
  const int breaks = walk.plan.alternation_breaks();
  const int warnings = static_cast<int>(walk.plan.warnings.size());
  return {
      {format("stance slide max       %.4f mm/frame (goal < %.1f)", m.max_stance_slide_mm, k_max_slide_mm), "stance slide",
       m.max_stance_slide_mm < k_max_slide_mm},
      {format("penetration max        %.3f mm (goal <= %.1f)", m.max_penetration_mm, k_max_penetration_mm), "penetration",
       m.max_penetration_mm <= k_max_penetration_mm},
      {format("sole penetration max   %.3f mm (goal <= %.1f)", m.max_sole_penetration_mm, k_max_sole_penetration_mm),
       "sole penetration", m.max_sole_penetration_mm <= k_max_sole_penetration_mm},
      {format("IK target error max    %.4f mm (goal < %.1f), iterations mean %.2f max %.0f, unconverged %.0f",
              walk.max_ik_error_m * 1000, k_max_ik_error_mm, walk.mean_ik_iterations, walk.max_ik_iterations,
              walk.ik_unconverged),
       "IK target error", walk.max_ik_error_m * 1000 < k_max_ik_error_mm},
      {format("joint-limit violations %.0f", m.limit_violations), "joint-limit violations", m.limit_violations == 0},
      {format("knee flips             %.0f", m.knee_flips), "knee flips", m.knee_flips == 0},
      {format("alternation breaks     %.0f", breaks), "alternation breaks", breaks == 0},
      {format("plan warnings          %.0f", warnings), "plan warnings", warnings == 0},
  };
}

int run_walk(WalkOptions& opts) {
  if (fs::path(opts.output).extension() != ".bvh") fail(ErrorKind::usage, "-o " + opts.output + ": the output must be a .bvh file");
  const SaveOptions save = opts.format.resolve();
  WalkSettings settings = opts.settings;
  settings.gait.path = parse_walk_path(opts.path);
  if (!opts.limits.empty()) settings.limits = read_leg_limits(opts.limits);
  if (opts.upper_body != "frames" && opts.upper_body != "rest")
    fail(ErrorKind::usage, "--upper-body " + opts.upper_body + ": expected frames or rest");
  settings.upper_body_from_frames = opts.upper_body == "frames";
  const Terrain terrain = parse_terrain_spec(opts.terrain);
  WalkResult walk;
  if (opts.skeleton.empty()) {
    walk = generate_walk(terrain, settings);
  } else {
    ReadOptions read = opts.clip.resolve();
    refuse_to_overwrite_input(opts.skeleton, opts.output, false);
    LoadedClip loaded = load_clip(opts.skeleton, read);
    for (const auto& w : loaded.warnings) spdlog::warn("{}: {}", opts.skeleton, w);
    // The walk holds every joint of the skeleton in every frame it generates: its memory is
    // bounded by --max-memory like a clip read from a file.
    const double frames = std::ceil(settings.gait.duration_s * settings.fps) + 1;
    check_clip_memory(read.limits, static_cast<std::uint64_t>(frames),
                      static_cast<std::uint64_t>(loaded.clip.skeleton.joint_count()), opts.skeleton + " (walked)");
    walk = generate_walk(loaded.clip, loaded.rig, terrain, settings);
  }
  const fs::path out = opts.output;
  walk.clip.source_name = out.filename().string();
  const fs::path contacts_path = contacts_json_path(out);
  const fs::path terrain_path = fs::path(out).replace_extension(".terrain.json");
  save_clip(walk.clip, out, save);
  write_file_atomically(contacts_path, [&](std::ostream& s) { write_contacts_json(walk.clip, walk.contacts, ContactSettings{}, s); });
  write_file_atomically(terrain_path, [&](std::ostream& s) { s << walk_terrain_json(walk, settings) << '\n'; });

  const WalkMeasures m = measure_walk(walk.clip, walk.rig, terrain, walk.contacts, settings.limits);
  const std::vector<Figure> figures = walk_figures(walk, m);
  for (const std::string& w : walk.plan.warnings) spdlog::warn("walk: {}", w);
  if (!console_quiet()) {
    const int steps = static_cast<int>(walk.plan.steps.size()) - 2;
    std::printf("walk: %d frames at %g fps, %d footsteps, terrain %s, path %s\n", walk.clip.frame_count, settings.fps,
                steps, to_string(terrain.kind), escape_for_console(opts.path).c_str());
    std::printf("gait: %.2f m steps at %.2f steps/s\n", walk.plan.step_length_m, 1 / walk.plan.step_period_s);
    for (const Figure& f : figures) std::printf("%s\n", f.line.c_str());
  }
  spdlog::info("wrote {}, {}, {}", out.string(), contacts_path.string(), terrain_path.string());
  std::string failed;
  for (const Figure& f : figures)
    if (!f.ok) failed += (failed.empty() ? "" : ", ") + f.name;
  if (opts.check && !failed.empty()) {
    spdlog::error("walk: over its goal: {}", failed);
    return k_exit_check_failed;
  }
  return k_exit_ok;
}

}  // namespace

CLI::App* add_walk_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("walk", "Generate a procedural walk driven 100% by IK over a terrain (with ground-truth contacts)");
  auto opts = std::make_shared<WalkOptions>();
  cmd->add_option("--terrain", opts->terrain, "flat, slope:DEG, hills, stairs, stairs:RISE:RUN, stairs-down, stairs-down:RISE:RUN or a terrain JSON file")
      ->capture_default_str();
  cmd->add_option("--path", opts->path, "straight, turn:DEG or stop-go")->capture_default_str();
  cmd->add_option("--speed", opts->settings.gait.speed_mps, "Walking speed, m/s (0.2..2)")->capture_default_str();
  cmd->add_option("--duration", opts->settings.gait.duration_s, "Clip length, s (2..600)")->capture_default_str();
  cmd->add_option("--fps", opts->settings.fps, "Frame rate (10..480)")->capture_default_str();
  cmd->add_option("--seed", opts->settings.gait.seed, "Seed of the step variations")->capture_default_str();
  cmd->add_option("--skeleton", opts->skeleton, "Walk this BVH's skeleton instead of the built-in humanoid");
  cmd->add_option("--upper-body", opts->upper_body,
                  "With --skeleton: 'frames' loops the clip's upper body, 'rest' keeps its rest pose")
      ->capture_default_str();
  cmd->add_option("--limits", opts->limits, "Joint-limits profile JSON (schemas/joint_limits.schema.json)");
  cmd->add_flag("--check", opts->check, "Exit 6 when an acceptance figure is over its goal");
  cmd->add_option("-o,--output", opts->output, "Output .bvh (also writes <name>.contacts.json and <name>.terrain.json)")
      ->required();
  opts->clip.add_limits_to(*cmd);
  opts->format.add_bvh_unit_to(*cmd, "m, or the unit of --skeleton");
  cmd->footer(
      "Examples:\n"
      "  footfix walk -o walk.bvh                     a straight walk on flat ground (+ contacts, terrain)\n"
      "  footfix walk --terrain stairs --path turn:90 -o stairs.bvh\n"
      "  footfix walk --skeleton mocap.bvh -o w.bvh --check   exit 6 if an acceptance figure is over its goal");
  action = [opts] { return run_walk(*opts); };
  return cmd;
}

}  // namespace footfix::cli
