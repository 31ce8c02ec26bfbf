// libFuzzer target for the BVH reader and what follows it on load and save (bvh_pipeline.h).
// An exception other than footfix::Error escaping is reported by libFuzzer as a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bvh_pipeline.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  footfix::fuzz::run_bvh_pipeline(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
