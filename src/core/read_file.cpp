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

namespace {

[[noreturn]] void fail_too_large(const fs::path& path, std::uint64_t size, std::uint64_t max_bytes) {
  constexpr std::uint64_t k_mib = 1ull << 20;
  fail(ErrorKind::read, path.string() + ": " + std::to_string((size + k_mib - 1) / k_mib) +
                            " MiB is over the input size limit of " + std::to_string(max_bytes / k_mib) +
                            " MiB (--max-input-size)");
}

}  // namespace

InputFile::InputFile(const fs::path& path, std::uint64_t max_bytes) : path_(path), max_bytes_(max_bytes) {
  const std::string name = path.string();
  struct stat st {};
  // stat, not open: opening a FIFO for reading blocks until a writer comes.
  if (::stat(path.c_str(), &st) != 0) fail_errno(ErrorKind::read, path, "cannot open file");
  if (S_ISDIR(st.st_mode)) fail(ErrorKind::read, name + ": is a directory");
  if (!S_ISREG(st.st_mode))
    fail(ErrorKind::read, name + ": not a regular file (" +
                              (S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket" : "a device") +
                              "); only regular files are read");
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd_ < 0) fail_errno(ErrorKind::read, path, "cannot open file");
  try {
    struct statfs fsinfo {};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode))
      fail(ErrorKind::read, name + ": not a regular file; only regular files are read");
    // /proc and /sys files claim a size of 0 (or 4096) and generate their content when read.
    if (::fstatfs(fd_, &fsinfo) == 0 && (fsinfo.f_type == PROC_SUPER_MAGIC || fsinfo.f_type == SYSFS_MAGIC))
      fail(ErrorKind::read, name + ": a /proc or /sys file, not a clip; only regular files are read");
    size_ = static_cast<std::uint64_t>(st.st_size);
    if (size_ > max_bytes_) fail_too_large(path_, size_, max_bytes_);
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

InputFile::~InputFile() { ::close(fd_); }

std::size_t InputFile::read_some(char* into, std::size_t bytes) {
  for (;;) {
    const ssize_t n = ::read(fd_, into, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_errno(ErrorKind::read, path_, "read failed");
    read_ += static_cast<std::uint64_t>(n);
    // The file grew since fstat: read on, still bounded by the limit.
    if (read_ > max_bytes_) fail_too_large(path_, read_, max_bytes_);
    return static_cast<std::size_t>(n);
  }
}

std::size_t InputFile::append_to(std::string& out, std::size_t bytes) {
  // No more than the file holds past what was read (the string is zero-filled up to `bytes`
  // first: a 1 MiB piece for a 20 KB clip cost most of a batch's time in memset and page faults);
  // past its stated end, a few KiB read on the stack to see the end or what the file grew by,
  // so that a string reserved for the file's size is not grown (copied) to look.
  constexpr std::size_t k_probe_bytes = 4096;
  if (bytes == 0) return 0;
  if (read_ >= size_) {
    char probe[k_probe_bytes];
    const std::size_t n = read_some(probe, std::min(bytes, k_probe_bytes));
    out.append(probe, n);
    return n;
  }
  bytes = static_cast<std::size_t>(std::min<std::uint64_t>(bytes, size_ - read_));
  const std::size_t old = out.size();
  out.resize(old + bytes);
  std::size_t n = 0;
  try {
    n = read_some(out.data() + old, bytes);
  } catch (...) {
    out.resize(old);
    throw;
  }
  out.resize(old + n);
  return n;
}

std::string read_file(const fs::path& path, std::uint64_t max_bytes) {
  InputFile file(path, max_bytes);
  std::string out;
  out.reserve(static_cast<std::size_t>(file.size()));
  while (out.size() < file.size())
    if (file.append_to(out, static_cast<std::size_t>(file.size()) - out.size()) == 0) return out;  // it shrank
  // Past the size fstat gave: the end of the file, or what it grew by since. Read into a small
  // buffer, so that a file read to its stated size is never copied into a larger one.
  std::string more;
  while (file.append_to(more, 4096) > 0) {
    out += more;
    more.clear();
  }
  return out;
}

}  // namespace footfix
