// Help for mistyped commands and options, and `footfix help COMMAND`.
#pragma once

#include <string>
#include <vector>

#include "cli11_fwd.h"

namespace footfix::cli {

/// Rewrites `help [COMMAND]` to `[COMMAND] --help`. For an unknown command, prints
/// "error: unknown command 'claen'" with the nearest command ("did you mean 'clean'?") and returns
/// the usage exit code. Returns -1 when parsing should go on. `args` excludes argv[0], in order.
int rewrite_help_and_typos(const CLI::App& app, std::vector<std::string>& args);

/// Prints a parse error as "error: ...", adding the nearest option name for each unknown option
/// in `args` ("--ouput": did you mean --output?).
void report_parse_error(const CLI::App& app, const std::vector<std::string>& args, const CLI::ParseError& error);

}  // namespace footfix::cli
