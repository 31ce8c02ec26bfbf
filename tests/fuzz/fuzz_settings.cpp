// libFuzzer target for clean settings JSON ({"contacts": {...}, "solve": {...}, "ik": {...}},
// as `clean --settings` reads it; the contacts part is the contact settings reader):
// clean_settings_from_json, then validate. footfix::Error is the expected outcome for bad input;
// anything else escaping (nlohmann type errors included) is a finding.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>

#include "footfix/core/error.h"
#include "footfix/solve/clean_settings_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  nlohmann::json doc = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return 0;
  try {
    footfix::CleanSettings settings = footfix::clean_settings_from_json(doc, "fuzz.json");
    settings.validate();
  } catch (const footfix::Error&) {
  }
  return 0;
}
