// Everything footfix writes to the terminal goes through here: one log sink for every command
// (level prefix "error:", "warning:", ...), verbosity (-q/-v), colour (--color, NO_COLOR), the
// progress line (cleared before each message and redrawn after), and escaping of control
// characters so that a name or path read from a file cannot forge a line or drive the terminal.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "control_escape.h"

namespace footfix::cli {

enum class ColorMode { automatic, always, never };
enum class Verbosity { quiet, normal, verbose };

/// Parses "auto", "always", "never". Returns false for anything else.
bool parse_color_mode(const std::string& text, ColorMode& mode);

/// Installs footfix's logger as spdlog's default. Colour: `always`/`never` as given; `automatic`
/// colours when stderr is a terminal, NO_COLOR is unset or empty and TERM is not "dumb".
void setup_console(Verbosity verbosity, ColorMode color);

/// Whether informational output (progress line) should be shown: not under -q.
bool console_quiet();

/// The progress line "[n/total] name" on stderr, only when stderr is a terminal and not quiet.
/// Log messages clear it first and redraw it after. progress_end() removes it.
void progress_update(size_t done, size_t total, const std::string& name);
void progress_end();

/// "1 clip", "3 clips": `n` and `noun`, with an "s" unless n is 1.
std::string counted(size_t n, std::string_view noun);

/// Writes "error: <escaped message>" (used before the logger exists, e.g. for parse errors).
void print_error(std::string_view message);

}  // namespace footfix::cli
