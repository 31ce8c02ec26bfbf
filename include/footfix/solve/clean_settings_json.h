// Clean settings as JSON: {"contacts": {...}, "solve": {...}, "ik": {...}}. Every key optional;
// unknown keys are errors (a typo must not silently fall back to a default).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "footfix/contacts/contact_settings_json.h"
#include "footfix/solve/clean.h"

namespace footfix {

/// "fast" or "reference"; throws Error(usage) otherwise.
OfflineSolver parse_offline_solver(const std::string& name);
const char* to_string(OfflineSolver solver);

/// Settings from a JSON object; `where` prefixes messages. Throws Error(usage).
CleanSettings clean_settings_from_json(const nlohmann::json& j, const std::string& where);
/// Reads a settings file. Throws Error(read) for unreadable/invalid JSON, Error(usage) for bad values.
CleanSettings clean_settings_from_json_file(const std::string& path);
nlohmann::json clean_settings_to_json(const CleanSettings& settings);

}  // namespace footfix
