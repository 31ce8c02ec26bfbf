// FbxDocument -> binary FBX 7.x, streamed: node end offsets are measured before the nodes are
// written; arrays keep the encoding they were read with (zlib or raw).
#include <zlib.h>

#include <cstring>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "footfix/core/error.h"
#include "fbx_document.h"

namespace footfix {
namespace {

// Two passes, so that the file is streamed rather than built whole in memory: the first measures
// every node (end offsets and property-list lengths are known before a node is written) and
// compresses the zlib arrays whose source bytes cannot be reused, the second writes.
class BinaryWriter {
 public:
  BinaryWriter(bool wide, std::ostream& out, const FbxArrayOverrides* overrides)
      : wide_(wide), out_(out), overrides_(overrides) {}

  std::uint64_t offset() const { return offset_; }

  template <typename T>
  void put(T v) {
    char tmp[sizeof(T)];
    std::memcpy(tmp, &v, sizeof(T));
    append(tmp, sizeof(T));
  }
  void put_size(std::uint64_t v) {
    if (wide_)
      put<std::uint64_t>(v);
    else
      put<std::uint32_t>(static_cast<std::uint32_t>(v));
  }
  void null_record() { append_zeros(null_record_size()); }
  void append(const char* data, std::size_t n) {
    offset_ += n;
    if (n >= k_flush_bytes) {  // large arrays go straight to the stream
      flush();
      out_.write(data, static_cast<std::streamsize>(n));
      return;
    }
    buf_.append(data, n);
    if (buf_.size() >= k_flush_bytes) flush();
  }
  void append(const std::string& s) { append(s.data(), s.size()); }
  void append_zeros(std::size_t n) {
    offset_ += n;
    buf_.append(n, '\0');
  }
  void flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

  /// First pass: the sizes of `n` and its subtree, in pre-order (see Sizes).
  std::uint64_t measure(const FbxNode& n) {
    if (n.name.size() > 255) fail(ErrorKind::write, "FBX node name longer than 255 bytes: " + n.name.substr(0, 40));
    const std::size_t at = sizes_.size();
    sizes_.emplace_back();
    std::uint64_t props = 0;
    for (const auto& p : n.properties) props += property_size(p, n.name);
    std::uint64_t total = 3 * size_bytes() + 1 + n.name.size() + props;
    for (const auto& c : n.children) total += measure(c);
    if (!n.children.empty() || n.null_terminated) total += null_record_size();
    sizes_[at] = {props, total};
    return total;
  }

  /// Second pass: writes `n` with the sizes measured.
  void node(const FbxNode& n) {
    const Sizes sizes = sizes_[next_size_++];
    const std::uint64_t end = offset_ + sizes.total;
    if (!wide_ && end > 0xffffffffULL) fail(ErrorKind::write, "FBX file too large for a 32-bit-offset version");
    put_size(end);
    put_size(n.properties.size());
    put_size(sizes.properties);
    put<std::uint8_t>(static_cast<std::uint8_t>(n.name.size()));
    append(n.name);
    for (const auto& p : n.properties) property(p);
    for (const auto& c : n.children) node(c);
    if (!n.children.empty() || n.null_terminated) null_record();
  }

 private:
  static constexpr std::size_t k_flush_bytes = 1 << 20;
  struct Sizes {
    std::uint64_t properties = 0, total = 0;
  };

  std::size_t size_bytes() const { return wide_ ? 8 : 4; }
  std::size_t null_record_size() const { return 3 * size_bytes() + 1; }

  std::uint64_t property_size(const FbxProperty& p, const std::string& node_name) {
    switch (p.type) {
      case 'Y': return 1 + 2;
      case 'C': return 1 + 1;
      case 'I':
      case 'F': return 1 + 4;
      case 'L':
      case 'D': return 1 + 8;
      case 'S':
      case 'R': return 1 + 4 + p.as_string().size();
      case 'f': return 1 + 12 + stored_size<float>(elements<float>(p), p);
      case 'd': return 1 + 12 + stored_size<double>(elements<double>(p), p);
      case 'l': return 1 + 12 + stored_size<std::int64_t>(elements<std::int64_t>(p), p);
      case 'i': return 1 + 12 + stored_size<std::int32_t>(elements<std::int32_t>(p), p);
      case 'b':
      case 'c': return 1 + 12 + stored_size<std::uint8_t>(elements<std::uint8_t>(p), p);
      default:
        fail(ErrorKind::write, "node '" + node_name + "': property type '" + std::string(1, p.type) +
                                   "' has no binary encoding");
    }
  }

  /// An array's elements: its override's, if it has one.
  template <typename T>
  FbxArrayView elements(const FbxProperty& p) const {
    if (overrides_)
      if (auto it = overrides_->find(&p); it != overrides_->end()) return it->second;
    const auto& v = std::get<std::vector<T>>(p.value);
    return {v.data(), v.size()};
  }

  /// Whether `p`, written with the elements `v` (of T), reuses the bytes it was read from.
  template <typename T>
  static bool reuses_source_bytes(FbxArrayView v, const FbxProperty& p) {
    return p.compressed && p.encoded && FbxProperty::bytes_hash(v.data, v.size * sizeof(T)) == p.encoded_hash;
  }

