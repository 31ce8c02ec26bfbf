#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <vector>

#include "command.h"
#include "console.h"
#include "footfix/core/allocator.h"
#include "footfix/files/atomic_file.h"
#include "test_hooks.h"
#include "typo_help.h"

int main(int argc, char** argv) {
  using namespace footfix::cli;
  using footfix::k_exit_internal, footfix::k_exit_usage;
  footfix::tune_allocator_for_batches();
  footfix::remove_temporary_files_on_signals();
  install_test_hooks();
  setup_console(Verbosity::normal, ColorMode::automatic);

  CLI::App app{"footfix: removes foot sliding from character animation (BVH, FBX)", "footfix"};
  app.set_version_flag("-V,--version", "footfix " + std::string(FOOTFIX_VERSION), "Print the version and exit");
  app.require_subcommand(1);
  app.fallthrough();  // global options are accepted after the command too
  app.footer(
      "Examples:\n"
      "  footfix clean walk.bvh                      writes walk.clean.bvh + walk.clean.contacts.json\n"
      "  footfix clean clips/ -o out/ --jobs 4       mirrors clips/ under out/\n"
      "  footfix clean clips/ -o out/ --check        CI gate: exit 6 if a clip still slides\n"
      "  footfix annotate walk.fbx -o contacts/      contacts JSON only\n"
      "  footfix inspect walk.bvh                    joints, frame rate, units, legs\n"
      "  footfix help clean                          every option of a command, with defaults\n"
      "Exit codes: 0 ok, 2 usage, 3 read, 4 process, 5 write, 6 check failed, 70 internal error;\n"
      "a batch exits with its most severe failure (70 > 6 > 5 > 4 > 3 > 2).");
  bool quiet = false, verbose = false;
  std::string color = "auto";
  app.add_flag("-q,--quiet", quiet, "Print nothing but errors (and a command's requested output)");
  app.add_flag("-v,--verbose", verbose, "Also print per-clip details");
  app.add_option("--color", color, "Colour the console: auto, always or never (auto honours NO_COLOR)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}));
  struct Entry {
    CLI::App* command;
    Action action;
  };
  std::vector<Entry> commands(10);
  commands[0].command = add_inspect_command(app, commands[0].action);
  commands[1].command = add_convert_command(app, commands[1].action);
  commands[2].command = add_annotate_command(app, commands[2].action);
  commands[3].command = add_clean_command(app, commands[3].action);
  commands[4].command = add_metrics_command(app, commands[4].action);
  commands[5].command = add_walk_command(app, commands[5].action);
  commands[6].command = add_lock_command(app, commands[6].action);
  commands[7].command = add_compare_command(app, commands[7].action);
  commands[8].command = add_report_command(app, commands[8].action);
  commands[9].command = add_docs_command(app, commands[9].action);
  for (auto& entry : commands) {
    std::string footer = entry.command->get_footer();
    entry.command->footer((footer.empty() ? "" : footer + "\n") +
                          "Every command also takes -q (only errors), -v (more details), --color auto|always|never.");
  }

  std::vector<std::string> args(argv + 1, argv + argc);
  if (int code = rewrite_help_and_typos(app, args); code >= 0) return code;
  std::reverse(args.begin(), args.end());  // CLI11 takes them last-first
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::vector<std::string> original(argv + 1, argv + argc);
    report_parse_error(app, original, e);
    return k_exit_usage;
  }
  ColorMode color_mode = ColorMode::automatic;
  parse_color_mode(color, color_mode);
  setup_console(quiet ? Verbosity::quiet : verbose ? Verbosity::verbose : Verbosity::normal, color_mode);
  try {
    for (auto& entry : commands)
      if (entry.command->parsed()) return entry.action();
    return k_exit_usage;
  } catch (const footfix::Error& e) {
    spdlog::error("{}", e.what());
    return exit_code_for(e.kind());
  } catch (const std::exception& e) {
    spdlog::error("internal error: {}", e.what());
    return k_exit_internal;
  } catch (...) {
    spdlog::error("internal error: unknown exception");
    return k_exit_internal;
  }
}
