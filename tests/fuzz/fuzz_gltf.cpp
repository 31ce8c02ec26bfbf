// libFuzzer target for the glTF reader and patcher: what gltf_pipeline.h describes, on .glb or
// .gltf bytes (external buffers are looked for in the working directory).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gltf_pipeline.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    footfix::fuzz::run_gltf_edit_round_trip(bytes, footfix::ReadLimits{});
  } catch (const footfix::fuzz::PipelineFinding& e) {
    std::fprintf(stderr, "finding: %s\n", e.what());
    std::abort();
  }
  return 0;
}
