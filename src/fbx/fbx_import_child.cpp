#include "fbx_import_child.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>

#include "fbx_budget.h"
#include "fbx_import_child_protocol.h"
#include "fbx_import_child_serve.h"
#include "fbx_import_wire.h"
#include "footfix/core/error.h"
#include "footfix/core/text.h"

namespace footfix::fbx {
namespace {

constexpr double k_max_wall_s = 1e7;  // longer deadlines are this one (the clock's range is finite)
using Clock = std::chrono::steady_clock;
/// The memory file keeps its pages for the next file up to this size; a larger file's are freed
/// after its import, so that one large file does not stay in memory through a batch.
constexpr std::uint64_t k_max_kept_file_bytes = 16 << 20;

std::atomic<ChildFault> staged_fault{ChildFault::none};

/// Waits for the process to end (an interrupted wait is resumed); its status.
int reap(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) break;
  return status;
}

/// Ends the process if it still runs, and reaps it.
void end_process(pid_t pid) {
  ::kill(pid, SIGKILL);  // no effect on a process that is exiting already
  reap(pid);
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

/// When `limits.import_wall_s` from now ends.
Clock::time_point wall_deadline(const ReadLimits& limits) {
  const double wall_s = limits.import_wall_s > 0 ? std::min(limits.import_wall_s, k_max_wall_s) : 0.0;  // NaN: 0
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(wall_s));
}

/// Milliseconds left until `deadline` (rounded up; <= 0 when it has passed).
long long ms_until(Clock::time_point deadline) {
  return std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
}

[[noreturn]] void fail_to_start(const std::string& name) {
  fail(ErrorKind::read, name + ": cannot start the isolated FBX import: " + std::strerror(errno));
}

/// A reading thread's import worker: its process, the socket to it, a process descriptor that
/// tells its end, and the memory file it reads each file from. Killed and reaped when the thread
/// ends.
class Worker {
 public:
  ~Worker() { end(); }

  /// The worker's process id if this process started it and it has not ended, else 0 (an ended
  /// worker is reaped; a copy of this object inherited by a forked process lets go of its files).
  pid_t running() {
    if (pid_ <= 0) return 0;
    if (owner_ != ::getpid()) {
      close_files();
      pid_ = -1;
      return 0;
    }
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) forget();
    return std::max<pid_t>(pid_, 0);
  }

  void start(const std::string& name) {
    int ends[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) fail_to_start(name);
    channel_ = ends[0];
    bytes_fd_ = ::memfd_create("footfix-fbx-import", MFD_CLOEXEC);
    if (bytes_fd_ < 0) {
      ::close(ends[1]);
      close_files();
      fail_to_start(name);
    }
    owner_ = ::getpid();
    pid_ = ::fork();
    if (pid_ == 0) serve_imports(ends[1], bytes_fd_, owner_);
    ::close(ends[1]);
    if (pid_ < 0) {
      close_files();
      fail_to_start(name);
    }
    ::fcntl(channel_, F_SETFL, O_NONBLOCK);
#ifdef SYS_pidfd_open
    pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
#endif
  }

