// Escaping text for XML and HTML output.
#pragma once

#include <string>

namespace footfix::cli {

/// `text` with & < > " ' escaped and control characters other than tab and newlines replaced by
/// spaces (they are not allowed in XML 1.0). Safe in element content and quoted attributes.
std::string xml_escape(const std::string& text);

}  // namespace footfix::cli
