#include "temporary_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

#include "footfix/files/atomic_file.h"
#include "../core/os_error.h"

namespace footfix::io_detail {
namespace fs = std::filesystem;

namespace {

/// Named temporary files being written, removed by the SIGINT / SIGTERM / SIGHUP handler that
/// remove_temporary_files_on_signals() installs, before the signal ends the process. Fixed slots
/// and atomics only: the handler may not allocate or lock.
struct TemporarySlot {
  std::atomic<bool> claimed{false};
  std::atomic<bool> ready{false};
  char path[4096] = {};
};
constexpr int k_temporary_slots = 128;
TemporarySlot g_temporary_slots[k_temporary_slots];
// Threads between registering a temporary file and its open() returning; and whether a handler
// has begun to remove the files. Another thread's open() could otherwise create its file just
// after the handler's unlink() and before the signal ends the process, and the file would be
// left (seen about once in 50 runs of a two-job batch stopped by SIGTERM).
std::atomic<int> g_creating{0};
std::atomic<bool> g_terminating{false};
// How long (iterations, about 0.1 s) a handler waits for those opens to return: bounded, since
// the signal may have interrupted the very thread that is creating.
constexpr long k_creation_wait_spins = 50'000'000;

class LiveTemporaries {
 public:

  /// Returns the slot holding `path`, or -1 if none is free (the file is then only removed by a
  /// later run, as after SIGKILL).
  static int add(const fs::path& path) {
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

  /// Around a temporary file's open(): begin_creating() is false once a handler has begun to
  /// remove the files (the process is ending: the caller creates nothing), end_creating() after
  /// the open() returned.
  static bool begin_creating() {
    g_creating.fetch_add(1);
    if (!g_terminating.load()) return true;
    g_creating.fetch_sub(1);
    return false;
  }
  static void end_creating() { g_creating.fetch_sub(1); }

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

 private:
  static void on_signal(int sig) {
    // No open begins from here on; those under way are waited for, so their files exist (and
    // are removed below) before the process ends.
    g_terminating.store(true);
    for (long spin = 0; spin < k_creation_wait_spins && g_creating.load() > 0; ++spin) {
    }
    for (auto& slot : g_temporary_slots)
      if (slot.ready.load()) ::unlink(slot.path);
    ::signal(sig, SIG_DFL);
    ::raise(sig);
  }
};


std::string random_hex() {
  unsigned char bytes[6] = {};
  std::size_t got = 0;
  while (got < sizeof bytes) {
    ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail_errno(ErrorKind::write, "", "cannot get random bytes for a temporary file name");
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

/// Whether /proc/self/fd names open descriptors: linkat() gives an unnamed file its name through it.
bool can_link_descriptors() {
  static const bool can = ::access("/proc/self/fd", X_OK) == 0;
  return can;
}

std::atomic<bool> g_named_only{false};

std::string temporary_name() {
  return std::string(k_temporary_prefix) + std::to_string(::getpid()) + "-" + random_hex() + ".tmp";
}

}  // namespace

TemporaryFile::TemporaryFile(const fs::path& directory) : directory_(directory) {
  if (can_link_descriptors() && !g_named_only.load()) {
    fd_ = ::open(directory.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    error_ = fd_ < 0 ? errno : 0;
    // A kernel or file system without O_TMPFILE: a named file instead. Other errors (no such
    // directory, no permission, no space) are the same for both.
    if (fd_ >= 0 || (error_ != EOPNOTSUPP && error_ != EISDIR && error_ != EINVAL)) return;
  }
  create_named([this](const char* path) { return ::open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666); });
}

template <class Create>
void TemporaryFile::create_named(Create create) {
  for (int attempt = 0; attempt < 32; ++attempt) {
    path_ = directory_ / temporary_name();
    // Registered before it exists: a signal right after its creation still finds it.
    slot_ = LiveTemporaries::add(path_);
    // A signal's handler is removing the files and the process ends with it: nothing to create.
    while (!LiveTemporaries::begin_creating()) ::pause();
    const int result = create(path_.c_str());
    LiveTemporaries::end_creating();
    error_ = result < 0 ? errno : 0;
    if (result >= 0) {
      if (fd_ < 0) fd_ = result;
      named_ = true;
      return;
    }
    LiveTemporaries::remove(slot_);
    slot_ = -1;
    path_.clear();
    if (error_ != EEXIST) return;
  }
}

TemporaryFile::~TemporaryFile() {
  if (fd_ >= 0) ::close(fd_);
  if (named_ && !committed_) ::unlink(path_.c_str());
  LiveTemporaries::remove(slot_);
}

bool TemporaryFile::commit(const fs::path& target) {
  if (!named_) {
    // Unnamed: linked in under the target's name, atomically, where nothing is there yet.
    const std::string descriptor = "/proc/self/fd/" + std::to_string(fd_);
    if (::linkat(AT_FDCWD, descriptor.c_str(), AT_FDCWD, target.c_str(), AT_SYMLINK_FOLLOW) == 0) {
      committed_ = true;
      return close_descriptor();
    }
    if (errno != EEXIST) return false;
    // Something is there: a name beside it first, then renamed over it.
    create_named([&](const char* path) {
      return ::linkat(AT_FDCWD, descriptor.c_str(), AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 ? fd_ : -1;
    });
    if (!named_) {
      errno = error_;
      return false;
    }
  }
  if (!close_descriptor()) return false;
  if (::rename(path_.c_str(), target.c_str()) != 0) return false;
  committed_ = true;
  return true;
}

bool TemporaryFile::close_descriptor() {
  const int fd = fd_;
  fd_ = -1;
  return ::close(fd) == 0;
}

void use_named_temporaries_only() { g_named_only.store(true); }

void remove_named_temporaries_on_signals() { LiveTemporaries::install_handlers(); }

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


FdBuffer::FdBuffer(int fd) : fd_(fd), buffer_(1 << 16) { setp(buffer_.data(), buffer_.data() + buffer_.size()); }

FdBuffer::int_type FdBuffer::overflow(int_type c) {
  if (!drain()) return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

int FdBuffer::sync() { return drain() ? 0 : -1; }

std::streamsize FdBuffer::xsputn(const char* s, std::streamsize n) {
  if (n < static_cast<std::streamsize>(buffer_.size())) return std::streambuf::xsputn(s, n);
  if (!drain() || !write_all(s, s + n)) return 0;
  return n;
}

bool FdBuffer::write_all(const char* p, const char* end) {
  while (p < end && error_ == 0) {
    ssize_t n = ::write(fd_, p, static_cast<std::size_t>(end - p));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      error_ = n < 0 ? errno : EIO;
    else
      p += n;
  }
  return error_ == 0;
}

bool FdBuffer::drain() {
  write_all(pbase(), pptr());
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  return error_ == 0;
}

}  // namespace footfix::io_detail
