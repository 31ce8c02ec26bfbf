#include "fbx_import.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

#include "fbx_budget.h"
#include "footfix/core/error.h"
#include "footfix/core/text.h"

namespace footfix::fbx {
namespace {

// Exit codes of the import child. Any other status (a signal, or an exit code nobody chose here,
// such as a sanitizer's report exiting with 1) means the importer did not end normally.
constexpr int k_child_ok = 0, k_child_unreadable = 100, k_child_out_of_memory = 101, k_child_failed = 102,
              k_child_too_many_nodes = 103;

// The name assimp's ReadFileFromMemory gives the bytes it reads (its AI_MEMORYIO_MAGIC_FILENAME).
constexpr const char* k_memory_file = "$$$___magic___$$$.fbx";
// Files up to this size are never released early: assimp's header check may read them whole.
constexpr std::size_t k_release_min_bytes = 4096;

/// The bytes as one read-only file, served as assimp's MemoryIOStream does; when `release` is
/// set, it is emptied as soon as one read has copied the whole file (assimp's FBX importer reads
/// the file whole into a buffer of its own before parsing it), so the two copies do not stay
/// side by side through the import. Nothing is served after that.
class BytesStream final : public Assimp::IOStream {
 public:
  BytesStream(std::string& bytes, bool release) : bytes_(bytes), release_(release) {}
  size_t Read(void* out, size_t size, size_t count) override {
    if (size == 0 || released_) return 0;
    const size_t n = std::min(count, (bytes_.size() - pos_) / size), copied = n * size;
    std::memcpy(out, bytes_.data() + pos_, copied);
    const bool whole = pos_ == 0 && copied == bytes_.size();
    pos_ += copied;
    if (release_ && whole && copied > k_release_min_bytes) {
      std::string().swap(bytes_);
      released_ = true;
    }
    return n;
  }
  size_t Write(const void*, size_t, size_t) override { return 0; }
  aiReturn Seek(size_t offset, aiOrigin origin) override {
    const size_t length = bytes_.size();
    if (released_ || offset > length || (origin == aiOrigin_CUR && offset + pos_ > length)) return aiReturn_FAILURE;
    pos_ = origin == aiOrigin_SET ? offset : origin == aiOrigin_END ? length - offset : pos_ + offset;
    return aiReturn_SUCCESS;
  }
  size_t Tell() const override { return pos_; }
  size_t FileSize() const override { return bytes_.size(); }
  void Flush() override {}

 private:
  std::string& bytes_;
  bool release_;
  bool released_ = false;
  size_t pos_ = 0;
};

/// Serves k_memory_file only (the FBX importer opens no other file).
class BytesSystem final : public Assimp::IOSystem {
 public:
  explicit BytesSystem(std::string& bytes) : bytes_(bytes) {}
  bool Exists(const char* file) const override { return std::strcmp(file, k_memory_file) == 0 && !bytes_.empty(); }
  char getOsSeparator() const override { return '/'; }
  Assimp::IOStream* Open(const char* file, const char* mode) override {
    if (!Exists(file) || std::strchr(mode, 'w')) return nullptr;
    return new BytesStream(bytes_, true);
  }
  void Close(Assimp::IOStream* stream) override { delete stream; }

