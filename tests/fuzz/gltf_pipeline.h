// What the glTF fuzz target does with one input, shared with the fixed-seed mutation test
// (gltf_mutation_test.cpp): read_gltf_bytes; on whatever reads, the conversion to the internal
// frame, the FBX pipeline's edit of the leg and root joints (fbx_pipeline.h), write_gltf (which
// then patches those joints' channels) and a second read, whose joints must lie where the edit
// put them. footfix::Error from any step is the expected outcome for bad input; anything else
// escaping, or a patched file that does not read back the same, is a finding (PipelineFinding).
#pragma once

#include <sstream>
#include <string>

#include "fbx_pipeline.h"  // pick_edited_joints, apply_edit, world_extent, PipelineFinding
#include "footfix/io/gltf.h"

namespace footfix::fuzz {

enum class GltfOutcome { rejected_by_reader, rejected_later, round_tripped };

inline Clip read_gltf_internal(const std::string& bytes, const std::string& name, const ReadLimits& limits) {
  Clip clip = read_gltf_bytes(bytes, name, "", nullptr, limits);
  const SourceFrame frame = clip.source_frame;
  convert_to_internal(clip, frame);
  return clip;
}

/// World positions of an edited clip after write_gltf and a second read agree within 1 mm plus
/// 1e-6 of the clip's extent (float32 keys).
inline GltfOutcome run_gltf_edit_round_trip(const std::string& bytes, const ReadLimits& limits) {
  Clip clip;
  try {
    clip = read_gltf_internal(bytes, "fuzz.glb", limits);
  } catch (const Error&) {
    return GltfOutcome::rejected_by_reader;
  }
  if (clip.frame_count <= 0 || clip.joint_count() <= 0 || !all_finite(clip)) return GltfOutcome::rejected_later;
  apply_edit(clip, pick_edited_joints(clip));
  std::ostringstream out;
  try {
    write_gltf(clip, out, true);
  } catch (const Error&) {
    return GltfOutcome::rejected_later;
  }
  Clip again;
  try {
    again = read_gltf_internal(out.str(), "patched.glb", limits);
  } catch (const Error& e) {
    throw PipelineFinding(std::string("a patched glTF does not read back: ") + e.what());
  }
  if (again.frame_count != clip.frame_count || again.joint_count() != clip.joint_count() ||
      again.skeleton.names != clip.skeleton.names)
    throw PipelineFinding("a patched glTF reads back with another shape");
  const double tolerance = 1e-3 + 1e-6 * world_extent(clip);
  const double distance = test::common_world_distance(clip, again);
  if (!(distance <= tolerance))
    throw PipelineFinding("a patched glTF puts a joint " + std::to_string(distance) + " m from the edit (tolerance " +
                          std::to_string(tolerance) + " m)");
  return GltfOutcome::round_tripped;
}

}  // namespace footfix::fuzz
