#include "command.h"

namespace footfix::cli {

CLI::App* add_annotate_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("annotate", "(not yet available)");
  action = [] {
    fail(ErrorKind::usage, "'annotate' is not implemented yet");
    return 0;
  };
  return cmd;
}

}  // namespace footfix::cli
