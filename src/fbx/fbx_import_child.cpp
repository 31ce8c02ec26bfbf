#include "fbx_import_child.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>

#include "fbx_assimp_read.h"
#include "fbx_budget.h"
#include "fbx_import_wire.h"
#include "footfix/core/error.h"
#include "footfix/core/text.h"

namespace footfix::fbx {
namespace {

// Exit codes of the import child. Any other status (a signal, or an exit code nobody chose here,
// such as a sanitizer's report exiting with 1) means the importer did not end normally.
constexpr int k_child_ok = 0, k_child_unreadable = 100, k_child_out_of_memory = 101, k_child_failed = 102,
              k_child_too_many_nodes = 103;

// A whole answer ends with a trailer: u64 bytes of answer before it | u8 exit code | "FFXE". The
// child then closes its side of the pipe and exits with that code: the reader has the answer and
// the code without waiting for the child's exit, which frees its address space (milliseconds for
// a large scene), and reaps the child later (ImportedScene::sender).
constexpr char k_trailer_magic[4] = {'F', 'F', 'X', 'E'};
constexpr std::size_t k_trailer_bytes = 8 + 1 + sizeof k_trailer_magic;

constexpr std::size_t k_write_buffer_bytes = 64 << 10;
constexpr int k_pipe_bytes = 1 << 20;  // asked for: the child then rarely waits for the reader
constexpr double k_max_wall_s = 1e7;   // longer deadlines are this one (the clock's range is finite)

std::atomic<ChildFault> staged_fault{ChildFault::none};

/// Closes a descriptor when it goes.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

/// The child's side of the pipe, buffered. A failed write (the reader is gone) ends the child.
class PipeSink final : public WireSink {
 public:
  explicit PipeSink(int fd) : fd_(fd) { buffer_.reserve(k_write_buffer_bytes); }
  void write(const void* data, std::size_t size) override {
    if (buffer_.size() + size > k_write_buffer_bytes) flush();
    sent_ += size;
    if (size >= k_write_buffer_bytes) return write_all(static_cast<const char*>(data), size);
    buffer_.append(static_cast<const char*>(data), size);
  }
  void flush() {
    write_all(buffer_.data(), buffer_.size());
    buffer_.clear();
  }
  /// Ends a whole answer with its trailer (exit code `code`) and closes the pipe.
  void finish(int code) {
    const std::uint64_t answer_bytes = sent_;
    const auto code_byte = static_cast<std::uint8_t>(code);
    write(&answer_bytes, sizeof answer_bytes);
    write(&code_byte, 1);
    write(k_trailer_magic, sizeof k_trailer_magic);
    flush();
    ::close(fd_);
  }

