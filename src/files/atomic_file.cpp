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

/// A file written to its temporary file beside its target, synced, and not yet put in place.
struct AtomicFileGroup::Pending {
  explicit Pending(const fs::path& target)
      : path(target), tmp(target.parent_path().empty() ? fs::path(".") : target.parent_path()) {}
  fs::path path;
  TemporaryFile tmp;
};

namespace {

/// Creates the missing folders above `path` and removes stale temporaries from its folder.
void prepare_folder_of(const fs::path& path) {
  std::error_code ec;
  fs::path parent = path.parent_path();
  if (!parent.empty() && !fs::exists(parent, ec)) {
    fs::create_directories(parent, ec);
    if (ec) fail(ErrorKind::write, path.string() + ": cannot create directory: " + ec.message());
  }
  remove_stale_temporaries(parent);
}

}  // namespace

AtomicFileGroup::AtomicFileGroup() = default;
AtomicFileGroup::~AtomicFileGroup() = default;

void AtomicFileGroup::add(const fs::path& path, const std::function<void(std::ostream&)>& write) {
  prepare_folder_of(path);
  auto file = std::make_unique<Pending>(path);
  TemporaryFile& tmp = file->tmp;
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
  pending_.push_back(std::move(file));
}

std::vector<fs::path> AtomicFileGroup::paths() const {
  std::vector<fs::path> out;
  for (const auto& file : pending_) out.push_back(file->path);
  return out;
}

void AtomicFileGroup::commit() {
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    const fs::path& path = pending_[i]->path;
    if (!pending_[i]->tmp.commit(path)) {
      const int error = errno;
      for (std::size_t done = 0; done < i; ++done) {
        std::error_code ec;
        fs::remove(pending_[done]->path, ec);
      }
      const fs::path failed = path;
      pending_.clear();  // the temporary files not put in place go now, not with the group
      errno = error;
      fail_errno(ErrorKind::write, failed, "cannot put into place");
    }
    notify(path, AtomicWriteStage::committed);
  }
  pending_.clear();
}

void write_file_atomically(const fs::path& path, const std::function<void(std::ostream&)>& write) {
  AtomicFileGroup file;
  file.add(path, write);
  file.commit();
}

}  // namespace footfix