  /// Writes `bytes` into the memory file and asks for their import.
  void request(const std::string& bytes, const ReadLimits& limits, ChildFault fault, const std::string& name) {
    if (::ftruncate(bytes_fd_, static_cast<off_t>(bytes.size())) != 0) fail_to_start(name);
    for (std::size_t done = 0; done < bytes.size();) {
      const ssize_t n = ::pwrite(bytes_fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail_to_start(name);
      done += static_cast<std::size_t>(n);
    }
    ImportRequest r;
    r.bytes = bytes.size();
    r.max_memory_bytes = limits.max_memory_bytes;
    r.cpu_s = limits.import_cpu_s;
    r.fault = static_cast<std::uint8_t>(fault);
    r.retire_bytes = limits.fbx_worker_retire_bytes;
    // Into an empty socket buffer: never blocks, all or nothing.
    if (::send(channel_, &r, sizeof r, MSG_NOSIGNAL) != static_cast<ssize_t>(sizeof r)) fail_to_start(name);
  }

  /// After a reply whose trailer says the worker stays: its verdict follows (fbx_import_child_
  /// protocol.h); `early` is the verdict if it came with the reply, else 0 (still to come).
  void expect_verdict(char early) {
    verdict_pending_ = true;
    verdict_ = early;
  }

  /// Takes the last import's verdict, if one is due, waiting for it until limits.import_wall_s
  /// has passed; ends the worker unless it stays (it retires, it ended, or it took too long).
  void settle(const ReadLimits& limits) {
    if (!verdict_pending_) return;
    verdict_pending_ = false;
    if (pid_ <= 0 || owner_ != ::getpid()) return;  // running() lets go of a forked copy's
    if (verdict_ == 0) verdict_ = read_verdict(wall_deadline(limits));
    if (verdict_ != k_verdict_stays) end();
  }

  /// After an import: frees the memory file's pages when it held a large file.
  void after_import(std::uint64_t bytes) {
    if (bytes > k_max_kept_file_bytes && ::ftruncate(bytes_fd_, 0) != 0) end();
  }

  /// Kills and reaps the worker (if this process started it) and closes its files.
  void end() {
    if (pid_ > 0 && owner_ == ::getpid()) end_process(pid_);
    close_files();
    pid_ = -1;
  }

  /// The worker has been reaped: lets go of it.
  void forget() {
    close_files();
    pid_ = -1;
  }

  /// Lets go of the worker without ending it; its process id, for the caller to end and reap.
  pid_t hand_over() {
    const pid_t pid = pid_;
    forget();
    return pid;
  }

  pid_t pid() const { return pid_; }
  int channel() const { return channel_; }
  int pidfd() const { return pidfd_; }

 private:
  /// The verdict byte; 0 when the worker ends or `deadline` passes first. The worker's end is
  /// told by its pidfd where there is one, else by polling every 10 ms (see await_answer).
  char read_verdict(Clock::time_point deadline) {
    for (;;) {
      char v = 0;
      const ssize_t n = ::read(channel_, &v, 1);
      if (n == 1) return v;
      if (n < 0 && errno == EINTR) continue;
      if (n == 0 || errno != EAGAIN) return 0;
      int status = 0;
      const pid_t ended = ::waitpid(pid_, &status, WNOHANG);
      if (ended == pid_) forget();  // reaped here: end() must not signal its id again
      if (ended != 0) return 0;
      const long long left = ms_until(deadline);
      if (left <= 0) return 0;
      pollfd watched[2] = {{channel_, POLLIN, 0}, {pidfd_, POLLIN, 0}};
      const long long step = pidfd_ >= 0 ? left : std::min<long long>(left, 10);
      ::poll(watched, pidfd_ >= 0 ? 2 : 1, static_cast<int>(std::min<long long>(step, 1 << 30)));
    }
  }

  void close_files() {
    close_fd(channel_);
    close_fd(pidfd_);
    close_fd(bytes_fd_);
  }

  pid_t pid_ = -1, owner_ = 0;
  int channel_ = -1, pidfd_ = -1, bytes_fd_ = -1;
  bool verdict_pending_ = false;
  char verdict_ = 0;
};

thread_local Worker this_thread_worker;

/// Ends the thread's worker when it goes, unless kept (the worker answered and goes on).
struct EndUnlessKept {
  Worker& worker;
  bool keep = false;
  ~EndUnlessKept() {
    if (!keep) worker.end();
  }
};

/// A whole reply's trailer: its code (with `retiring`), and the answer without it; -1 (and
/// `answer` as it was) where the bytes do not end with a trailer that counts the bytes before it.
/// The worker's verdict may have come with the reply (read at once): then it is taken off too
/// and stored in `verdict` (else 0).
int take_trailer(std::string& answer, bool& retiring, char& verdict) {
  for (const std::size_t extra : {std::size_t{0}, std::size_t{1}}) {
    if (answer.size() < k_trailer_bytes + extra) return -1;
    const std::size_t before = answer.size() - extra - k_trailer_bytes;
    const char* trailer = answer.data() + before;
    std::uint64_t answer_bytes = 0;
    std::memcpy(&answer_bytes, trailer, sizeof answer_bytes);
    if (std::memcmp(trailer + 10, k_trailer_magic, sizeof k_trailer_magic) != 0 || answer_bytes != before) continue;
    const bool retires = trailer[9] != 0;
    const char after = extra == 1 ? answer.back() : 0;
    if (extra == 1 && (retires || (after != k_verdict_stays && after != k_verdict_retires))) return -1;
    const int code = static_cast<std::uint8_t>(trailer[8]);
    retiring = retires;
    verdict = after;
    answer.resize(before);
    return code;
  }
  return -1;
}

/// The worker's answer and status: reads the socket until a whole reply has come (the status is
/// then the exit code its trailer states), or until the worker has ended (then reaped, with its
/// exit status), killing it when limits.import_wall_s passes or the answer grows past
/// limits.max_memory_bytes. The worker's end is told by its pidfd (or, without one, by polling
/// every millisecond), not by the socket's end of file alone: a process forked meanwhile by another
/// thread may hold the worker's end open a moment.
std::string await_answer(Worker& worker, int& status, bool& retiring, char& verdict, const std::string& name,
                         const ReadLimits& limits) {
  const auto deadline = wall_deadline(limits);
  std::string answer;
  bool open = true;
  char chunk[64 << 10];
  auto drain = [&] {
    while (open) {
      const ssize_t n = ::read(worker.channel(), chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN) return;
      if (n <= 0) open = false;
      else answer.append(chunk, static_cast<std::size_t>(n));
      if (answer.size() > limits.max_memory_bytes)
        fail(ErrorKind::read, name + ": the FBX import child's answer is larger than the memory limit of " +
                                  std::to_string(limits.max_memory_bytes >> 20) + " MiB (--max-memory); file refused");
    }
  };
  for (;;) {
    drain();
    const int code = take_trailer(answer, retiring, verdict);
    if (code >= 0) {
      status = W_EXITCODE(code, 0);
      return answer;
    }
    const pid_t done = ::waitpid(worker.pid(), &status, WNOHANG);
    if (done < 0 && errno != EINTR)
      fail(ErrorKind::read, name + ": lost the isolated FBX import: " + std::strerror(errno));
    if (done == worker.pid()) {
      drain();  // all it wrote is in the socket now
      worker.forget();
      retiring = true;
      take_trailer(answer, retiring, verdict);
      return answer;
    }
    const auto left = ms_until(deadline);
    if (left <= 0)
      fail(ErrorKind::read, name + ": the FBX importer did not finish within its time limit of " +
                                seconds_text(limits.import_wall_s) + " (wall clock); file refused");
    pollfd watched[2];
    nfds_t count = 0;
    if (worker.pidfd() >= 0) watched[count++] = {worker.pidfd(), POLLIN, 0};
    if (open) watched[count++] = {worker.channel(), POLLIN, 0};
    const long long step = worker.pidfd() >= 0 ? left : std::min<long long>(left, open ? 10 : 1);
    ::poll(watched, count, static_cast<int>(std::min<long long>(step, 1 << 30)));
  }
}

/// Throws the error that the worker's status states, if any.
void fail_on_status(int status, const std::string& name, const ReadLimits& limits) {
  const std::string limit_text = std::to_string(limits.max_memory_bytes >> 20) + " MiB (--max-memory)";
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
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
  if (code != k_child_ok && code != k_child_unreadable)  // e.g. a sanitizer's report in the worker
    fail(ErrorKind::read, name + ": the FBX importer crashed on this file (exit code " + std::to_string(code) +
                              "); file refused");
}

}  // namespace

