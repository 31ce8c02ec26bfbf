// Internal (library and CLI): JSON text that never fails on the bytes it holds. Names and paths
// come from files and may not be UTF-8; nlohmann's dump() throws on those, so every JSON footfix
// writes goes through json_text, which writes each invalid byte as U+FFFD.
#pragma once

#include <string>
#include <string_view>

#include "footfix/core/error.h"

namespace footfix {

/// The deepest nesting of arrays and objects footfix reads in any JSON file. Its own files nest
/// six levels at most; the bound keeps a hostile file from exhausting the stack of the recursive
/// parts of nlohmann (the tree's destructor, dump).
inline constexpr int k_max_json_nesting = 64;

/// The deepest nesting of arrays and objects in JSON text; brackets inside strings do not count.
/// Stops counting past `limit` (returns limit + 1, with `*past_limit_at` the offset of the
/// bracket that went past it, where given).
int json_nesting_depth(std::string_view text, int limit = k_max_json_nesting, size_t* past_limit_at = nullptr);

/// Throws Error(kind) "<what>: JSON nested deeper than 64 levels at line L, column C" (the
/// bracket that opens the 65th level) when `text` is. Call it on every JSON text before parsing it.
void refuse_deep_json(std::string_view text, const std::string& what, ErrorKind kind);

/// `j.dump(indent)` with invalid UTF-8 replaced (U+FFFD) instead of throwing.
template <class Json>
std::string json_text(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace footfix
