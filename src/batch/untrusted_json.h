// Parsing a JSON file that a contributor may have written (the incremental manifest, a report
// given to `report`): bounded nesting, and every syntax error located, never quoted.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "footfix/core/error.h"

namespace footfix {

/// `text` parsed. Throws Error(kind) "<what>: JSON nested deeper than 64 levels at line L,
/// column C" or "<what>: not valid JSON at line L, column C" (no content of the file).
nlohmann::json parse_untrusted_json(std::string_view text, const std::string& what, ErrorKind kind);

}  // namespace footfix
