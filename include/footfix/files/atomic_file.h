// Writing outputs atomically (reading inputs safely is core/read_file.h, included here).
//
// Writing: the content goes to a temporary file beside the target, which is synced and put in
// place only once complete; a reader sees the old file or the whole new one, never part of one.
// Where the file system allows it (O_TMPFILE) that file has no name until then, so a run killed
// in any way leaves nothing. Elsewhere it is created exclusively under an unpredictable name
// `.footfix-<pid>-<random>.tmp`; a failure removes it, so does SIGINT, SIGTERM or SIGHUP once
// remove_temporary_files_on_signals() was called, and the next write into that directory removes
// those of runs killed otherwise (SIGKILL) once their process is gone. A replaced regular file keeps
// its read/write/execute bits (read off the path itself, not through a link; no setuid, setgid or
// owner).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <ostream>
#include <memory>
#include <string>
#include <vector>

#include "footfix/core/read_file.h"

namespace footfix {

/// Calls `write(stream)` on a stream into a new temporary file next to `path`, syncs it and
/// puts it in place at `path`. Creates missing parent directories. Throws Error(write) naming
/// the path and the OS reason on any failure, after removing the temporary file.
void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write);

/// Files that are put in place together: each is written to its temporary file and synced when
/// added, and commit() then puts them all in place back to back, in the order added (the renames
/// alone, no writing in between), so that a caller can make that short step one that a stop waits
/// for (clean_one's CommitGate). Temporary files of a group not committed are removed with it.
class AtomicFileGroup {
 public:
  AtomicFileGroup();
  ~AtomicFileGroup();
  AtomicFileGroup(const AtomicFileGroup&) = delete;
  AtomicFileGroup& operator=(const AtomicFileGroup&) = delete;

  /// Writes `path`'s content to a new temporary file beside it (creating missing parent
  /// directories) and syncs it; `path` itself is not touched yet. Throws Error(write) as
  /// write_file_atomically does.
  void add(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write);

  /// The targets added, in order.
  std::vector<std::filesystem::path> paths() const;

  /// Puts every added file in place, in order. Throws Error(write) on a failure, after removing
  /// the targets this commit had already put in place (no part of a group is left). Call once.
  void commit();

 private:
  struct Pending;
  std::vector<std::unique_ptr<Pending>> pending_;
};

/// How far write_file_atomically has got with one file, as reported to an AtomicWriteObserver.
enum class AtomicWriteStage {
  written,    ///< the temporary file is complete and synced; the target is not replaced yet (in a
              ///< group: none of the group's targets is)
  committed,  ///< the temporary file has been put in place at the target
};

/// A test seam: called by write_file_atomically in the writing thread, with the target path, at
/// each stage. It lets a test stop or kill a process at an exact point of a write instead of
/// polling for files. The default (nullptr) calls nothing; only the executable's test hook
/// sets one.
using AtomicWriteObserver = void (*)(const std::filesystem::path& target, AtomicWriteStage stage);
void set_atomic_write_observer(AtomicWriteObserver observer);

/// Process-wide policy, for an executable to choose: installs SIGINT, SIGTERM and SIGHUP handlers
/// (where a signal still has its default action) that remove the named temporary files being
/// written before the signal ends the process. The library never installs handlers itself.
void remove_temporary_files_on_signals();

/// Prefix of the temporary files write_file_atomically creates (".footfix-").
inline constexpr const char* k_temporary_prefix = ".footfix-";

}  // namespace footfix
