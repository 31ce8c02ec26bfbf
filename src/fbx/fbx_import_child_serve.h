// Internal to fbx/: the import worker's side of fbx_import_child.h. The worker imports file after
// file on request, each with a new Assimp::Importer under limits of its own, answers, then frees
// the import's memory (off the reader's path) and goes on, or retires when it holds too much memory.
#pragma once

#include <sys/types.h>

namespace footfix::fbx {

/// Runs in the worker just forked by the thread of `reader` (its process id): keeps only
/// `channel` (its socket to the reader) and `bytes_fd` (the memory file the reader writes each
/// file into) open, dies with the reader's thread (PR_SET_PDEATHSIG), restores the default signal
/// handling and serves requests (fbx_import_child_protocol.h) until the reader closes the channel,
/// an import ends the worker, or it retires.
[[noreturn]] void serve_imports(int channel, int bytes_fd, pid_t reader);

}  // namespace footfix::fbx
