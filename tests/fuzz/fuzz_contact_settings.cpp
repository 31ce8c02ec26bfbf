// libFuzzer target for contact settings read from JSON (contact_settings_from_json, then
// validate, as a settings file is used). footfix::Error is the expected outcome for bad input;
// anything else escaping (nlohmann type errors included) is a finding.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>

#include "footfix/contacts/contact_settings.h"
#include "footfix/core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  nlohmann::json doc = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return 0;
  try {
    footfix::ContactSettings settings = footfix::contact_settings_from_json(doc, {}, "fuzz.json");
    settings.validate();
  } catch (const footfix::Error&) {
  }
  return 0;
}