 private:
  std::string& bytes_;
};

/// assimp's import of `bytes` into `importer`; with `release` (= &bytes), the bytes are emptied
/// once assimp holds its own copy.
const aiScene* read_scene(Assimp::Importer& importer, const std::string& bytes, std::string* release) {
  if (!release || release->size() <= k_release_min_bytes) return importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, "fbx");
  BytesSystem bytes_system(*release);
  // Set for the read only: assimp takes ours back out (without deleting it) when given null.
  struct Handler {
    Assimp::Importer& importer;
    ~Handler() { importer.SetIOHandler(nullptr); }
  } handler{importer};
  importer.SetIOHandler(&bytes_system);
  return importer.ReadFile(k_memory_file, 0);
}

/// Nodes of the scene assimp imported (the root and all below it), counted up to `limit` + 1.
std::uint64_t scene_nodes(const aiScene& scene, std::uint64_t limit) {
  std::uint64_t count = 0;
  std::vector<const aiNode*> pending{scene.mRootNode};  // no recursion: the tree may be deep
  while (!pending.empty() && count <= limit) {
    const aiNode* node = pending.back();
    pending.pop_back();
    if (!node) continue;
    ++count;
    pending.insert(pending.end(), node->mChildren, node->mChildren + node->mNumChildren);
  }
  return count;
}

/// The most scene nodes --max-memory allows (k_bytes_per_scene_node each).
std::uint64_t max_scene_nodes(const ReadLimits& limits) { return limits.max_memory_bytes / fbx::k_bytes_per_scene_node; }

[[noreturn]] void fail_too_many_nodes(const std::string& name, const ReadLimits& limits) {
  fail(ErrorKind::read, name + ": the FBX importer made more than " + std::to_string(max_scene_nodes(limits)) +
                            " scene nodes (about " + std::to_string(fbx::k_bytes_per_scene_node >> 10) +
                            " KiB each), over the memory limit of " + std::to_string(limits.max_memory_bytes >> 20) +
                            " MiB (--max-memory); file refused");
}

/// Bytes of address space this process maps now (/proc/self/statm, first field), 0 if unknown.
std::uint64_t address_space_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long long pages = 0;
  int n = std::fscanf(f, "%llu", &pages);
  std::fclose(f);
  return n == 1 ? pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

[[noreturn]] void run_child(const std::string& bytes, std::string* release, const ReadLimits& limits,
                            std::uint64_t address_space) {
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
    im.scene = read_scene(im.importer, bytes, release);  // releases the child's view of the bytes only
    code = im.scene && im.scene->mRootNode ? k_child_ok : k_child_unreadable;
    if (code == k_child_ok && scene_nodes(*im.scene, max_scene_nodes(limits)) > max_scene_nodes(limits))
      code = k_child_too_many_nodes;
  } catch (const std::bad_alloc&) {
    code = k_child_out_of_memory;
  } catch (...) {
    code = k_child_failed;
  }
  ::_exit(code);  // no atexit handlers, no flushing of the parent's stdio buffers
}

/// Runs the import in a child; throws Error(read) if the child did not end normally.
void rehearse_import(const std::string& bytes, std::string* release, const std::string& name, const ReadLimits& limits) {
  const std::uint64_t address_space = address_space_bytes();
  pid_t pid = ::fork();
  if (pid < 0) fail(ErrorKind::read, name + ": cannot start the isolated FBX import: " + std::strerror(errno));
  if (pid == 0) run_child(bytes, release, limits, address_space);
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
  if (code == k_child_too_many_nodes) fail_too_many_nodes(name, limits);
  if (code == k_child_failed) fail(ErrorKind::read, name + ": the FBX importer failed on this file; file refused");
  if (code != k_child_ok && code != k_child_unreadable)  // e.g. a sanitizer's report in the child
    fail(ErrorKind::read, name + ": the FBX importer crashed on this file (exit code " + std::to_string(code) +
                              "); file refused");
  // k_child_unreadable: the in-process import below fails the same way and gives assimp's reason.
}

}  // namespace

void import_fbx(Imported& im, const std::string& bytes, const std::string& name, const ReadLimits& limits,
                std::string* release) {
  if (limits.isolate_fbx_import) rehearse_import(bytes, release, name, limits);
  im.scene = read_scene(im.importer, bytes, release);
  if (!im.scene || !im.scene->mRootNode)
    fail(ErrorKind::read, name + ": assimp could not read the FBX file: " + printable(im.importer.GetErrorString()));
  // Before footfix builds its scene graph and skeleton over the nodes (checked in the child too).
  if (scene_nodes(*im.scene, max_scene_nodes(limits)) > max_scene_nodes(limits)) fail_too_many_nodes(name, limits);
}

}  // namespace footfix::fbx
