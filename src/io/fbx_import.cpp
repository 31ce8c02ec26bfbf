#include "fbx_import.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>

#include "footfix/core/error.h"
#include "footfix/core/text.h"

namespace footfix::fbx {
namespace {

// Exit codes of the import child. Any other status (a signal, or an exit code nobody chose here,
// such as a sanitizer's report exiting with 1) means the importer did not end normally.
constexpr int k_child_ok = 0, k_child_unreadable = 100, k_child_out_of_memory = 101, k_child_failed = 102;

/// Bytes of address space this process maps now (/proc/self/statm, first field), 0 if unknown.
std::uint64_t address_space_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long long pages = 0;
  int n = std::fscanf(f, "%llu", &pages);
  std::fclose(f);
  return n == 1 ? pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

[[noreturn]] void run_child(const std::string& bytes, const ReadLimits& limits, std::uint64_t address_space) {
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
  int code = k_child_failed;
  try {
    Imported im;
    im.scene = im.importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, "fbx");
    code = im.scene && im.scene->mRootNode ? k_child_ok : k_child_unreadable;
  } catch (const std::bad_alloc&) {
    code = k_child_out_of_memory;
  } catch (...) {
    code = k_child_failed;
  }
  ::_exit(code);  // no atexit handlers, no flushing of the parent's stdio buffers
}

/// Runs the import in a child; throws Error(read) if the child did not end normally.
void rehearse_import(const std::string& bytes, const std::string& name, const ReadLimits& limits) {
  const std::uint64_t address_space = address_space_bytes();
  pid_t pid = ::fork();
  if (pid < 0) fail(ErrorKind::read, name + ": cannot start the isolated FBX import: " + std::strerror(errno));
  if (pid == 0) run_child(bytes, limits, address_space);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) fail(ErrorKind::read, name + ": lost the isolated FBX import: " + std::strerror(errno));
  }
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
    fail(ErrorKind::read, name + ": the FBX importer needs more than the memory limit of " + limit_text + "; file refused");
  if (code == k_child_failed) fail(ErrorKind::read, name + ": the FBX importer failed on this file; file refused");
  if (code != k_child_ok && code != k_child_unreadable)  // e.g. a sanitizer's report in the child
    fail(ErrorKind::read, name + ": the FBX importer crashed on this file (exit code " + std::to_string(code) +
                              "); file refused");
  // k_child_unreadable: the in-process import below fails the same way and gives assimp's reason.
}

}  // namespace

void import_fbx(Imported& im, const std::string& bytes, const std::string& name, const ReadLimits& limits) {
  if (limits.isolate_fbx_import) rehearse_import(bytes, name, limits);
  im.scene = im.importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, "fbx");
  if (!im.scene || !im.scene->mRootNode)
    fail(ErrorKind::read, name + ": assimp could not read the FBX file: " + printable(im.importer.GetErrorString()));
}

}  // namespace footfix::fbx
