#include "output_options.h"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

namespace footfix::cli {

void ClipOutputOptions::add_to(CLI::App& cmd, const std::string& output_help, const std::string& verb,
                               const std::string& verb_past) {
  cmd.add_option("-o,--output", output, output_help);
  cmd.add_flag("--overwrite", overwrite, "Allow writing over the inputs (off: an input is never overwritten)");
  cmd.add_flag("--in-place", in_place_alias, "Deprecated name of --overwrite")->group("");
  cmd.add_flag("-n,--dry-run", dry_run, "Print the plan (input -> outputs) and write nothing");
  cmd.add_flag("--follow-symlinks", follow_symlinks,
               "In directories, also " + verb + " file symlinks whose target is outside the directory");
  cmd.add_option("-j,--jobs", jobs, "Clips " + verb_past + " in parallel (output is identical for any value)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  format.add_bvh_unit_to(cmd, "the input's unit");
  format.add_fbx_format_to(cmd);
}

OutputPlan ClipOutputOptions::plan(const std::string& suffix) {
  if (in_place_alias) {
    spdlog::warn("--in-place is deprecated: use --overwrite");
    overwrite = true;
  }
  OutputPlan plan;
  plan.output = output;
  plan.suffix = suffix;
  plan.overwrite = overwrite;
  plan.file_extensions = {".bvh", ".fbx", ".gltf", ".glb"};
  plan.follow_symlinks = follow_symlinks;
  return plan;
}

}  // namespace footfix::cli
