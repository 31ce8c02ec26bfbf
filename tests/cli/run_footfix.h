// Shorthands over run_footfix_limited (support/limited_run.h) for CLI tests: a run with a time
// bound, a run as user nobody, and the temporary directories the tests work in.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "support/limited_run.h"

namespace footfix::test {

/// A run's outcome (see LimitedRun).
using BoundedRun = LimitedRun;

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
