// libFuzzer target for the FBX reader and patcher (built once src/io/fbx_document.h
// exists): what fbx_pipeline.h describes. The document parser (binary and ASCII), writing the
// document back and parsing that again (it must give the same tree); then the clip reader on the
// same bytes and, on whatever reads, an edit of the leg and root joints, the patcher (write_fbx)
// and a second read that must put every joint where the edit did. footfix::Error is the expected
// outcome for bad input; anything else escaping, or a written file that does not read back the
// same, is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fbx_pipeline.h"

namespace {

/// The CLI's limits (input size, --max-memory, --max-duration), but the import in-process: a
/// crash inside assimp must reach the fuzzer, not be turned into a refused clip.
const footfix::ReadLimits k_limits = [] {
  footfix::ReadLimits limits;
  limits.isolate_fbx_import = false;
  return limits;
}();

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    footfix::fuzz::run_fbx_document_round_trip(bytes);
    footfix::fuzz::run_fbx_edit_round_trip(bytes, k_limits);
  } catch (const footfix::fuzz::PipelineFinding& e) {
    std::fprintf(stderr, "finding: %s\n", e.what());
    std::abort();
  }
  return 0;
}