  /// Bytes an array takes in the file; compresses it (kept for the second pass) when needed.
  template <typename T>
  std::uint64_t stored_size(FbxArrayView v, const FbxProperty& p) {
    if (reuses_source_bytes<T>(v, p)) return p.encoded->size();
    const uLong raw_len = static_cast<uLong>(v.size * sizeof(T));
    if (!p.compressed) return raw_len;
    std::string packed(compressBound(raw_len), '\0');
    uLongf packed_len = static_cast<uLongf>(packed.size());
    if (compress2(reinterpret_cast<Bytef*>(packed.data()), &packed_len, static_cast<const Bytef*>(v.data),
                  raw_len, Z_DEFAULT_COMPRESSION) != Z_OK)
      fail(ErrorKind::write, "zlib compression failed");
    packed.resize(packed_len);
    packed.shrink_to_fit();
    const std::uint64_t size = packed.size();
    packed_.emplace(&p, std::move(packed));
    return size;
  }

  void property(const FbxProperty& p) {
    put<char>(p.type);
    switch (p.type) {
      case 'Y': put<std::int16_t>(static_cast<std::int16_t>(p.as_int())); break;
      case 'C': put<std::uint8_t>(static_cast<std::uint8_t>(p.as_int())); break;
      case 'I': put<std::int32_t>(static_cast<std::int32_t>(p.as_int())); break;
      case 'L': put<std::int64_t>(p.as_int()); break;
      case 'F': put<float>(static_cast<float>(p.as_double())); break;
      case 'D': put<double>(p.as_double()); break;
      case 'S':
      case 'R':
        put<std::uint32_t>(static_cast<std::uint32_t>(p.as_string().size()));
        append(p.as_string());
        break;
      case 'f': array<float>(elements<float>(p), p); break;
      case 'd': array<double>(elements<double>(p), p); break;
      case 'l': array<std::int64_t>(elements<std::int64_t>(p), p); break;
      case 'i': array<std::int32_t>(elements<std::int32_t>(p), p); break;
      default: array<std::uint8_t>(elements<std::uint8_t>(p), p); break;  // 'b', 'c' (measured)
    }
  }

  template <typename T>
  void array(FbxArrayView v, const FbxProperty& p) {
    put<std::uint32_t>(static_cast<std::uint32_t>(v.size));
    put<std::uint32_t>(p.compressed ? 1u : 0u);
    const std::string* stored = nullptr;
    if (reuses_source_bytes<T>(v, p)) {
      stored = p.encoded.get();
    } else if (p.compressed) {
      auto it = packed_.find(&p);
      if (it == packed_.end()) fail(ErrorKind::write, "FBX array changed while being written");
      stored = &it->second;
    }
    if (stored == nullptr) {
      const std::size_t raw_len = v.size * sizeof(T);
      put<std::uint32_t>(static_cast<std::uint32_t>(raw_len));
      append(static_cast<const char*>(v.data), raw_len);
      return;
    }
    put<std::uint32_t>(static_cast<std::uint32_t>(stored->size()));
    append(*stored);
  }

  bool wide_;
  std::ostream& out_;
  std::string buf_;
  std::uint64_t offset_ = 0;
  std::vector<Sizes> sizes_;  ///< per node, in pre-order
  std::size_t next_size_ = 0;
  std::unordered_map<const FbxProperty*, std::string> packed_;  ///< arrays compressed by measure
  const FbxArrayOverrides* overrides_;  ///< may be null
};

/// The footer is a 16-byte id, zero padding, then the version and a fixed tail. The padding is
/// recomputed for the new offset so the version keeps its alignment (FBX SDK files put it at 4
/// mod 16 after at least 4 zeros, so the file ends 16-aligned; Blender at 0 mod 16).
void write_footer(BinaryWriter& w, const FbxDocument& doc) {
  const std::string& footer = doc.footer;
  int residue = doc.footer_version_residue;
  if (footer.size() < 16 || static_cast<int>(w.offset() % 16) == doc.footer_start_residue) {
    w.append(footer);
    return;
  }
  w.append(footer.data(), 16);
  std::size_t rest = 16;
  while (rest < footer.size() && footer[rest] == '\0') ++rest;
  std::size_t pad = residue == 4 ? 4 : 1;
  while ((w.offset() + pad) % 16 != static_cast<std::size_t>(residue) % 16) ++pad;
  w.append_zeros(pad);
  w.append(footer.data() + rest, footer.size() - rest);
}

}  // namespace

void write_fbx_binary(const FbxDocument& doc, std::ostream& out, const FbxArrayOverrides* overrides) {
  BinaryWriter w(doc.version >= 7500, out, overrides);
  for (const auto& n : doc.roots) w.measure(n);
  w.append("Kaydara FBX Binary  \0\x1a\0", 23);
  w.put<std::uint32_t>(doc.version);
  for (const auto& n : doc.roots) w.node(n);
  w.null_record();
  write_footer(w, doc);
  w.flush();
  if (!out) fail(ErrorKind::write, "could not write FBX data");
}

}  // namespace footfix
