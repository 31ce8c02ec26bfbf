// Escaping text for XML and HTML output.
#pragma once

#include <string>

namespace footfix::cli {

/// `text` with & < > " ' escaped and every control character (C0 including newline and tab, DEL,
/// C1) and invalid UTF-8 byte written as a visible escape, as on the console (\n, \e, \x7f,
/// \u009b): a name taken from a file cannot break a line or carry a terminal sequence into the
/// page, and the result is valid XML 1.0. Safe in element content and quoted attributes.
std::string xml_escape(const std::string& text);

}  // namespace footfix::cli
