#include "command.h"

namespace footfix::cli {

CLI::App* add_clean_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("clean", "(not yet available)");
  action = [] {
    fail(ErrorKind::usage, "'clean' is not implemented yet");
    return 0;
  };
  return cmd;
}

}  // namespace footfix::cli
