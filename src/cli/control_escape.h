// Escaping of control characters in names and paths taken from files, for every text footfix
// shows to a person: the console, and the HTML and JUnit reports. Uses neither spdlog nor CLI11.
#pragma once

#include <string>
#include <string_view>

namespace footfix::cli {

/// Returns `text` with every C0 control character (U+0000..U+001F), DEL (U+007F) and C1 control
/// character (U+0080..U+009F), bidi and line-separator control, and the noncharacters U+FFFE and
/// U+FFFF (invalid in XML) replaced by a visible escape (\n, \t, \r, \e, \xNN, \u0085), and
/// every byte that is not part of valid UTF-8 written as \xNN. It also breaks the CI runners' log
/// commands, which a CI job would otherwise obey in footfix's output:
///   - every "##" becomes "#\x23": GitHub's `##[command]` and Azure Pipelines' `##vso[command]`,
///     which both runners take anywhere in a line;
///   - a "::" that begins the text, after any whitespace, becomes "\x3a:": GitHub's
///     `::command::`, which its runner takes at the start of a line after trimming whitespace.
/// Other printable text is unchanged. Use it for every name and path printed to the console or
/// written into a report page.
std::string escape_for_console(std::string_view text);

/// JSON text (as nlohmann dumps it) with every "##" written "#\u0023": the same JSON value, and
/// no CI log command in it. (A JSON line starts with a brace, a bracket, a quote, a digit or a
/// letter, never "::".) Use it for every JSON document printed to the console.
std::string json_for_console(std::string json_text);

}  // namespace footfix::cli
