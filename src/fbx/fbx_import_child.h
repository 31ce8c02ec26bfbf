// Internal to fbx/: assimp's import of FBX bytes in a worker process under resource limits, so
// that a crash, a blow-up or a hang inside assimp fails one clip with Error(read) instead of the
// process. Each reading thread forks its worker at its first import and reuses it, warm, for the
// files after (fbx_import_child_serve.h); the worker sends what the reader uses of each scene
// through a socket (fbx_import_wire.h); the reader decodes it as hostile data and never runs
// assimp itself. After any failure but assimp's own "cannot read", the worker is gone and the
// thread's next import starts a fresh one.
#pragma once

#include <sys/types.h>

#include <string>

#include "fbx_imported.h"
#include "footfix/files/read_limits.h"

namespace footfix::fbx {

/// Imports `bytes` in the calling thread's worker (forked now if it has none) with RLIMIT_AS
/// (the worker's address space plus limits.max_memory_bytes), RLIMIT_CPU (limits.import_cpu_s
/// more than it has used) and a wall-clock deadline (limits.import_wall_s, for a worker that
/// stops without using CPU), and returns its answer. Throws Error(read) naming `name` when the
/// worker crashes, runs out of memory, CPU or wall-clock time, makes more scene nodes than
/// limits.max_memory_bytes allows (fbx::k_bytes_per_scene_node each), answers more than
/// limits.max_memory_bytes or a malformed answer, or when assimp cannot read the bytes (with
/// assimp's reason). With `release` (= &bytes), this process empties the bytes once the worker can
/// read its own copy of them. The worker frees the import after its answer, while the reader goes
/// on: the thread's next import first takes its verdict (it stays, or it retires: its memory over
/// limits.fbx_worker_retire_bytes), ending it unless it stays. A worker that retires after every
/// import (limits.fbx_worker_retire_bytes = 0) is held by the returned scene
/// (ImportedScene::sender) until it goes, so that its exit overlaps the reader's work.
ImportedScene import_in_child(const std::string& bytes, std::string* release, const std::string& name,
                              const ReadLimits& limits);

/// The calling thread's import worker (its process id), 0 when it has none: for tests.
pid_t import_worker_of_this_thread();

/// What every later import does wrong on purpose in its worker, for tests of the reader's side.
enum class ChildFault : unsigned char {
  none,
  truncated_answer,  ///< sends the first half of its answer and goes on
  corrupt_answer,    ///< sends its answer with the node count overwritten (0xFFFFFFFF)
  hang,              ///< blocks without using CPU before it imports anything
  linger,            ///< sends its whole answer and says it retires, then blocks without using CPU instead of ending
  crash,             ///< dies of SIGSEGV before it imports anything
  spin,              ///< uses CPU without end before it imports anything
  busy,              ///< uses 0.6 s of CPU time before it imports, then imports as usual
  slow_free,         ///< sends its whole answer, then blocks without using CPU where it frees the import
};
void set_import_child_fault(ChildFault fault);

}  // namespace footfix::fbx
