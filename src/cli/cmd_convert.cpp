#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <cctype>
#include <filesystem>

#include "clip_options.h"
#include "command.h"
#include "footfix/batch/output_guard.h"
#include "footfix/io/clip_io.h"
#include "write_format_options.h"

namespace footfix::cli {
namespace {

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

}  // namespace

CLI::App* add_convert_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "convert",
      "Re-emit a clip through footfix's internal model: BVH to BVH, FBX to BVH, or FBX to FBX (a round-trip check; "
      "BVH to FBX is not supported); any clip to glTF (.gltf, .glb)");
  struct Options {
    std::string input, output;
    bool overwrite = false;
    bool in_place_alias = false;
    ClipOptions clip;
    WriteFormatOptions format;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("input", opts->input, "Input clip (.bvh, .fbx, .gltf, .glb)")->required();
  cmd->add_option("output", opts->output, "Output clip: .bvh, .gltf/.glb, or .fbx from an .fbx input")->required();
  cmd->add_flag("--overwrite", opts->overwrite, "Allow the output to be the input file");
  cmd->add_flag("--in-place", opts->in_place_alias, "Deprecated name of --overwrite")->group("");
  opts->clip.add_to(*cmd);
  opts->format.add_bvh_unit_to(*cmd, "the input's unit");
  opts->format.add_fbx_format_to(*cmd);
  cmd->footer(
      "Examples:\n"
      "  footfix convert walk.fbx walk.bvh           FBX to BVH\n"
      "  footfix convert walk.bvh walk.glb           BVH to a skeleton-only glTF (three.js, Blender)\n"
      "  footfix convert walk.bvh roundtrip.bvh      BVH to BVH\n"
      "  footfix convert walk.bvh walk_cm.bvh --bvh-unit cm   BVH in centimeters (Maya, MotionBuilder)\n"
      "  footfix convert walk.fbx walk_bin.fbx --fbx-format binary   ASCII FBX to binary (Blender)");
  action = [opts] {
    if (opts->in_place_alias) spdlog::warn("--in-place is deprecated: use --overwrite");
    const std::string in_ext = lower_extension(opts->input), out_ext = lower_extension(opts->output);
    if (out_ext != ".bvh" && out_ext != ".fbx" && out_ext != ".gltf" && out_ext != ".glb")
      fail(ErrorKind::usage,
           opts->output + ": unknown output extension '" + out_ext + "' (expected .bvh, .fbx, .gltf or .glb)");
    if (out_ext == ".fbx" && in_ext != ".fbx")
      fail(ErrorKind::usage, opts->output + ": FBX output needs an FBX input (BVH to FBX is not supported)");
    ReadOptions read = opts->clip.resolve();
    SaveOptions save = opts->format.resolve();
    refuse_to_overwrite_input(opts->input, opts->output, opts->overwrite || opts->in_place_alias);
    LoadedClip loaded = load_clip(opts->input, read);
    for (const auto& w : loaded.warnings) spdlog::warn("{}: {}", opts->input, w);
    for (const auto& w : save_warnings(loaded.clip, opts->output, save)) spdlog::warn("{}: {}", opts->input, w);
    save_clip(loaded.clip, opts->output, save);
    spdlog::info("wrote {}", opts->output);
    return k_exit_ok;
  };
  return cmd;
}

}  // namespace footfix::cli
