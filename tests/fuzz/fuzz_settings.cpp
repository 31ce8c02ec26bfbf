// libFuzzer target for clean settings JSON ({"contacts": {...}, "solve": {...}, "ik": {...}},
// as `clean --settings` reads it): clean_settings_from_json and validate, then, on accepted
// settings, contact detection and the whole clean on a small synthetic walk
// (settings_pipeline.h). footfix::Error is the expected outcome for bad input; anything else
// escaping (nlohmann type errors included) is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "settings_pipeline.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  footfix::fuzz::run_settings_pipeline(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
