#include "command.h"

namespace footfix::cli {

CLI::App* add_inspect_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("inspect", "(not yet available)");
  action = [] {
    fail(ErrorKind::usage, "'inspect' is not implemented yet");
    return 0;
  };
  return cmd;
}

}  // namespace footfix::cli
