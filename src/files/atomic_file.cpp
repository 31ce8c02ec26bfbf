#include "footfix/files/atomic_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <system_error>

#include "footfix/core/error.h"
#include "../core/os_error.h"
#include "temporary_file.h"

namespace footfix {
namespace fs = std::filesystem;

using io_detail::fail_errno;
using io_detail::FdBuffer;
using io_detail::os_reason;
using io_detail::remove_stale_temporaries;
using io_detail::TemporaryFile;

namespace {

std::atomic<AtomicWriteObserver> g_observer{nullptr};

void notify(const fs::path& target, AtomicWriteStage stage) {
  if (AtomicWriteObserver observer = g_observer.load(std::memory_order_relaxed)) observer(target, stage);
}

/// A replaced regular file keeps its read/write/execute bits. Read off the path itself, never
/// through a symbolic link (the link is what the rename replaces); setuid, setgid and sticky
/// bits and the owner are never copied.
void keep_mode_of(const fs::path& target, int fd) {
  struct stat st {};
  if (::lstat(target.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  ::fchmod(fd, st.st_mode & 0777);
}

}  // namespace

void set_atomic_write_observer(AtomicWriteObserver observer) { g_observer.store(observer); }

void remove_temporary_files_on_signals() { io_detail::remove_named_temporaries_on_signals(); }

void write_file_atomically(const fs::path& path, const std::function<void(std::ostream&)>& write) {
  std::error_code ec;
  fs::path parent = path.parent_path();
  if (!parent.empty() && !fs::exists(parent, ec)) {
    fs::create_directories(parent, ec);
    if (ec) fail(ErrorKind::write, path.string() + ": cannot create directory: " + ec.message());
  }
  remove_stale_temporaries(parent);
  TemporaryFile tmp(parent.empty() ? fs::path(".") : parent);
  if (tmp.fd() < 0) fail(ErrorKind::write, path.string() + ": cannot open for writing: " + os_reason(tmp.error()));
  {
    FdBuffer buffer(tmp.fd());
    std::ostream out(&buffer);
    write(out);
    out.flush();
    if (buffer.error() != 0) fail(ErrorKind::write, path.string() + ": cannot write: " + os_reason(buffer.error()));
    if (!out) fail(ErrorKind::write, path.string() + ": write failed");
  }
  keep_mode_of(path, tmp.fd());
  if (::fsync(tmp.fd()) != 0) fail_errno(ErrorKind::write, path, "cannot sync");
  notify(path, AtomicWriteStage::written);
  if (!tmp.commit(path)) fail_errno(ErrorKind::write, path, "cannot put into place");
  notify(path, AtomicWriteStage::committed);
}

}  // namespace footfix
