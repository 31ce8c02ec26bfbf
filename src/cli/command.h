// The command-line front end: each command lives in its own file and registers a CLI11
// subcommand plus the action to run once options are parsed. Only the files that declare options
// include CLI11 (its headers dominate their compile time); this header only names CLI::App.
#pragma once

#include <functional>

#include "cli11_fwd.h"
#include "footfix/batch/exit_codes.h"

namespace footfix::cli {

using Action = std::function<int()>;

/// Each adds its subcommand to `app`, sets `action` to run it, and returns the subcommand.
CLI::App* add_inspect_command(CLI::App& app, Action& action);
CLI::App* add_convert_command(CLI::App& app, Action& action);
CLI::App* add_annotate_command(CLI::App& app, Action& action);
CLI::App* add_clean_command(CLI::App& app, Action& action);
CLI::App* add_metrics_command(CLI::App& app, Action& action);
CLI::App* add_walk_command(CLI::App& app, Action& action);
CLI::App* add_lock_command(CLI::App& app, Action& action);
CLI::App* add_compare_command(CLI::App& app, Action& action);
CLI::App* add_report_command(CLI::App& app, Action& action);
CLI::App* add_docs_command(CLI::App& app, Action& action);  ///< hidden: docs/cli.md, man page

}  // namespace footfix::cli
