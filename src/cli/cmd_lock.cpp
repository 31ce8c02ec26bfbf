// footfix lock CLIP... [-o OUT]: the clip as a runtime foot lock would show it (one frame at a
// time, causal contacts, inertialized lock/unlock), plus <name>.lock.json.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include "batch.h"
#include "clip_options.h"
#include "console.h"
#include "command.h"
#include "footfix/bvh/bvh.h"
#include "footfix/files/atomic_file.h"
#include "footfix/io/clip_io.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/lock/lock_clip.h"
#include "footfix/lock/lock_json.h"
#include "lock_options.h"
#include "output_options.h"

namespace footfix::cli {
namespace {

struct LockCommandOptions {
  std::vector<std::string> inputs;
  ClipOutputOptions out;
  ClipOptions clip;
  LockOptions lock;
};

std::filesystem::path lock_json_path(const std::filesystem::path& clip_output) {
  std::filesystem::path p = clip_output;
  p.replace_extension(".lock.json");
  return p;
}

void lock_one(const BatchItem& item, const ReadOptions& read, const SaveOptions& save, const CleanSettings& clean,
              const RuntimeLockSettings& runtime, bool offline_contacts, std::optional<Vec3> ground_velocity,
              GroundQuery ground) {
  const std::string input = item.input;
  ReadOptions clip_read = read;
  clip_read.limits.keep_bvh_text = is_bvh_path(item.output);  // the text serves a BVH output only
  LoadedClip loaded = load_clip(item.input, clip_read);
  ContactResult offline;
  if (offline_contacts) offline = detect_contacts(loaded.clip, loaded.rig, clean.contacts);
  LockClipResult result = lock_clip(loaded.clip, loaded.rig, runtime, offline_contacts ? &offline : nullptr, ground_velocity, ground);
  // Channels the written file adds to say the locked motion, in the lock JSON and on the console.
  SaveOptions clip_save = save;
  const std::vector<std::string> save_notes = save_warnings(result.locked, item.output, clip_save);
  result.warnings.insert(result.warnings.end(), save_notes.begin(), save_notes.end());
  save_clip(result.locked, item.output, clip_save);
  write_file_atomically(lock_json_path(item.output), [&](std::ostream& out) {
    write_lock_json(loaded.clip, loaded.rig, result, runtime, out);
  });
  for (const auto& w : loaded.warnings) spdlog::warn("{}: {}", input, w);
  for (const auto& w : result.warnings) spdlog::warn("{}: {}", input, w);
  size_t locks[2] = {0, 0};
  for (int side = 0; side < 2; ++side) {
    const auto& locked = result.feet[side].locked;
    for (size_t f = 0; f < locked.size(); ++f) locks[side] += locked[f] && (f == 0 || !locked[f - 1]);
  }
  spdlog::info("locked {} -> {}: {} ({} left, {} right)", input, item.output,
               counted(locks[0] + locks[1], "lock"), locks[0], locks[1]);
}

}  // namespace

CLI::App* add_lock_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("lock", "Runtime foot lock, frame by frame: write the clip as a game runtime would show it + <name>.lock.json");
  auto o = std::make_shared<LockCommandOptions>();
  cmd->add_option("inputs", o->inputs, "Clips (.bvh, .fbx) or directories (searched recursively)")->required();
  o->out.add_to(*cmd,
                "Output file (one input) or directory (mirrors input directories). Default: <name>.locked.<ext> beside the input",
                "read", "processed");
  o->clip.add_to(*cmd);
  o->lock.add_to(*cmd);
  cmd->footer(
      "Examples:\n"
      "  footfix lock walk.bvh                        walk.locked.bvh + walk.locked.lock.json beside it\n"
      "  footfix lock clips/ -o locked/ --blend-time 0.5   mirrors clips/ under locked/\n"
      "  footfix lock run_inplace.bvh --ground-velocity 0,-3   an in-place run on a treadmill moving 3 m/s along -Z\n"
      "  footfix lock stairs.bvh --terrain stairs.terrain.json   a walk from `footfix walk` on its own terrain");
  action = [o] {
    OutputPlan plan = o->out.plan(k_lock_suffix);
    ReadOptions read = o->clip.resolve();
    const SaveOptions save = o->out.format.resolve();
    CleanSettings clean;
    RuntimeLockSettings runtime;
    o->lock.resolve(clean, runtime);
    const std::optional<Vec3> ground_velocity = o->lock.ground_velocity_mps();
    const Terrain terrain = o->lock.resolve_terrain();
    // Flat: no query (the detector's own ground), as before the option.
    const GroundQuery ground = terrain.kind == TerrainKind::flat ? GroundQuery{} : terrain_ground_query(terrain);
    plan.finish_item = [](BatchItem& item) { item.companion = lock_json_path(item.output); };
    auto items = plan_batch(o->inputs, plan, log_plan_note);
    if (o->out.dry_run) {
      print_plan(items);
      return static_cast<int>(k_exit_ok);
    }
    const auto started = std::chrono::steady_clock::now();
    auto outcomes = run_console_batch(items, o->out.jobs, [&](const BatchItem& item, size_t) {
      lock_one(item, read, save, clean, runtime, o->lock.offline_contacts, ground_velocity, ground);
    });
    return summarize_batch(items, outcomes, "locked", {seconds_since(started), 0});
  };
  return cmd;
}

}  // namespace footfix::cli
