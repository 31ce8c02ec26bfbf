#include "fbx_import_wire.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "fbx_budget.h"
#include "footfix/core/error.h"

namespace footfix::fbx {
namespace {

constexpr char k_magic[4] = {'F', 'F', 'X', 'I'};
constexpr std::uint8_t k_version = 1;
constexpr std::uint8_t k_kind_scene = 0, k_kind_unreadable = 1;
constexpr std::size_t k_max_text = MAXLEN;  // an aiString's capacity
constexpr std::size_t k_text_bytes = 4;     // a text's least size on the wire (its length)
constexpr std::size_t k_node_bytes = k_text_bytes + 4 + 16 * 4 + 1;
constexpr std::size_t k_take_bytes = k_text_bytes + 8 + 8 + 4;
constexpr std::size_t k_channel_bytes = k_text_bytes + 3 * 4;
constexpr std::size_t k_vector_key_bytes = 8 + 3 * 4, k_quat_key_bytes = 8 + 4 * 4;

static_assert(sizeof(ai_real) == 4, "the wire format holds assimp's single-precision values");

// ---- writing ----

class Writer {
 public:
  explicit Writer(WireSink& out) : out_(out) {}
  template <typename T>
  void put(T v) {
    out_.write(&v, sizeof v);
  }
  void count(std::size_t n) { put(static_cast<std::uint32_t>(n)); }
  void text(std::string_view s) {
    if (s.size() > k_max_text) s = s.substr(0, k_max_text);
    count(s.size());
    out_.write(s.data(), s.size());
  }
  void text(const aiString& s) { text(std::string_view(s.data, ::strnlen(s.data, k_max_text))); }
  void header(std::uint8_t kind) {
    out_.write(k_magic, sizeof k_magic);
    put(k_version);
    put(kind);
  }
  void keys(const aiVectorKey* keys, unsigned n) {
    count(n);
    for (unsigned i = 0; i < n; ++i) {
      put(keys[i].mTime);
      put(keys[i].mValue);
    }
  }
  void keys(const aiQuatKey* keys, unsigned n) {
    count(n);
    for (unsigned i = 0; i < n; ++i) {
      const aiQuaternion& q = keys[i].mValue;
      put(keys[i].mTime);
      put(q.w), put(q.x), put(q.y), put(q.z);
    }
  }

 private:
  WireSink& out_;
};

/// The scene's nodes depth first (children in order), each with its parent's index.
std::vector<std::pair<const aiNode*, int>> nodes_depth_first(const aiScene& scene) {
  std::vector<std::pair<const aiNode*, int>> out, pending{{scene.mRootNode, -1}};  // no recursion
  while (!pending.empty()) {
    auto [node, parent] = pending.back();
    pending.pop_back();
    if (!node) continue;
    const int self = static_cast<int>(out.size());
    out.emplace_back(node, parent);
    for (unsigned i = node->mNumChildren; i-- > 0;) pending.emplace_back(node->mChildren[i], self);
  }
  return out;
}

// ---- reading ----

/// Reads an answer front to back: every read is checked against the bytes left, every count
/// against the bytes its elements need at least and the memory they will take.
class Reader {
 public:
  Reader(std::string_view bytes, const std::string& name, const ReadLimits& limits)
      : bytes_(bytes), name_(name), limits_(limits) {}

