// libFuzzer target for the rig profile JSON reader. footfix::Error is the expected outcome for
// bad input; anything else escaping (nlohmann exceptions included) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "footfix/core/error.h"
#include "footfix/rig/leg_rig.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    footfix::parse_rig_profile(text, "fuzz.json");
  } catch (const footfix::Error&) {
  }
  return 0;
}
