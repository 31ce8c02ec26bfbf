// The reused FBX import worker (fbx/fbx_import_child): a reading thread imports file after file
// in one worker; every import keeps its own limits (CPU time per import); a failure other than
// assimp's "cannot read" ends the worker and the next import starts a fresh one; a worker that
// grows past its limit retires; a worker answers before it frees the import; the worker ends with
// its thread (reaped) and dies with its process even in the middle of an import. Faults are
// staged through the worker's test hook.
#include <gtest/gtest.h>

#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "footfix/core/error.h"
#include "footfix/fbx/fbx.h"
#include "fbx/fbx_import_child.h"  // internal to fbx, not installed
#include "support/hostile_files.h"

namespace footfix {
namespace {

/// Stages `fault` in every import while it lives.
struct Staged {
  explicit Staged(fbx::ChildFault fault) { fbx::set_import_child_fault(fault); }
  ~Staged() { fbx::set_import_child_fault(fbx::ChildFault::none); }
};

Clip read_isolated(int models, const ReadLimits& limits = {}) {
  return read_fbx_bytes(test::ascii_fbx_pivoted_models(models), "pivoted.fbx", "", nullptr, limits);
}

/// The Error(read) message of an isolated read (empty if it reads).
std::string isolated_error(const ReadLimits& limits = {}) {
  try {
    read_isolated(3, limits);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::read);
    return e.what();
  }
  return {};
}

/// Whether `pid` is no child of this process any more (ended and reaped, or never one).
bool reaped(pid_t pid) {
  errno = 0;
  return ::waitpid(pid, nullptr, WNOHANG) == -1 && errno == ECHILD;
}

TEST(FbxImportWorker, ThreadImportsFileAfterFileInOneWorker) {
  // On a thread of its own, which starts with no worker whatever earlier tests left on this one.
  std::thread([] {
    ReadLimits here;
    here.isolate_fbx_import = false;
    const pid_t before = fbx::import_worker_of_this_thread();
    for (int models : {3, 5, 3, 8}) {
      SCOPED_TRACE(models);
      const Clip isolated = read_isolated(models);
      const Clip direct = read_isolated(models, here);
      EXPECT_EQ(isolated.skeleton.names, direct.skeleton.names);
      EXPECT_TRUE(isolated.rotations == direct.rotations);
      EXPECT_TRUE(isolated.translations == direct.translations);
    }
    const pid_t worker = fbx::import_worker_of_this_thread();
    EXPECT_EQ(before, 0);
    EXPECT_GT(worker, 0);
    read_isolated(3);
    EXPECT_EQ(fbx::import_worker_of_this_thread(), worker) << "the second import started a new worker";
    EXPECT_EQ(::waitpid(worker, nullptr, WNOHANG), 0) << "the worker is a running child of this process";
  }).join();
}

TEST(FbxImportWorker, RetireLimitZeroMeansAFreshWorkerForEveryImport) {
  ReadLimits limits;
  limits.fbx_worker_retire_bytes = 0;
  read_isolated(3, limits);
  EXPECT_EQ(fbx::import_worker_of_this_thread(), 0);
  EXPECT_TRUE(reaped(-1)) << "a retired worker is left running or unreaped";
}

TEST(FbxImportWorker, WorkerRetiresWhenItHasGrownPastItsLimit) {
  read_isolated(3);
  const pid_t worker = fbx::import_worker_of_this_thread();
  ASSERT_GT(worker, 0);
  ReadLimits limits;
  limits.fbx_worker_retire_bytes = 4096;  // one page: any import's heap grows past it
  read_isolated(3, limits);
  EXPECT_EQ(fbx::import_worker_of_this_thread(), 0);
  EXPECT_TRUE(reaped(worker));
}

TEST(FbxImportWorker, WorkerForkedOverAFreedHeapRetiresWhenItHasGrownPastItsLimit) {
  // A reader that freed much of its heap before its worker started: the worker's import reuses
  // that heap, whose pages it shares with the reader until it writes them, so its resident set
  // does not grow; the copies it makes are its own memory all the same, and count.
  std::thread([] {
    {
      constexpr size_t k_chunk = 32 << 10, k_chunks = 512;  // 16 MiB in blocks the heap serves
      std::vector<std::unique_ptr<char[]>> freed;
      for (size_t i = 0; i < k_chunks; ++i) {
        freed.emplace_back(new char[k_chunk]);
        std::memset(freed.back().get(), 1, k_chunk);
      }
      const std::unique_ptr<char[]> pin(new char[64]);  // keeps the heap's top: the free stays in it
      freed.clear();
      ReadLimits limits;
      limits.fbx_worker_retire_bytes = 4096;
      read_isolated(3);
      const pid_t worker = fbx::import_worker_of_this_thread();
      ASSERT_GT(worker, 0);
      read_isolated(3, limits);
      EXPECT_EQ(fbx::import_worker_of_this_thread(), 0) << "the worker did not retire";
      EXPECT_TRUE(reaped(worker));
    }
    ::malloc_trim(0);  // the freed heap back to the system: later tests' children fork a small process
  }).join();
}

TEST(FbxImportWorker, AnswerArrivesBeforeTheWorkerFreesTheImport) {
  read_isolated(3);
  const pid_t first = fbx::import_worker_of_this_thread();
  ASSERT_GT(first, 0);
  ReadLimits limits;
  limits.import_wall_s = 1;
  {
    // The worker never gets past freeing this import: the read has its answer all the same.
    Staged slow_free(fbx::ChildFault::slow_free);
    EXPECT_EQ(isolated_error(limits), "") << "the read waited for the worker to free its import";
  }
  // The next import waits for the stalled worker's verdict until its wall-clock limit, ends it
  // and starts a fresh worker.
  EXPECT_NO_THROW(read_isolated(3, limits));
  EXPECT_TRUE(reaped(first)) << "the stalled worker is left running or unreaped";
  const pid_t second = fbx::import_worker_of_this_thread();
  EXPECT_GT(second, 0);
  EXPECT_NE(second, first);
}

TEST(FbxImportWorker, CrashEndsTheWorkerAndTheNextImportStartsAFreshOne) {
  read_isolated(3);
  const pid_t first = fbx::import_worker_of_this_thread();
  {
    Staged crash(fbx::ChildFault::crash);
    const std::string error = isolated_error();
    EXPECT_NE(error.find("pivoted.fbx: the FBX importer crashed on this file (signal 11"), std::string::npos) << error;
  }
  EXPECT_EQ(fbx::import_worker_of_this_thread(), 0);
  EXPECT_TRUE(reaped(first));
  EXPECT_NO_THROW(read_isolated(3));
  const pid_t second = fbx::import_worker_of_this_thread();
  EXPECT_GT(second, 0);
  EXPECT_NE(second, first);
}

/// Descriptors open in this process.
std::size_t open_descriptors() {
  std::size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) n += entry.exists() ? 1 : 0;
  return n;
}

