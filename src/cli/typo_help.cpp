#include "typo_help.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>

#include "command.h"
#include "console.h"
#include "core/nearest_name.h"

namespace footfix::cli {
namespace {

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  return names;
}

/// "inspect, convert, ...": every command a user runs (not the hidden ones), in help's order.
std::string command_list(const CLI::App& app) {
  std::string list;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    list += (list.empty() ? "" : ", ") + sub->get_name();
  return list;
}

/// Whether `arg` reads as a number ("-1", "-0.5e3"): a value, not an option.
bool is_number(const std::string& arg) {
  char* end = nullptr;
  std::strtod(arg.c_str(), &end);
  return !arg.empty() && end == arg.c_str() + arg.size();
}

const CLI::App* find_command(const CLI::App& app, const std::string& name) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->get_name() == name) return sub;
  return nullptr;
}

/// Index of the first argument that is not an option or an option's value; args.size() if none.
size_t first_positional(const std::vector<std::string>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--color") {
      ++i;
      continue;
    }
    if (args[i].empty() || args[i][0] != '-') return i;
  }
  return args.size();
}

void option_names(const CLI::App& cmd, std::vector<std::string>& names) {
  for (const CLI::Option* option : cmd.get_options()) {
    for (const auto& l : option->get_lnames()) names.push_back("--" + l);
    for (const auto& s : option->get_snames()) names.push_back("-" + s);
  }
}

}  // namespace

int rewrite_help_and_typos(const CLI::App& app, std::vector<std::string>& args) {
  if (args.empty()) {
    print_error("a command is required: " + command_list(app) + " (footfix help COMMAND)");
    return k_exit_usage;
  }
  size_t at = first_positional(args);
  if (at == args.size()) return -1;
  if (args[at] == "help") {
    // Every word after `help` is a command or a subcommand of it (help report merge).
    std::vector<std::string> rewritten(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(at));
    rewritten.insert(rewritten.end(), args.begin() + static_cast<std::ptrdiff_t>(at) + 1, args.end());
    rewritten.push_back("--help");
    args = rewritten;
    at = first_positional(args);
    if (at == args.size()) return -1;
  }
  if (find_command(app, args[at])) return -1;
  std::string message = "unknown command '" + args[at] + "'";
  std::string near = nearest_name(args[at], command_names(app));
  if (!near.empty()) message += "; did you mean '" + near + "'?";
  print_error(message + " (commands: " + command_list(app) + ")");
  return k_exit_usage;
}

void report_parse_error(const CLI::App& app, const std::vector<std::string>& args, const CLI::ParseError& error) {
  size_t at = first_positional(args);
  const CLI::App* cmd = at < args.size() ? find_command(app, args[at]) : nullptr;
  const std::string help = std::string(" (footfix help") + (cmd ? " " + cmd->get_name() : std::string()) + " lists the options)";
  std::vector<std::string> names;
  option_names(app, names);
  if (cmd) option_names(*cmd, names);
  // An unknown option gets one line, with its likely name when there is one, instead of CLI11's.
  bool named = false;
  for (const auto& arg : args) {
    if (arg.size() < 2 || arg[0] != '-' || arg == "--" || is_number(arg)) continue;
    std::string name = arg.substr(0, arg.find('='));
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    std::string near = nearest_name(name, names);
    print_error("unknown option '" + name + "'" + (near.empty() ? "" : "; did you mean " + near + "?") + help);
    named = true;
  }
  if (!named) print_error(error.what() + help);
}

}  // namespace footfix::cli
