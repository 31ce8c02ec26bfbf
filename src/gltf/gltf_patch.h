// Internal to gltf/: a clip read from glTF written as a patch of its source file (see
// footfix/gltf/gltf.h for the rules).
#pragma once

#include <string>

#include "footfix/gltf/gltf.h"
#include "gltf_source.h"

namespace footfix::gltf {

/// The URI of the external buffer file a patch of `src` appends to (that of the animation's key
/// times); empty when those data lie in a .glb's BIN chunk or an embedded buffer.
std::string animation_buffer_uri(const GltfSource& src);

GltfOutput patch_source(const Clip& clip, const GltfSource& src, const std::string& extras, const std::string& bin_uri);

}  // namespace footfix::gltf
