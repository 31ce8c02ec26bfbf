// Reading the top level of a JSON document a user may have written (a report given to `report
// merge`, the incremental manifest) by field name, tolerating absent or mistyped fields. A clip's
// entry is read typed (batch/clip_report_json.h).
#pragma once

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>

namespace footfix {

/// The value at `path` (object keys) below `j`, or nullptr when some key is absent or a parent
/// is not an object.
const nlohmann::json* field_at(const nlohmann::json& j, std::initializer_list<const char*> path);

/// The number at `path`, or `fallback` when absent or not a number.
double number_at(const nlohmann::json& j, std::initializer_list<const char*> path, double fallback);

/// The string at `path`, or "" when absent or not a string.
std::string text_at(const nlohmann::json& j, std::initializer_list<const char*> path);

}  // namespace footfix
