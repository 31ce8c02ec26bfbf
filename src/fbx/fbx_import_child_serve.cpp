#include "fbx_import_child_serve.h"

#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <string_view>

#include "fbx_assimp_read.h"
#include "fbx_budget.h"
#include "fbx_import_child.h"
#include "fbx_import_child_protocol.h"
#include "fbx_import_wire.h"

namespace footfix::fbx {
namespace {

constexpr std::size_t k_write_buffer_bytes = 64 << 10;
constexpr double k_busy_fault_cpu_s = 0.6;  // ChildFault::busy

/// The worker's side of the socket, buffered. A failed write (the reader is gone) ends the worker.
class ChannelSink final : public WireSink {
 public:
  explicit ChannelSink(int fd) : fd_(fd) { buffer_.reserve(k_write_buffer_bytes); }
  void write(const void* data, std::size_t size) override {
    if (buffer_.size() + size > k_write_buffer_bytes) flush();
    sent_ += size;
    if (size >= k_write_buffer_bytes) return write_all(static_cast<const char*>(data), size);
    buffer_.append(static_cast<const char*>(data), size);
  }
  /// Ends the reply with its trailer (code `code`, and whether the worker retires after it).
  void finish(int code, bool retiring) {
    const std::uint64_t answer_bytes = sent_;
    const std::uint8_t tail[2] = {static_cast<std::uint8_t>(code), static_cast<std::uint8_t>(retiring)};
    write(&answer_bytes, sizeof answer_bytes);
    write(tail, sizeof tail);
    write(k_trailer_magic, sizeof k_trailer_magic);
    flush();
    sent_ = 0;
  }
  /// After a reply whose trailer said the worker stays: whether it retires after all (its memory
  /// measured once the import is freed), the one byte fbx_import_child_protocol.h calls the
  /// verdict.
  void verdict(bool retiring) {
    const char v = retiring ? k_verdict_retires : k_verdict_stays;
    write_all(&v, 1);
  }

