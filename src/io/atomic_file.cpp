#include "footfix/io/atomic_file.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <streambuf>
#include <system_error>
#include <vector>

#include "footfix/core/error.h"

namespace footfix {
namespace fs = std::filesystem;

namespace {

std::string os_reason(int error) { return std::strerror(error); }

/// Error(kind) "<name>: <what>: <errno's reason>", errno read before anything can change it.
[[noreturn]] void fail_errno(ErrorKind kind, const fs::path& path, const char* what) {
  const int error = errno;
  fail(kind, path.string() + ": " + what + ": " + os_reason(error));
}

/// Temporary files being written, removed by a SIGINT / SIGTERM / SIGHUP handler (installed on
/// first use where the signal still has its default action) before the signal ends the process.
/// Fixed slots and atomics only: the handler may not allocate or lock.
struct TemporarySlot {
  std::atomic<bool> claimed{false};
  std::atomic<bool> ready{false};
  char path[4096] = {};
};
constexpr int k_temporary_slots = 128;
TemporarySlot g_temporary_slots[k_temporary_slots];

class LiveTemporaries {
 public:

  /// Returns the slot holding `path`, or -1 if none is free (the file is then only removed by a
  /// later run, as after SIGKILL).
  static int add(const fs::path& path) {
    install_handlers();
    const std::string& s = path.native();
    if (s.size() >= sizeof(TemporarySlot::path)) return -1;
    for (int i = 0; i < k_temporary_slots; ++i) {
      bool expected = false;
      if (!g_temporary_slots[i].claimed.compare_exchange_strong(expected, true)) continue;
      std::memcpy(g_temporary_slots[i].path, s.c_str(), s.size() + 1);
      g_temporary_slots[i].ready.store(true);
      return i;
    }
    return -1;
  }
  static void remove(int slot) {
    if (slot < 0) return;
    g_temporary_slots[slot].ready.store(false);
    g_temporary_slots[slot].claimed.store(false);
  }

 private:
  static void on_signal(int sig) {
    for (auto& slot : g_temporary_slots)
      if (slot.ready.load()) ::unlink(slot.path);
    ::signal(sig, SIG_DFL);
    ::raise(sig);
  }

