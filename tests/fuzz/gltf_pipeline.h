// What the glTF fuzz target does with one input, shared with the fixed-seed mutation test
// (gltf_mutation_test.cpp): read_gltf_bytes; on whatever reads, the conversion to the internal
// frame, the FBX pipeline's edit of the leg and root joints (fbx_pipeline.h), write_gltf (which
// then patches those joints' channels) and a second read, whose joints must lie where the edit
// put them. footfix::Error from any step is the expected outcome for bad input; anything else
// escaping, or a patched file that does not read back the same, is a finding (PipelineFinding).
#pragma once

#include <sstream>
#include <string>

#include "fbx_pipeline.h"  // run_edit_round_trip
#include "footfix/gltf/gltf.h"

namespace footfix::fuzz {

using GltfOutcome = EditOutcome;

inline Clip read_gltf_internal(const std::string& bytes, const std::string& name, const ReadLimits& limits) {
  Clip clip = read_gltf_bytes(bytes, name, "", nullptr, limits);
  const SourceFrame frame = clip.source_frame;
  convert_to_internal(clip, frame);
  return clip;
}

/// The edit round trip (fbx_pipeline.h) through write_gltf.
inline GltfOutcome run_gltf_edit_round_trip(const std::string& bytes, const ReadLimits& limits) {
  return run_edit_round_trip(
      bytes, "glTF", [&](const std::string& b, const std::string& name) { return read_gltf_internal(b, name + ".glb", limits); },
      [](const Clip& clip, std::ostream& out) { write_gltf(clip, out, true); });
}

}  // namespace footfix::fuzz