TEST(FbxImportWorker, EndedWorkersLeaveNoDescriptorOrProcess) {
  ReadLimits fresh;
  fresh.fbx_worker_retire_bytes = 0;
  read_isolated(3, fresh);  // no worker left after it
  const std::size_t without_worker = open_descriptors();
  read_isolated(3);
  const std::size_t with_worker = open_descriptors();
  EXPECT_GT(with_worker, without_worker);
  for (auto fault : {fbx::ChildFault::crash, fbx::ChildFault::corrupt_answer, fbx::ChildFault::truncated_answer}) {
    {
      Staged staged(fault);
      EXPECT_FALSE(isolated_error().empty());
    }
    EXPECT_EQ(open_descriptors(), without_worker) << "an ended worker's socket, pidfd or memory file stays open";
    EXPECT_TRUE(reaped(-1));
    read_isolated(3);
    EXPECT_EQ(open_descriptors(), with_worker);
  }
}

TEST(FbxImportWorker, MalformedAnswerEndsTheWorker) {
  read_isolated(3);
  const pid_t first = fbx::import_worker_of_this_thread();
  {
    Staged corrupt(fbx::ChildFault::corrupt_answer);
    EXPECT_NE(isolated_error().find("answer is malformed"), std::string::npos);
  }
  EXPECT_EQ(fbx::import_worker_of_this_thread(), 0);
  EXPECT_TRUE(reaped(first));
  EXPECT_NO_THROW(read_isolated(3));
}

