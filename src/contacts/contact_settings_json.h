// Contact settings as JSON (settings files, the contacts file, command-line overrides). Kept
// apart from contact_settings.h so that the library's core headers do not need nlohmann_json.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>

#include "footfix/contacts/contact_settings.h"

namespace footfix {

/// Reads settings from a JSON object whose keys are field names; absent keys keep `base`'s
/// values. Throws Error(usage) for unknown keys, wrong types and invalid values; messages start
/// with `where` (e.g. the settings file name).
ContactSettings contact_settings_from_json(const nlohmann::json& j, const ContactSettings& base = {},
                                           const std::string& where = "contact settings");
/// Every field as a JSON object, in declaration order.
nlohmann::ordered_json contact_settings_to_json(const ContactSettings& settings);

}  // namespace footfix
