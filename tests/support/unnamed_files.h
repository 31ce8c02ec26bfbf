// Whether a directory's file system gives footfix's outputs unnamed temporary files (O_TMPFILE):
// what a test may expect to find beside an output that is being written.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>

namespace footfix::test {

inline bool has_unnamed_files(const std::filesystem::path& directory) {
  const int fd = ::open(directory.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  ::close(fd);
  return ::access("/proc/self/fd", X_OK) == 0;
}

}  // namespace footfix::test