  template <typename T>
  T get(const char* what) {
    if (left() < sizeof(T)) malformed(std::string(what) + ": the answer ends early");
    T v;
    std::memcpy(&v, bytes_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return v;
  }

  /// A count of elements of at least `wire_bytes` each on the wire and `memory_bytes` each decoded.
  std::size_t count(const char* what, std::size_t wire_bytes, std::size_t memory_bytes) {
    const auto n = get<std::uint32_t>(what);
    if (n > left() / wire_bytes)
      malformed(std::to_string(n) + " " + what + " in " + std::to_string(left()) + " bytes");
    charge(std::uint64_t{n} * memory_bytes);
    return n;
  }

  std::string text(const char* what) {
    const auto n = get<std::uint32_t>(what);
    if (n > k_max_text) malformed(std::string(what) + " of " + std::to_string(n) + " bytes (at most " +
                                  std::to_string(k_max_text) + ")");
    if (n > left()) malformed(std::string(what) + " of " + std::to_string(n) + " bytes in " + std::to_string(left()));
    charge(n);
    std::string s(bytes_.substr(pos_, n));
    pos_ += n;
    return s;
  }

  template <typename Key>
  void keys(std::vector<Key>& out, const char* what) {
    out.resize(count(what, sizeof(double) + sizeof(Key::mValue), sizeof(Key)));
    double previous = -std::numeric_limits<double>::infinity();
    for (Key& k : out) {
      k.mTime = get<double>(what);
      if (!std::isfinite(k.mTime) || k.mTime < previous)
        malformed(std::string(what) + ": key time " + std::to_string(k.mTime) + " is not finite or out of order");
      previous = k.mTime;
      value(k.mValue, what);
    }
  }

  void expect_end() {
    if (left() != 0) malformed(std::to_string(left()) + " bytes after the end");
  }

  [[noreturn]] void malformed(const std::string& what) const {
    fail(ErrorKind::read, name_ + ": the FBX import child's answer is malformed at byte " + std::to_string(pos_) +
                              " of " + std::to_string(bytes_.size()) + " (" + where + what + "); file refused");
  }

  std::string where;  ///< what is being read, for messages: "take 2, channel 5: "

 private:
  std::size_t left() const { return bytes_.size() - pos_; }
  void value(aiVector3D& v, const char* what) { v = get<aiVector3D>(what); }
  void value(aiQuaternion& q, const char* what) {
    q.w = get<float>(what), q.x = get<float>(what), q.y = get<float>(what), q.z = get<float>(what);
  }
  void charge(std::uint64_t bytes) {
    memory_ += bytes;
    if (memory_ > limits_.max_memory_bytes)
      fail(ErrorKind::read, name_ + ": the FBX import child's answer needs more than the memory limit of " +
                                std::to_string(limits_.max_memory_bytes >> 20) + " MiB (--max-memory); file refused");
  }

  std::string_view bytes_;
  const std::string& name_;
  const ReadLimits& limits_;
  std::size_t pos_ = 0;
  std::uint64_t memory_ = 0;
};

void read_nodes(Reader& in, ImportedScene& scene, const std::string& name, const ReadLimits& limits) {
  scene.nodes.resize(in.count("nodes", k_node_bytes, sizeof(ImportedNode)));
  if (scene.nodes.empty()) in.malformed("no root node");
  if (scene.nodes.size() > max_scene_nodes(limits)) fail_too_many_nodes(name, limits);
  for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
    in.where = "node " + std::to_string(i) + ": ";
    ImportedNode& n = scene.nodes[i];
    n.name = in.text("name");
    n.parent = in.get<std::int32_t>("parent");
    if (i == 0 ? n.parent != -1 : n.parent < 0 || static_cast<std::size_t>(n.parent) >= i)
      in.malformed("parent " + std::to_string(n.parent) + " is not a node before this one");
    n.transform = in.get<aiMatrix4x4>("transform");
    const auto meshes = in.get<std::uint8_t>("has meshes");
    if (meshes > 1) in.malformed("has meshes is " + std::to_string(meshes) + ", not 0 or 1");
    n.has_meshes = meshes == 1;
  }
}

void read_takes(Reader& in, ImportedScene& scene) {
  in.where.clear();
  scene.takes.resize(in.count("takes", k_take_bytes, sizeof(ImportedTake)));
  for (std::size_t t = 0; t < scene.takes.size(); ++t) {
    const std::string take = "take " + std::to_string(t);
    in.where = take + ": ";
    ImportedTake& tk = scene.takes[t];
    tk.name = in.text("name");
    tk.ticks_per_second = in.get<double>("ticks per second");
    tk.duration = in.get<double>("duration");
    tk.channels.resize(in.count("channels", k_channel_bytes, sizeof(ImportedChannel)));
    for (std::size_t c = 0; c < tk.channels.size(); ++c) {
      in.where = take + ", channel " + std::to_string(c) + ": ";
      ImportedChannel& ch = tk.channels[c];
      ch.node = in.text("node name");
      in.keys(ch.positions, "position keys");
      in.keys(ch.rotations, "rotation keys");
      in.keys(ch.scalings, "scaling keys");
    }
  }
}

}  // namespace

void encode_scene(const aiScene& scene, WireSink& sink) {
  Writer out(sink);
  out.header(k_kind_scene);
  const auto nodes = nodes_depth_first(scene);
  out.count(nodes.size());
  for (const auto& [node, parent] : nodes) {
    out.text(node->mName);
    out.put(static_cast<std::int32_t>(parent));
    out.put(node->mTransformation);
    out.put(static_cast<std::uint8_t>(node->mNumMeshes > 0));
  }
  std::size_t bones = 0;
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) bones += scene.mMeshes[m]->mNumBones;
  out.count(bones);
  for (unsigned m = 0; m < scene.mNumMeshes; ++m)
    for (unsigned b = 0; b < scene.mMeshes[m]->mNumBones; ++b) out.text(scene.mMeshes[m]->mBones[b]->mName);
  out.count(scene.mNumAnimations);
  for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
    const aiAnimation& anim = *scene.mAnimations[a];
    out.text(anim.mName);
    out.put(anim.mTicksPerSecond);
    out.put(anim.mDuration);
    out.count(anim.mNumChannels);
    for (unsigned c = 0; c < anim.mNumChannels; ++c) {
      const aiNodeAnim& ch = *anim.mChannels[c];
      out.text(ch.mNodeName);
      out.keys(ch.mPositionKeys, ch.mNumPositionKeys);
      out.keys(ch.mRotationKeys, ch.mNumRotationKeys);
      out.keys(ch.mScalingKeys, ch.mNumScalingKeys);
    }
  }
}

void encode_unreadable(std::string_view reason, WireSink& sink) {
  Writer out(sink);
  out.header(k_kind_unreadable);
  out.text(reason);
}

ImportAnswer decode_answer(std::string_view bytes, const std::string& name, const ReadLimits& limits) {
  Reader in(bytes, name, limits);
  char magic[sizeof k_magic];
  for (char& c : magic) c = in.get<char>("header");
  if (std::memcmp(magic, k_magic, sizeof k_magic) != 0) in.malformed("no FFXI header");
  const auto version = in.get<std::uint8_t>("version"), kind = in.get<std::uint8_t>("kind");
  if (version != k_version) in.malformed("version " + std::to_string(version) + ", not " + std::to_string(k_version));
  ImportAnswer answer;
  if (kind == k_kind_unreadable) {
    answer.reason = in.text("reason");
  } else if (kind == k_kind_scene) {
    answer.readable = true;
    read_nodes(in, answer.scene, name, limits);
    in.where.clear();
    answer.scene.bones.resize(in.count("bone names", k_text_bytes, sizeof(std::string)));
    for (std::string& b : answer.scene.bones) b = in.text("bone name");
    read_takes(in, answer.scene);
  } else {
    in.malformed("kind " + std::to_string(kind) + ", not 0 or 1");
  }
  in.where.clear();
  in.expect_end();
  return answer;
}

}  // namespace footfix::fbx
