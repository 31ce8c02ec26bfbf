// Internal (library and CLI): JSON text that never fails on the bytes it holds. Names and paths
// come from files and may not be UTF-8; nlohmann's dump() throws on those, so every JSON footfix
// writes goes through json_text, which writes each invalid byte as U+FFFD.
#pragma once

#include <string>

namespace footfix {

/// `j.dump(indent)` with invalid UTF-8 replaced (U+FFFD) instead of throwing.
template <class Json>
std::string json_text(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace footfix
