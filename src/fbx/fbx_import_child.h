// Internal to fbx/: assimp's import of FBX bytes in a forked child process under resource limits,
// so that a crash, a blow-up or a hang inside assimp fails one clip with Error(read) instead of
// the process. The child sends what the reader uses of the scene through a pipe
// (fbx_import_wire.h); the reader decodes it as hostile data and never runs assimp itself.
#pragma once

#include <string>

#include "fbx_imported.h"
#include "footfix/files/read_limits.h"

namespace footfix::fbx {

/// Imports `bytes` in a child with RLIMIT_AS (this process's address space plus
/// limits.max_memory_bytes), RLIMIT_CPU (limits.import_cpu_s) and a wall-clock deadline
/// (limits.import_wall_s, for a child that stops without using CPU), and returns its answer.
/// Throws Error(read) naming `name` when the child crashes, runs out of memory, CPU or wall-clock
/// time, makes more scene nodes than limits.max_memory_bytes allows (fbx::k_bytes_per_scene_node
/// each), answers more than limits.max_memory_bytes or a malformed answer, or when assimp cannot
/// read the bytes (with assimp's reason). With `release` (= &bytes), this process empties the
/// bytes once the child has its own copy of them. The returned scene holds the child until it goes
/// (ImportedScene::sender) where the child had not ended when its whole answer came.
ImportedScene import_in_child(const std::string& bytes, std::string* release, const std::string& name,
                              const ReadLimits& limits);

/// What every later import child does wrong on purpose, for tests of the reader's side.
enum class ChildFault {
  none,
  truncated_answer,  ///< sends the first half of its answer and exits normally
  corrupt_answer,    ///< sends its answer with the node count overwritten (0xFFFFFFFF)
  hang,              ///< blocks without using CPU before it imports anything
  linger,            ///< sends its whole answer, then blocks without using CPU instead of ending
};
void set_import_child_fault(ChildFault fault);

}  // namespace footfix::fbx
