// The command-line front end: each command lives in its own file and registers a CLI11
// subcommand plus the action to run once options are parsed. Only src/cli uses CLI11/spdlog.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

#include "footfix/core/error.h"

namespace footfix::cli {

/// Exit codes by class of failure. When several failures happen in one run, the exit code is the
/// most severe one, ranked: internal (70) > check failed (6) > write (5) > process (4) > read (3)
/// > usage (2) > ok (0). So a failed `--check` is never hidden by a clip that could not be read,
/// and a bug is never hidden by anything.
enum ExitCode : int {
  k_exit_ok = 0,
  k_exit_usage = 2,
  k_exit_read = 3,
  k_exit_process = 4,
  k_exit_write = 5,
  k_exit_check_failed = 6,  ///< `clean --check`: a clip is over the quality threshold
  k_exit_internal = 70,     ///< a bug: an unexpected exception
};

int exit_code_for(ErrorKind kind);

/// The more severe of two exit codes by the ranking above (an unknown code ranks as internal).
int most_severe_exit_code(int a, int b);

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
