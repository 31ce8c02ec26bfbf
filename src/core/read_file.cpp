// read_file (declared in core/read_file.h): only regular files, size checked before reading.
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>

#include "footfix/core/error.h"
#include "footfix/core/read_file.h"
#include "os_error.h"

namespace footfix {
namespace fs = std::filesystem;

using io_detail::fail_errno;

std::string read_file(const fs::path& path, std::uint64_t max_bytes) {
  const std::string name = path.string();
  struct stat st {};
  // stat, not open: opening a FIFO for reading blocks until a writer comes.
  if (::stat(path.c_str(), &st) != 0) fail_errno(ErrorKind::read, path, "cannot open file");
  if (S_ISDIR(st.st_mode)) fail(ErrorKind::read, name + ": is a directory");
  if (!S_ISREG(st.st_mode))
    fail(ErrorKind::read, name + ": not a regular file (" +
                              (S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket" : "a device") +
                              "); only regular files are read");
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) fail_errno(ErrorKind::read, path, "cannot open file");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct statfs fsinfo {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    fail(ErrorKind::read, name + ": not a regular file; only regular files are read");
  // /proc and /sys files claim a size of 0 (or 4096) and generate their content when read.
  if (::fstatfs(fd, &fsinfo) == 0 && (fsinfo.f_type == PROC_SUPER_MAGIC || fsinfo.f_type == SYSFS_MAGIC))
    fail(ErrorKind::read, name + ": a /proc or /sys file, not a clip; only regular files are read");
  constexpr std::uint64_t k_mib = 1ull << 20;
  const auto too_large = [&](std::uint64_t size) {
    fail(ErrorKind::read, name + ": " + std::to_string((size + k_mib - 1) / k_mib) + " MiB is over the input size limit of " +
                              std::to_string(max_bytes / k_mib) + " MiB (--max-input-size)");
  };
  const std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes) too_large(size);
  std::string out(static_cast<std::size_t>(size), '\0');
  std::size_t got = 0;
  char more[4096];  // past the size fstat gave: the end of the file, or what it grew by since
  for (;;) {
    const bool past_size = got == out.size();
    ssize_t n = past_size ? ::read(fd, more, sizeof more) : ::read(fd, out.data() + got, out.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_errno(ErrorKind::read, path, "read failed");
    if (n == 0) break;
    if (past_size) {
      // The file grew since fstat: read on, still bounded by the limit. The string grows here
      // only, so a file read to its stated size is never copied into a larger buffer.
      if (out.size() + static_cast<std::size_t>(n) > max_bytes) too_large(out.size() + static_cast<std::size_t>(n));
      out.append(more, static_cast<std::size_t>(n));
    }
    got += static_cast<std::size_t>(n);
  }
  if (got > max_bytes) too_large(got);
  out.resize(got);
  return out;
}


}  // namespace footfix
