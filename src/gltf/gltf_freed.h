// Internal to gltf/: which animation samplers, accessors and buffer views of a glTF document a
// patch leaves unreferenced when it points some channels at new samplers, so that the patch can
// reuse their slots (indices stay put; nothing else in the file is renumbered) instead of
// leaving unused objects behind.
#pragma once

#include <vector>

#include "gltf_document.h"

namespace footfix::gltf {

struct Freed {
  /// Samplers of the animation that only replaced channels use, ascending.
  std::vector<size_t> samplers;
  /// Accessors that only those samplers use (no mesh, skin, other sampler or extension member
  /// names them), ascending.
  std::vector<size_t> accessors;
  /// Buffer views that only those accessors use (no other accessor, image or extension), ascending.
  std::vector<size_t> views;
};

/// What retargeting `replaced_channels` (flags per channel of animations[animation]) frees in
/// `json`. References are counted conservatively: any integer under a key that names an accessor
/// ("input", "output", "indices", "inverseBindMatrices", "accessor", any member of "attributes"
/// or of a morph target) or a buffer view ("bufferView") anywhere in the document, extensions
/// included, keeps that object.
Freed freed_by_retargeting(const Json& json, size_t animation, const std::vector<char>& replaced_channels);

}  // namespace footfix::gltf
