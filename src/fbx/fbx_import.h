// Internal to fbx/: assimp's import of FBX bytes, as the reader uses it (fbx_imported.h). With
// isolation on (the default), assimp runs only in a forked child under resource limits
// (fbx_import_child.h), so that a crash or a blow-up inside it fails one clip with Error(read)
// instead of killing the process.
#pragma once

#include <string>

#include "fbx_imported.h"
#include "footfix/files/read_limits.h"

namespace footfix::fbx {

/// What the reader uses of assimp's import of `bytes`. Throws Error(read) naming `name` if assimp
/// cannot read them (with assimp's reason) or makes more scene nodes than
/// limits.max_memory_bytes allows (fbx::k_bytes_per_scene_node each). With
/// limits.isolate_fbx_import the import runs in a child (see import_in_child for its limits);
/// without, here. Either way the scene comes through the same encoding (fbx_import_wire.h).
/// With `release` (= &bytes, the caller's string), the bytes are emptied as soon as assimp (or
/// the child) has its own copy of them: `bytes` is empty afterwards.
ImportedScene import_fbx(const std::string& bytes, const std::string& name, const ReadLimits& limits,
                         std::string* release = nullptr);

}  // namespace footfix::fbx