 private:
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

/// Bytes of address space this process maps now (/proc/self/statm, first field), 0 if unknown.
std::uint64_t address_space_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long long pages = 0;
  int n = std::fscanf(f, "%llu", &pages);
  std::fclose(f);
  return n == 1 ? pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

/// The child holds none of the reader's files (other threads' outputs, other children's pipes),
/// only its standard streams and its answer's pipe.
void close_other_fds(int keep) {
  if (keep > 3) ::close_range(3, static_cast<unsigned>(keep) - 1, 0);
  ::close_range(static_cast<unsigned>(std::max(3, keep + 1)), ~0u, 0);
}

void set_child_limits(const ReadLimits& limits, std::uint64_t address_space) {
  rlimit core{0, 0};
  ::setrlimit(RLIMIT_CORE, &core);
  rlimit cpu{static_cast<rlim_t>(limits.import_cpu_s), static_cast<rlim_t>(limits.import_cpu_s + 1)};
  ::setrlimit(RLIMIT_CPU, &cpu);
#if !defined(__SANITIZE_ADDRESS__)
  // Under AddressSanitizer the shadow memory makes address-space limits meaningless.
  if (address_space > 0) {
    rlimit as{static_cast<rlim_t>(address_space + limits.max_memory_bytes),
              static_cast<rlim_t>(address_space + limits.max_memory_bytes)};
    ::setrlimit(RLIMIT_AS, &as);
  }
#else
  (void)address_space;
#endif
}

/// The answer for `scene` as `fault` spoils it.
void send_spoiled(const aiScene& scene, ChildFault fault, PipeSink& out) {
  std::string answer;
  StringSink sink(answer);
  encode_scene(scene, sink);
  if (fault == ChildFault::truncated_answer) answer.resize(answer.size() / 2);
  if (fault == ChildFault::corrupt_answer) answer.replace(6, 4, 4, '\xff');  // after "FFXI", version, kind
  out.write(answer.data(), answer.size());
}

[[noreturn]] void run_child(const std::string& bytes, std::string* release, const ReadLimits& limits,
                            std::uint64_t address_space, int answer_fd, ChildFault fault) {
  close_other_fds(answer_fd);
  set_child_limits(limits, address_space);
  while (fault == ChildFault::hang) ::pause();
  int code = k_child_failed;
  try {
    // Never freed: the child ends as soon as it has answered.
    auto* importer = new Assimp::Importer;
    const aiScene* scene = read_scene(*importer, bytes, release);  // releases the child's view of the bytes only
    PipeSink out(answer_fd);
    if (!scene && importer->GetErrorString() == std::string_view(std::bad_alloc().what())) {
      code = k_child_out_of_memory;  // assimp catches what it throws and keeps the text only
    } else if (!scene || !scene->mRootNode) {
      encode_unreadable(importer->GetErrorString(), out);
      out.finish(code = k_child_unreadable);
    } else if (scene_nodes(*scene, max_scene_nodes(limits)) > max_scene_nodes(limits)) {
      code = k_child_too_many_nodes;
    } else {
      if (fault == ChildFault::none || fault == ChildFault::linger) encode_scene(*scene, out);
      else send_spoiled(*scene, fault, out);
      out.finish(code = k_child_ok);
      while (fault == ChildFault::linger) ::pause();
    }
  } catch (const std::bad_alloc&) {
    code = k_child_out_of_memory;
  } catch (...) {
    code = k_child_failed;
  }
  ::_exit(code);  // no atexit handlers, no flushing of the parent's stdio buffers
}

/// Waits for the child to end (an interrupted wait is resumed); its status.
int reap(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) break;
  return status;
}

/// Ends the child if it still runs, and reaps it.
void end_child(pid_t pid) {
  ::kill(pid, SIGKILL);  // no effect on a child that is exiting already
  reap(pid);
}

/// Ends and reaps the child when it goes, unless reaped or handed over.
struct ChildGuard {
  pid_t pid;
  bool reaped = false;
  ~ChildGuard() {
    if (!reaped) end_child(pid);
  }
  /// The child, ended and reaped when the last copy of the result goes.
  std::shared_ptr<void> hand_over() {
    if (reaped) return nullptr;
    reaped = true;
    const pid_t child = pid;
    return std::shared_ptr<void>(nullptr, [child](void*) { end_child(child); });
  }
};

/// The exit code a whole answer's trailer states, with the trailer taken off `answer`; -1 (and
/// `answer` as it was) where it does not end with a trailer that counts the bytes before it.
int take_trailer(std::string& answer) {
  if (answer.size() < k_trailer_bytes) return -1;
  const char* trailer = answer.data() + answer.size() - k_trailer_bytes;
  std::uint64_t answer_bytes = 0;
  std::memcpy(&answer_bytes, trailer, sizeof answer_bytes);
  if (std::memcmp(trailer + 9, k_trailer_magic, sizeof k_trailer_magic) != 0 ||
      answer_bytes != answer.size() - k_trailer_bytes)
    return -1;
  const int code = static_cast<std::uint8_t>(trailer[8]);
  answer.resize(answer.size() - k_trailer_bytes);
  return code;
}

/// The child's answer and exit status: reads the pipe until the child has closed it after a whole
/// answer (the status is then the exit code its trailer states, and the child is left unreaped),
/// or until the child has ended, killing it when limits.import_wall_s passes or the answer grows
/// past limits.max_memory_bytes. The child's end is told by a pidfd (or, without one, by polling
/// every millisecond), not by the pipe's end of file alone: a child forked meanwhile by another
/// thread may hold the pipe open a moment longer.
std::string await_answer(ChildGuard& child, int answer_fd, int& status, const std::string& name,
                         const ReadLimits& limits) {
  using clock = std::chrono::steady_clock;
  const double wall_s = limits.import_wall_s > 0 ? std::min(limits.import_wall_s, k_max_wall_s) : 0.0;  // NaN: 0
  const auto deadline =
      clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(wall_s));
  Fd pidfd;
#ifdef SYS_pidfd_open
  pidfd.fd = static_cast<int>(::syscall(SYS_pidfd_open, child.pid, 0));
#endif
  std::string answer;
  bool pipe_open = true;
  char chunk[64 << 10];
  auto drain = [&] {
    while (pipe_open) {
      const ssize_t n = ::read(answer_fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN) return;
      if (n <= 0) pipe_open = false;
      else answer.append(chunk, static_cast<std::size_t>(n));
      if (answer.size() > limits.max_memory_bytes)
        fail(ErrorKind::read, name + ": the FBX import child's answer is larger than the memory limit of " +
                                  std::to_string(limits.max_memory_bytes >> 20) + " MiB (--max-memory); file refused");
    }
  };
  for (;;) {
    drain();
    if (!pipe_open) {
      const int code = take_trailer(answer);
      if (code >= 0) {
        status = W_EXITCODE(code, 0);
        return answer;
      }
    }
    const pid_t done = ::waitpid(child.pid, &status, WNOHANG);
    if (done < 0 && errno != EINTR)
      fail(ErrorKind::read, name + ": lost the isolated FBX import: " + std::strerror(errno));
    if (done == child.pid) {
      child.reaped = true;
      drain();  // all it wrote is in the pipe now
      take_trailer(answer);
      return answer;
    }
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - clock::now()).count();
    if (left <= 0)
      fail(ErrorKind::read, name + ": the FBX importer did not finish within its time limit of " +
                                seconds_text(limits.import_wall_s) + " (wall clock); file refused");
    pollfd watched[2];
    nfds_t count = 0;
    if (pidfd.fd >= 0) watched[count++] = {pidfd.fd, POLLIN, 0};
    if (pipe_open) watched[count++] = {answer_fd, POLLIN, 0};
    const long long step = pidfd.fd >= 0 ? left : std::min<long long>(left, pipe_open ? 10 : 1);
    ::poll(watched, count, static_cast<int>(std::min<long long>(step, 1 << 30)));
  }
}

}  // namespace

