#include "command.h"

namespace footfix::cli {

CLI::App* add_metrics_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("metrics", "(not yet available)");
  action = [] {
    fail(ErrorKind::usage, "'metrics' is not implemented yet");
    return 0;
  };
  return cmd;
}

}  // namespace footfix::cli
