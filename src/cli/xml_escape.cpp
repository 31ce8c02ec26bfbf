#include "xml_escape.h"

#include "control_escape.h"

namespace footfix::cli {

std::string xml_escape(const std::string& text) {
  const std::string visible = escape_for_console(text);
  std::string out;
  out.reserve(visible.size());
  for (char c : visible) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace footfix::cli