void set_import_child_fault(ChildFault fault) { staged_fault.store(fault); }

ImportedScene import_in_child(const std::string& bytes, std::string* release, const std::string& name,
                              const ReadLimits& limits) {
  const std::uint64_t address_space = address_space_bytes();
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0)
    fail(ErrorKind::read, name + ": cannot start the isolated FBX import: " + std::strerror(errno));
  Fd reader{ends[0]}, writer{ends[1]};
  ::fcntl(writer.fd, F_SETPIPE_SZ, k_pipe_bytes);  // best effort: the default size works too
  ::fcntl(reader.fd, F_SETFL, O_NONBLOCK);
  const ChildFault fault = staged_fault.load();
  const pid_t pid = ::fork();
  if (pid < 0) fail(ErrorKind::read, name + ": cannot start the isolated FBX import: " + std::strerror(errno));
  if (pid == 0) run_child(bytes, release, limits, address_space, writer.fd, fault);
  ChildGuard child{pid};
  ::close(writer.fd);
  writer.fd = -1;
  if (release) std::string().swap(*release);  // the child has its own copy
  int status = 0;
  std::string answer = await_answer(child, reader.fd, status, name, limits);

  const std::string limit_text = std::to_string(limits.max_memory_bytes >> 20) + " MiB (--max-memory)";
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    if (sig == SIGXCPU || sig == SIGKILL)
      fail(ErrorKind::read, name + ": the FBX importer ran over its CPU time limit of " +
                                std::to_string(limits.import_cpu_s) + " s; file refused");
    fail(ErrorKind::read, name + ": the FBX importer crashed on this file (signal " + std::to_string(sig) + ", " +
                              ::strsignal(sig) + "); file refused");
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : k_child_failed;
  if (code == k_child_out_of_memory)
    fail(ErrorKind::read,
         name + ": the FBX importer needs more than the memory limit of " + limit_text + "; file refused");
  if (code == k_child_too_many_nodes) fail_too_many_nodes(name, limits);
  if (code == k_child_failed) fail(ErrorKind::read, name + ": the FBX importer failed on this file; file refused");
  if (code != k_child_ok && code != k_child_unreadable)  // e.g. a sanitizer's report in the child
    fail(ErrorKind::read, name + ": the FBX importer crashed on this file (exit code " + std::to_string(code) +
                              "); file refused");
  ImportAnswer decoded = decode_answer(answer, name, limits);
  std::string().swap(answer);
  if (decoded.readable != (code == k_child_ok))
    fail(ErrorKind::read, name + ": the FBX import child's answer does not match its exit code (" +
                              std::to_string(code) + "); file refused");
  if (!decoded.readable)
    fail(ErrorKind::read, name + ": assimp could not read the FBX file: " + printable(decoded.reason));
  decoded.scene.sender = child.hand_over();
  return std::move(decoded.scene);
}

}  // namespace footfix::fbx