void set_import_child_fault(ChildFault fault) { staged_fault.store(fault); }

pid_t import_worker_of_this_thread() {
  this_thread_worker.settle(ReadLimits{});
  return this_thread_worker.running();
}

ImportedScene import_in_child(const std::string& bytes, std::string* release, const std::string& name,
                              const ReadLimits& limits) {
  Worker& worker = this_thread_worker;
  worker.settle(limits);
  if (!worker.running()) worker.start(name);
  EndUnlessKept guard{worker};
  const std::uint64_t size = bytes.size();
  worker.request(bytes, limits, staged_fault.load(), name);
  if (release) std::string().swap(*release);  // the worker reads its own copy
  int status = 0;
  bool retiring = false;
  char verdict = 0;
  std::string answer = await_answer(worker, status, retiring, verdict, name, limits);
  fail_on_status(status, name, limits);
  const int code = WEXITSTATUS(status);
  ImportAnswer decoded = decode_answer(answer, name, limits);
  std::string().swap(answer);
  if (decoded.readable != (code == k_child_ok))
    fail(ErrorKind::read, name + ": the FBX import child's answer does not match its exit code (" +
                              std::to_string(code) + "); file refused");
  if (retiring && worker.pid() > 0) {
    const pid_t retired = worker.hand_over();
    decoded.scene.sender = std::shared_ptr<void>(nullptr, [retired](void*) { end_process(retired); });
  } else if (worker.pid() > 0) {
    worker.expect_verdict(verdict);  // taken at the thread's next import: the worker frees meanwhile
  }
  guard.keep = true;
  worker.after_import(size);
  if (!decoded.readable)
    fail(ErrorKind::read, name + ": assimp could not read the FBX file: " + printable(decoded.reason));
  return std::move(decoded.scene);
}

}  // namespace footfix::fbx