  static void install_handlers() {
    static std::once_flag once;
    std::call_once(once, [] {
      for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction current {};
        if (::sigaction(sig, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;
        struct sigaction action {};
        action.sa_handler = on_signal;
        sigemptyset(&action.sa_mask);
        ::sigaction(sig, &action, nullptr);
      }
    });
  }
};

/// Closes the descriptor and removes the temporary file unless released.
class TemporaryFile {
 public:
  explicit TemporaryFile(const fs::path& directory) {
    for (int attempt = 0; attempt < 32 && fd_ < 0; ++attempt) {
      path_ = directory / (std::string(k_temporary_prefix) + std::to_string(::getpid()) + "-" + random_hex() + ".tmp");
      // Registered before it exists: a signal right after the open still finds it.
      slot_ = LiveTemporaries::add(path_);
      fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
      error_ = fd_ < 0 ? errno : 0;
      created_ = fd_ >= 0;
      if (fd_ < 0) {
        LiveTemporaries::remove(slot_);
        slot_ = -1;
        if (error_ != EEXIST) break;
      }
    }
  }
  ~TemporaryFile() {
    if (fd_ >= 0) ::close(fd_);
    if (created_ && !released_) ::unlink(path_.c_str());
    LiveTemporaries::remove(slot_);
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  int fd() const { return fd_; }
  /// errno of the last failed creation attempt.
  int error() const { return error_; }
  const fs::path& path() const { return path_; }
  /// Closes the descriptor; returns false with errno set if the close reported an error.
  bool close() {
    int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0;
  }
  void release() { released_ = true; }

 private:
  static std::string random_hex() {
    unsigned char bytes[6] = {};
    std::size_t got = 0;
    while (got < sizeof bytes) {
      ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail(ErrorKind::write, "cannot get random bytes for a temporary file name: " + os_reason(errno));
      got += static_cast<std::size_t>(n);
    }
    constexpr const char* k_digits = "0123456789abcdef";
    std::string out;
    for (unsigned char b : bytes) {
      out += k_digits[b >> 4];
      out += k_digits[b & 15];
    }
    return out;
  }

  fs::path path_;
  int fd_ = -1;
  int error_ = 0;
  int slot_ = -1;  ///< in LiveTemporaries
  bool created_ = false;
  bool released_ = false;
};

/// The pid in a name `.footfix-<pid>-<hex>.tmp`, or 0 if the name is not one of ours.
pid_t temporary_owner(const std::string& name) {
  const std::string prefix = k_temporary_prefix;
  if (name.compare(0, prefix.size(), prefix) != 0 || name.size() < prefix.size() + 6 ||
      name.compare(name.size() - 4, 4, ".tmp") != 0)
    return 0;
  long pid = 0;
  std::size_t i = prefix.size();
  for (; i < name.size() && name[i] >= '0' && name[i] <= '9' && pid < (1L << 30); ++i) pid = pid * 10 + (name[i] - '0');
  if (i == prefix.size() || i >= name.size() || name[i] != '-') return 0;
  return static_cast<pid_t>(pid);
}

/// Removes temporaries left in `directory` by runs that were killed (their process is gone).
/// Done once per directory per process.
void remove_stale_temporaries(const fs::path& directory) {
  static std::mutex mutex;
  static std::set<fs::path> done;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!done.insert(directory).second) return;
  }
  std::error_code ec;
  for (fs::directory_iterator it(directory.empty() ? fs::path(".") : directory, ec), end; !ec && it != end;
       it.increment(ec)) {
    pid_t owner = temporary_owner(it->path().filename().string());
    if (owner <= 0 || owner == ::getpid()) continue;
    if (::kill(owner, 0) == 0 || errno != ESRCH) continue;  // alive (or not ours to probe)
    ::unlink(it->path().c_str());
  }
}

/// An output stream buffer over a file descriptor that keeps the errno of the first failed write.
class FdBuffer : public std::streambuf {
 public:
  explicit FdBuffer(int fd) : fd_(fd), buffer_(1 << 16) { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
  /// errno of the first failed write, 0 if none.
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* p = pbase();
    while (p < pptr() && error_ == 0) {
      ssize_t n = ::write(fd_, p, static_cast<std::size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) error_ = n < 0 ? errno : EIO;
      else p += n;
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return error_ == 0;
  }

  int fd_;
  std::vector<char> buffer_;
  int error_ = 0;
};

/// A replaced file keeps its permission bits (and, where allowed, its owner).
void keep_mode_of(const fs::path& target, int fd) {
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  ::fchmod(fd, st.st_mode & 07777);
  if (::geteuid() == 0 && ::fchown(fd, st.st_uid, st.st_gid) == 0) ::fchmod(fd, st.st_mode & 07777);
}

}  // namespace

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
  if (!tmp.close()) fail_errno(ErrorKind::write, path, "cannot close");
  if (::rename(tmp.path().c_str(), path.c_str()) != 0) fail_errno(ErrorKind::write, path, "cannot rename into place");
  tmp.release();
}

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
  for (;;) {
    if (got == out.size()) {
      // The file grew since fstat: read on, still bounded by the limit.
      if (out.size() >= max_bytes + 1) too_large(out.size());
      out.resize(static_cast<std::size_t>(std::min<std::uint64_t>(max_bytes + 1, out.size() + 65536)));
    }
    ssize_t n = ::read(fd, out.data() + got, out.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_errno(ErrorKind::read, path, "read failed");
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > max_bytes) too_large(got);
  out.resize(got);
  return out;
}

}  // namespace footfix
