// Escaping of control characters in names and paths taken from files, for every text footfix
// shows to a person: the console, and the HTML and JUnit reports. Uses neither spdlog nor CLI11.
#pragma once

#include <string>
#include <string_view>

namespace footfix::cli {

/// Returns `text` with every C0 control character (U+0000..U+001F), DEL (U+007F) and C1 control
/// character (U+0080..U+009F) replaced by a visible escape (\n, \t, \r, \e, \xNN, \u0085), and
/// every byte that is not part of valid UTF-8 written as \xNN. Printable text is unchanged.
/// Use it for every name and path printed to the console or written into a report page.
std::string escape_for_console(std::string_view text);

}  // namespace footfix::cli
