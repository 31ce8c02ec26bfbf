// Reading clean report entries by field name, tolerating absent or mistyped fields (reports may
// come from other footfix versions, or from the user).
#pragma once

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>

namespace footfix::cli {

/// The value at `path` (object keys) below `j`, or nullptr when some key is absent or a parent
/// is not an object.
const nlohmann::json* field_at(const nlohmann::json& j, std::initializer_list<const char*> path);

/// The number at `path`, or `fallback` when absent or not a number.
double number_at(const nlohmann::json& j, std::initializer_list<const char*> path, double fallback);

/// The string at `path`, or "" when absent or not a string.
std::string text_at(const nlohmann::json& j, std::initializer_list<const char*> path);

/// The "clips" array of a report document, or an empty array.
const nlohmann::json& clips_of(const nlohmann::json& report);

/// The p95 residual contact slide of a report entry, metrics.slide_cleaned.p95_cm_per_s (cm/s),
/// or `fallback` when absent.
double residual_slide(const nlohmann::json& entry, double fallback = 0.0);

}  // namespace footfix::cli