TEST(FbxImportWorker, CpuTimeLimitIsPerImport) {
  // Each import uses 0.6 s of CPU time under a 1 s limit (counted from the whole second the
  // worker had used before it: 1-2 s): four of them pass 2 s in one worker.
  Staged busy(fbx::ChildFault::busy);
  ReadLimits limits;
  limits.import_cpu_s = 1;
  for (int i = 0; i < 4; ++i) EXPECT_NO_THROW(read_isolated(3, limits)) << "import " << i;
  EXPECT_GT(fbx::import_worker_of_this_thread(), 0);
}

TEST(FbxImportWorker, CpuBombEndsWithTheCpuTimeLimit) {
  read_isolated(3);
  ReadLimits limits;
  limits.import_cpu_s = 1;
  {
    Staged spin(fbx::ChildFault::spin);
    const std::string error = isolated_error(limits);
    EXPECT_NE(error.find("pivoted.fbx: the FBX importer ran over its CPU time limit of 1 s; file refused"),
              std::string::npos)
        << error;
  }
  EXPECT_EQ(fbx::import_worker_of_this_thread(), 0);
  EXPECT_NO_THROW(read_isolated(3, limits));
}

TEST(FbxImportWorker, WorkerEndsWithItsThreadAndIsReaped) {
  // This thread's own worker (one that an earlier test in this process started, or none) is not
  // the other thread's and outlives it.
  const pid_t own = fbx::import_worker_of_this_thread();
  pid_t worker = 0;
  std::thread([&] {
    read_isolated(3);
    worker = fbx::import_worker_of_this_thread();
  }).join();
  ASSERT_GT(worker, 0);
  EXPECT_NE(worker, own);
  EXPECT_TRUE(reaped(worker)) << "the worker of an ended thread is left running or unreaped";
  EXPECT_EQ(fbx::import_worker_of_this_thread(), own);
}

/// The state letter of process `pid` (/proc/PID/stat), or 0.
char process_state(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() ? text[paren + 2] : 0;
}

TEST(FbxImportWorker, WorkerDiesWithItsProcessInTheMiddleOfAnImport) {
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  const pid_t reader = ::fork();
  ASSERT_GE(reader, 0);
  if (reader == 0) {  // a reader whose worker is busy importing when it is killed
    ::close(ends[0]);
    read_isolated(3);
    const pid_t worker = fbx::import_worker_of_this_thread();
    if (::write(ends[1], &worker, sizeof worker) != sizeof worker) ::_exit(1);
    fbx::set_import_child_fault(fbx::ChildFault::spin);
    ReadLimits limits;
    limits.import_cpu_s = 600;
    try {
      read_isolated(3, limits);
    } catch (...) {
    }
    ::_exit(1);
  }
  ::close(ends[1]);
  pid_t worker = 0;
  const bool told = ::read(ends[0], &worker, sizeof worker) == sizeof worker;
  ::close(ends[0]);
  if (!told || worker <= 0) {
    ::kill(reader, SIGKILL);
    ::waitpid(reader, nullptr, 0);
    FAIL() << "the reader did not start a worker";
  }
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, worker, 0));
  ASSERT_GE(pidfd, 0) << std::strerror(errno);
  // Running (spinning in its import), not waiting for a request.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (process_state(worker) != 'R' && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(process_state(worker), 'R');
  ::kill(reader, SIGKILL);
  ::waitpid(reader, nullptr, 0);
  pollfd ended{pidfd, POLLIN, 0};
  const int ready = ::poll(&ended, 1, 20000);
  EXPECT_EQ(ready, 1) << "the worker outlived its process";
  if (ready != 1) ::kill(worker, SIGKILL);
  ::close(pidfd);
}

}  // namespace
}  // namespace footfix
