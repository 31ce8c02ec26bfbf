#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <exception>
#include <vector>

#include "command.h"

namespace footfix::cli {

int exit_code_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::usage: return k_exit_usage;
    case ErrorKind::read: return k_exit_read;
    case ErrorKind::process: return k_exit_process;
    case ErrorKind::write: return k_exit_write;
  }
  return k_exit_internal;
}

}  // namespace footfix::cli

int main(int argc, char** argv) {
  using namespace footfix::cli;
  auto logger = spdlog::stderr_color_mt("footfix");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%^%l%$: %v");

  CLI::App app{"footfix: removes foot sliding from character animation (BVH, FBX)", "footfix"};
  app.set_version_flag("--version", std::string(FOOTFIX_VERSION));
  app.require_subcommand(1);
  struct Entry {
    CLI::App* command;
    Action action;
  };
  std::vector<Entry> commands(7);
  commands[0].command = add_inspect_command(app, commands[0].action);
  commands[1].command = add_convert_command(app, commands[1].action);
  commands[2].command = add_annotate_command(app, commands[2].action);
  commands[3].command = add_clean_command(app, commands[3].action);
  commands[4].command = add_metrics_command(app, commands[4].action);
  commands[5].command = add_report_command(app, commands[5].action);
  commands[6].command = add_docs_command(app, commands[6].action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? k_exit_ok : k_exit_usage;
  }
  try {
    for (auto& entry : commands)
      if (entry.command->parsed()) return entry.action();
    return k_exit_usage;
  } catch (const footfix::Error& e) {
    spdlog::error("{}", e.what());
    return exit_code_for(e.kind());
  } catch (const std::exception& e) {
    spdlog::critical("internal error: {}", e.what());
    return k_exit_internal;
  }
}
