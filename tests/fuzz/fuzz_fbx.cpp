// libFuzzer target for the FBX reader and patcher (built once include/footfix/io/fbx_document.h
// exists): the document parser (binary and ASCII), writing the document back and parsing that
// again (it must give the same tree), then the clip reader on the same bytes and, on whatever
// reads, the patcher (write_fbx) and a second read. footfix::Error is the expected outcome for
// bad input; anything else escaping, or a written document that does not read back, is a
// finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "footfix/core/error.h"
#include "footfix/io/fbx.h"
#include "footfix/io/fbx_document.h"

namespace {

/// The CLI's limits (input size, --max-memory, --max-duration), but the import in-process: a
/// crash inside assimp must reach the fuzzer, not be turned into a refused clip.
const footfix::ReadLimits k_limits = [] {
  footfix::ReadLimits limits;
  limits.isolate_fbx_import = false;
  return limits;
}();

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "finding: %s\n", what);
  std::abort();
}

void document_round_trip(const std::string& bytes) {
  footfix::FbxDocument doc;
  try {
    doc = footfix::parse_fbx_document(bytes, "fuzz.fbx");
  } catch (const footfix::Error&) {
    return;
  }
  std::ostringstream out;
  try {
    footfix::write_fbx_document(doc, out);
  } catch (const footfix::Error&) {
    return;  // e.g. a value the writer cannot represent; refused, not crashed
  }
  footfix::FbxDocument again;
  try {
    again = footfix::parse_fbx_document(out.str(), "rewritten.fbx");
  } catch (const footfix::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    finding("a written FBX document does not parse");
  }
  if (again.roots.size() != doc.roots.size()) finding("a written FBX document has other top-level nodes");
  for (std::size_t i = 0; i < doc.roots.size(); ++i)
    if (!doc.roots[i].same_tree(again.roots[i])) finding("a written FBX document has another tree");
}

void clip_round_trip(const std::string& bytes) {
  footfix::Clip clip;
  try {
    clip = footfix::read_fbx_bytes(bytes, "fuzz.fbx", "", nullptr, k_limits);
  } catch (const footfix::Error&) {
    return;
  }
  std::ostringstream out;
  try {
    footfix::write_fbx(clip, out);
  } catch (const footfix::Error&) {
    return;
  }
  try {
    footfix::Clip again = footfix::read_fbx_bytes(out.str(), "patched.fbx", "", nullptr, k_limits);
    if (again.frame_count != clip.frame_count || again.joint_count() != clip.joint_count())
      finding("a patched FBX reads back with another shape");
  } catch (const footfix::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    finding("a patched FBX does not read back");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  document_round_trip(bytes);
  clip_round_trip(bytes);
  return 0;
}
