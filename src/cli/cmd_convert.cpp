#include "command.h"

namespace footfix::cli {

CLI::App* add_convert_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("convert", "(not yet available)");
  action = [] {
    fail(ErrorKind::usage, "'convert' is not implemented yet");
    return 0;
  };
  return cmd;
}

}  // namespace footfix::cli