 private:
  void flush() {
    write_all(buffer_.data(), buffer_.size());
    buffer_.clear();
  }
  void write_all(const char* p, std::size_t size) {
    while (size > 0) {
      const ssize_t n = ::write(fd_, p, size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) ::_exit(k_child_failed);
      p += n;
      size -= static_cast<std::size_t>(n);
    }
  }
  int fd_;
  std::string buffer_;
  std::uint64_t sent_ = 0;
};

/// This process's memory now, from /proc/self/statm: bytes mapped (its address space) and
/// resident; 0 where unknown. Read with plain system calls: no stdio lock that another thread of
/// the reader might have held at the fork.
struct Footprint {
  std::uint64_t mapped = 0, resident = 0;
};
Footprint footprint() {
  Footprint out;
  const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char text[128];
  const ssize_t n = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  unsigned long long mapped = 0, resident = 0;
  if (n > 0) {
    text[n] = '\0';
    if (std::sscanf(text, "%llu %llu", &mapped, &resident) == 2) {
      const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
      out = {mapped * page, resident * page};
    }
  }
  return out;
}

/// The memory this process holds of its own (bytes): its private dirty pages, from
/// /proc/self/smaps_rollup. A forked worker's resident set counts every page it shares with the
/// reader, so growth of it misses the pages the worker copies from the reader's heap (an import
/// reusing heap the reader had freed before the fork): private dirty pages count them. Falls back
/// to the resident set where smaps_rollup cannot be read. Plain system calls, as footprint().
std::uint64_t own_memory_bytes() {
  const int fd = ::open("/proc/self/smaps_rollup", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return footprint().resident;
  char text[4096];
  std::size_t size = 0;
  while (size < sizeof text - 1) {
    const ssize_t n = ::read(fd, text + size, sizeof text - 1 - size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    size += static_cast<std::size_t>(n);
  }
  ::close(fd);
  text[size] = '\0';
  const char* field = std::strstr(text, "\nPrivate_Dirty:");
  unsigned long long kib = 0;
  if (field == nullptr || std::sscanf(field, "\nPrivate_Dirty: %llu kB", &kib) != 1) return footprint().resident;
  return static_cast<std::uint64_t>(kib) * 1024;
}

/// Keeps `a` and `b` (and the standard streams) open, closes every other descriptor: the worker
/// holds none of the reader's files (other threads' outputs, other workers' sockets).
void close_fds_but(int a, int b) {
  const unsigned lo = static_cast<unsigned>(std::min(a, b)), hi = static_cast<unsigned>(std::max(a, b));
  if (lo > 3) ::close_range(3, lo - 1, 0);
  if (hi > lo + 1) ::close_range(lo + 1, hi - 1, 0);
  ::close_range(hi + 1, ~0u, 0);
}

/// Every signal acts by default and none is blocked: the reader's handlers (which remove its
/// temporary files) and its blocked SIGINT/SIGTERM (a batch's watcher thread) are not the worker's.
void default_signals() {
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  ::sigemptyset(&action.sa_mask);
  for (int sig = 1; sig < NSIG; ++sig)
    if (sig != SIGKILL && sig != SIGSTOP) ::sigaction(sig, &action, nullptr);
  sigset_t none;
  ::sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

double cpu_seconds_used() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

/// This import's limits, as soft limits over what the worker has used so far: `cpu_s` seconds of
/// CPU time more (SIGXCPU ends it), and max_memory_bytes of address space more than it maps now.
void set_import_limits(const ImportRequest& request) {
  rlimit cpu{};
  ::getrlimit(RLIMIT_CPU, &cpu);
  const auto cpu_limit = static_cast<rlim_t>(std::ceil(cpu_seconds_used())) + static_cast<rlim_t>(request.cpu_s);
  cpu.rlim_cur = cpu.rlim_max == RLIM_INFINITY ? cpu_limit : std::min(cpu_limit, cpu.rlim_max);
  ::setrlimit(RLIMIT_CPU, &cpu);
#if !defined(__SANITIZE_ADDRESS__)
  // Under AddressSanitizer the shadow memory makes address-space limits meaningless.
  const std::uint64_t mapped = footprint().mapped;
  if (mapped > 0) {
    rlimit as{};
    ::getrlimit(RLIMIT_AS, &as);
    const auto as_limit = static_cast<rlim_t>(mapped + request.max_memory_bytes);
    as.rlim_cur = as.rlim_max == RLIM_INFINITY ? as_limit : std::min(as_limit, as.rlim_max);
    ::setrlimit(RLIMIT_AS, &as);
  }
#endif
}

void use_cpu(double seconds) {
  const double until = cpu_seconds_used() + seconds;
  while (cpu_seconds_used() < until) {
  }
}

/// What `fault` does before the import.
void act_out_before_import(ChildFault fault) {
  while (fault == ChildFault::hang) ::pause();
  if (fault == ChildFault::crash) ::raise(SIGSEGV);
  while (fault == ChildFault::spin) use_cpu(1.0);
  if (fault == ChildFault::busy) use_cpu(k_busy_fault_cpu_s);
}

/// The answer for `scene` as `fault` spoils it.
void send_spoiled(const aiScene& scene, ChildFault fault, WireSink& out) {
  std::string answer;
  StringSink sink(answer);
  encode_scene(scene, sink);
  if (fault == ChildFault::truncated_answer) answer.resize(answer.size() / 2);
  if (fault == ChildFault::corrupt_answer) answer.replace(6, 4, 4, '\xff');  // after "FFXI", version, kind
  out.write(answer.data(), answer.size());
}

/// Imports `bytes` with a new importer and sends the answer and its trailer (stating `retiring`);
/// returns its code (ok or unreadable). Every other outcome ends the worker with its exit code. The
/// importer and its scene are freed after the trailer has gone, off the reader's path: on return,
/// or by the system when a retiring worker ends right after its trailer.
int import_and_answer(std::string_view bytes, const ImportRequest& request, bool retiring, ChannelSink& out) {
  const auto fault = static_cast<ChildFault>(request.fault);
  ReadLimits limits;
  limits.max_memory_bytes = request.max_memory_bytes;
  try {
    Assimp::Importer importer;
    const aiScene* scene = read_scene(importer, bytes);
    if (!scene && importer.GetErrorString() == std::string_view(std::bad_alloc().what()))
      ::_exit(k_child_out_of_memory);  // assimp catches what it throws and keeps the text only
    int code = k_child_ok;
    if (!scene || !scene->mRootNode) {
      encode_unreadable(importer.GetErrorString(), out);
      code = k_child_unreadable;
    } else {
      if (scene_nodes(*scene, max_scene_nodes(limits)) > max_scene_nodes(limits)) ::_exit(k_child_too_many_nodes);
      const bool spoils = fault == ChildFault::truncated_answer || fault == ChildFault::corrupt_answer;
      if (spoils) send_spoiled(*scene, fault, out);
      else encode_scene(*scene, out);
    }
    out.finish(code, retiring);
    while (fault == ChildFault::linger || fault == ChildFault::slow_free) ::pause();
    if (retiring) ::_exit(code);
    return code;
  } catch (const std::bad_alloc&) {
    ::_exit(k_child_out_of_memory);
  } catch (...) {
    ::_exit(k_child_failed);
  }
}

/// Reads the next request; false when the reader has closed the channel (or sent no request).
bool receive(int channel, ImportRequest& request) {
  auto* p = reinterpret_cast<char*>(&request);
  std::size_t got = 0;
  while (got < sizeof request) {
    const ssize_t n = ::read(channel, p + got, sizeof request - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    got += static_cast<std::size_t>(n);
  }
  return std::memcmp(request.magic, k_request_magic, sizeof k_request_magic) == 0;
}

/// The request's bytes, mapped (all pages at once: no fault per page); empty if none.
std::string_view map_bytes(int bytes_fd, std::uint64_t size) {
  struct stat st {};
  if (size == 0) return {};
  if (::fstat(bytes_fd, &st) != 0 || static_cast<std::uint64_t>(st.st_size) < size) ::_exit(k_child_failed);
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_SHARED | MAP_POPULATE, bytes_fd, 0);
  if (p == MAP_FAILED) ::_exit(k_child_out_of_memory);
  return {static_cast<const char*>(p), static_cast<std::size_t>(size)};
}

}  // namespace

void serve_imports(int channel, int bytes_fd, pid_t reader) {
  close_fds_but(channel, bytes_fd);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != reader) ::_exit(k_child_failed);  // the reader's thread ended before the line above
  default_signals();
  rlimit core{0, 0};
  ::setrlimit(RLIMIT_CORE, &core);
  ChannelSink out(channel);
  const std::uint64_t own_at_start = own_memory_bytes();
  auto grown = [&] {
    const std::uint64_t own = own_memory_bytes();
    return own - std::min(own_at_start, own);
  };
  ImportRequest request;
  while (receive(channel, request)) {
    const std::string_view bytes = map_bytes(bytes_fd, request.bytes);
    set_import_limits(request);
    act_out_before_import(static_cast<ChildFault>(request.fault));
    // Decided before the import (a test's lingering fault, or a fresh worker per import): said in
    // the trailer. Otherwise the worker measures itself once the import is freed and says whether
    // it retires in the verdict that follows the reply.
    const bool retiring = static_cast<ChildFault>(request.fault) == ChildFault::linger || request.retire_bytes == 0;
    const int code = import_and_answer(bytes, request, retiring, out);
    if (!bytes.empty()) ::munmap(const_cast<char*>(bytes.data()), bytes.size());
    // The heap stays warm for the next import (trimming it would make the next import fault its
    // pages in again) unless the worker has grown past its limit: then it trims, and retires if
    // it is still over.
    bool retires = false;
    if (grown() > request.retire_bytes) {
      ::malloc_trim(0);
      retires = grown() > request.retire_bytes;
    }
    out.verdict(retires);
    if (retires) ::_exit(code);
  }
  ::_exit(k_child_ok);
}

}  // namespace footfix::fbx
