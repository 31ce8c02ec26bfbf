// Clean settings as JSON: {"contacts": {...}, "solve": {...}, "ik": {...}, "pops": {...}}. Every key optional;
// unknown keys are errors (a typo must not silently fall back to a default). Accepted ranges:
//   contacts: see ContactSettingField (contact_settings.h)
//   solve.solver "fast" | "reference"     solve.reference_iterations integer in [1, 100000]
//   solve.soft_factor in [0.005, 0.45]    solve.hard_factor in [0.05, 0.99]
//   solve.reach_limit true | false        solve.swing_blend_s in [0, 1] (s; after reach_limit)
//   ik.softness_m in [0.0005, 0.05] (m)   ik.max_foot_pitch_deg in [0, 60]
//   solve.short_swing_s in [0, 1] (s)     pops.max_ratio 0 (off) or in [1.05, 100]
//   solve.pelvis_height in [0, 100] (after reach_limit)
// Anything outside is Error(usage) naming the key and its range.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "contacts/contact_settings_json.h"
#include "footfix/solve/clean.h"

namespace footfix {

/// "fast" or "reference"; throws Error(usage) otherwise.
OfflineSolver parse_offline_solver(const std::string& name);
const char* to_string(OfflineSolver solver);

/// Settings from a JSON object; `where` prefixes messages. Throws Error(usage).
CleanSettings clean_settings_from_json(const nlohmann::json& j, const std::string& where);
/// Reads a settings file. Throws Error(read) for an unreadable file, Error(usage) for invalid
/// JSON (naming line and column) or bad values.
CleanSettings clean_settings_from_json_file(const std::string& path);
nlohmann::json clean_settings_to_json(const CleanSettings& settings);

}  // namespace footfix
