#include "fbx_assimp_read.h"

#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

namespace footfix::fbx {
namespace {

// The name assimp's ReadFileFromMemory gives the bytes it reads (its AI_MEMORYIO_MAGIC_FILENAME).
constexpr const char* k_memory_file = "$$$___magic___$$$.fbx";
// Files up to this size are never released early: assimp's header check may read them whole.
constexpr std::size_t k_release_min_bytes = 4096;

std::atomic<std::uint64_t> imports{0};

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

}  // namespace

const aiScene* read_scene(Assimp::Importer& importer, std::string_view bytes) {
  imports.fetch_add(1, std::memory_order_relaxed);
  return importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, "fbx");
}

const aiScene* read_scene(Assimp::Importer& importer, const std::string& bytes, std::string* release) {
  if (!release || release->size() <= k_release_min_bytes) return read_scene(importer, std::string_view(bytes));
  imports.fetch_add(1, std::memory_order_relaxed);
  BytesSystem bytes_system(*release);
  // Set for the read only: assimp takes ours back out (without deleting it) when given null.
  struct Handler {
    Assimp::Importer& importer;
    ~Handler() { importer.SetIOHandler(nullptr); }
  } handler{importer};
  importer.SetIOHandler(&bytes_system);
  return importer.ReadFile(k_memory_file, 0);
}

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

std::uint64_t assimp_imports_in_this_process() { return imports.load(std::memory_order_relaxed); }

}  // namespace footfix::fbx
