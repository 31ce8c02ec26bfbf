// Internal to io/: assimp's import of FBX bytes, optionally rehearsed first in a child process
// under resource limits, so that a crash or a blow-up inside assimp fails one clip with
// Error(read) instead of killing the process.
#pragma once

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <string>

#include "footfix/io/read_limits.h"

namespace footfix::fbx {

struct Imported {
  Assimp::Importer importer;
  const aiScene* scene = nullptr;
};

/// Imports `bytes` into `im` (throws Error(read) naming `name` if assimp cannot read them).
/// With limits.isolate_fbx_import, the import first runs in a forked child with RLIMIT_AS (the
/// current address space plus limits.max_memory_bytes) and RLIMIT_CPU (limits.import_cpu_s);
/// if the child crashes, runs out of memory or CPU time, the clip is refused. A scene with more
/// nodes than limits.max_memory_bytes allows (fbx::k_bytes_per_scene_node each) is refused too,
/// in the child and after the import here.
/// With `release` (= &bytes, the caller's string), the bytes are emptied as soon as assimp has
/// its own copy of them (files over 4 KiB), before it parses them: `bytes` is empty afterwards.
void import_fbx(Imported& im, const std::string& bytes, const std::string& name, const ReadLimits& limits,
                std::string* release = nullptr);

}  // namespace footfix::fbx
