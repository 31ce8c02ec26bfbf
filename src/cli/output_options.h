// The output options of the commands that write a clip per input (`clean`, `lock`): -o,
// --overwrite (and its deprecated alias --in-place), --dry-run, --follow-symlinks, --jobs,
// --bvh-unit and --fbx-format,
// declared once so that both commands spell, document and apply them the same way.
#pragma once

#include <string>
#include <vector>

#include "cli11_fwd.h"
#include "batch.h"
#include "write_format_options.h"

namespace footfix::cli {

struct ClipOutputOptions {
  std::string output;
  bool overwrite = false;
  bool in_place_alias = false;  ///< deprecated name of --overwrite
  bool dry_run = false;
  bool follow_symlinks = false;
  int jobs = 1;
  WriteFormatOptions format;

  /// Adds the options to `cmd`. `output_help` describes -o; `verb` names the work in the help
  /// of --follow-symlinks and --jobs ("clean": "also clean file symlinks", "Clips cleaned").
  void add_to(CLI::App& cmd, const std::string& output_help, const std::string& verb, const std::string& verb_past);

  /// The output plan: `suffix` beside the input, .bvh/.fbx for a file -o. Warns about and
  /// applies the deprecated --in-place first.
  OutputPlan plan(const std::string& suffix);
};

}  // namespace footfix::cli
