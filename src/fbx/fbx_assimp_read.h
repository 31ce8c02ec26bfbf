// Internal to fbx/: assimp's import of FBX bytes held in memory, in whichever process runs it (the
// isolated import child, or the reader's own with isolation off).
#pragma once

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace footfix::fbx {

/// assimp's import of `bytes` into `importer` (null if assimp cannot read them: its
/// GetErrorString() says why). With `release` (= &bytes), the bytes are emptied as soon as
/// assimp holds its own copy of them (files over 4 KiB), before it parses them.
const aiScene* read_scene(Assimp::Importer& importer, const std::string& bytes, std::string* release);

/// assimp's import of `bytes` (kept as they are) into `importer`; null if assimp cannot read them.
const aiScene* read_scene(Assimp::Importer& importer, std::string_view bytes);

/// Nodes of `scene` (the root and all below it), counted up to `limit` + 1.
std::uint64_t scene_nodes(const aiScene& scene, std::uint64_t limit);

/// How many times read_scene has run in this process (a forked child counts its own): tests
/// check with it that the reader leaves assimp to the child.
std::uint64_t assimp_imports_in_this_process();

}  // namespace footfix::fbx
