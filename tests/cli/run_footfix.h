// Runs the built `footfix` binary (FOOTFIX_EXE) as a child process for CLI tests: arguments
// passed as-is (no shell), stdout and stderr captured, a wall-clock bound after which the child
// is killed (SIGKILL) and the run reported as timed out.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace footfix::test {

struct BoundedRun {
  int exit_code = -1;     ///< the child's exit status; -1 if it was killed by a signal
  int signal = 0;         ///< the signal that ended it, 0 if it exited
  bool timed_out = false; ///< killed by us after the time bound
  std::string out, err;
  double seconds = 0;
};

/// Runs FOOTFIX_EXE with `args`, in the current directory, for at most `bound`.
BoundedRun run_footfix_bounded(const std::vector<std::string>& args,
                               std::chrono::milliseconds bound = std::chrono::seconds(30));

/// Whether run_footfix_unprivileged can drop privileges: running as root with setpriv present
/// (permission tests need a user that file modes apply to).
bool can_run_unprivileged();
/// As run_footfix_bounded, but as user and group nobody (65534) via setpriv. Paths it reads or
/// writes must be accessible to that user.
BoundedRun run_footfix_unprivileged(const std::vector<std::string>& args,
                                    std::chrono::milliseconds bound = std::chrono::seconds(30));

/// Starts FOOTFIX_EXE with `args` and returns its pid without waiting (output discarded).
int spawn_footfix(const std::vector<std::string>& args);

/// A fresh empty directory under the system temp folder, removed with its contents on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  /// Names of every entry in the directory (recursively, relative), sorted; temp files included.
  std::vector<std::string> entries() const;

 private:
  std::filesystem::path path_;
};

}  // namespace footfix::test
