// Binary FBX 7.x -> FbxDocument. Every length and offset is checked against the bytes that are
// actually there before anything is allocated, so malformed files fail with a located message.
#include <zlib.h>

#include <cstring>
#include <functional>

#include "footfix/core/error.h"
#include "footfix/core/text.h"
#include "fbx_document.h"

namespace footfix {
namespace {

constexpr std::size_t k_header_size = 27;
/// zlib cannot expand data by more than about 1032:1.
constexpr std::uint64_t k_max_zlib_ratio = 1100;
/// No genuine FBX array comes near this; larger ones are refused before allocating.
constexpr std::uint64_t k_max_array_bytes = 1ull << 30;
/// All compressed arrays of one file may expand to at most this multiple of the file size plus
/// k_inflate_allowance: real files compress arrays a few times at most; zlib allows ~1000:1.
constexpr std::uint64_t k_max_inflate_ratio = 16;
constexpr std::uint64_t k_inflate_allowance = 64ull << 20;

class BinaryReader {
 public:
  BinaryReader(std::string_view bytes, const std::string& source, bool wide, const EachFbxObject& each_object)
      : bytes_(bytes), source_(source), wide_(wide), each_object_(each_object) {}

  [[noreturn]] void error(std::size_t offset, const std::string& what) const {
    fail(ErrorKind::read, source_ + ": offset " + std::to_string(offset) + ": " + what);
  }

  template <typename T>
  T read(std::size_t& pos) const {
    if (bytes_.size() - pos < sizeof(T) || pos > bytes_.size()) error(pos, "unexpected end of file");
    T v;
    std::memcpy(&v, bytes_.data() + pos, sizeof(T));
    pos += sizeof(T);
    return v;
  }

  std::uint64_t read_size(std::size_t& pos) const {
    return wide_ ? read<std::uint64_t>(pos) : read<std::uint32_t>(pos);
  }

  std::string_view take(std::size_t& pos, std::uint64_t n) const {
    if (pos > bytes_.size() || n > bytes_.size() - pos) error(pos, "length " + std::to_string(n) + " runs past the end of the file");
    std::string_view s = bytes_.substr(pos, n);
    pos += n;
    return s;
  }

  /// Parses records from `pos` until a null record (consumed) or `end`. Returns true if a null
  /// record closed the list. `objects`: the list is the first top-level Objects node's children.
  bool parse_list(std::size_t& pos, std::size_t end, std::vector<FbxNode>& out, int depth, bool objects = false) {
    if (depth > k_fbx_max_depth) error(pos, "nodes nested deeper than " + std::to_string(k_fbx_max_depth));
    while (pos < end) {
      std::size_t start = pos;
      std::uint64_t end_offset = read_size(pos);
      std::uint64_t prop_count = read_size(pos);
      std::uint64_t prop_bytes = read_size(pos);
      std::uint8_t name_len = read<std::uint8_t>(pos);
      if (end_offset == 0) {
        if (prop_count != 0 || prop_bytes != 0 || name_len != 0) error(start, "malformed null record");
        return true;
      }
      if (end_offset > end || end_offset <= start) error(start, "node end offset " + std::to_string(end_offset) + " out of range");
      FbxNode node;
      node.name = std::string(take(pos, name_len));
      std::size_t props_end = pos + prop_bytes;
      if (prop_bytes > end_offset - pos) error(pos, "property list of " + std::to_string(prop_bytes) + " bytes runs past its node");
      // Each property takes at least 2 bytes; a larger count cannot be genuine.
      if (prop_count > prop_bytes) error(start, "node '" + printable(node.name, 40) + "': " + std::to_string(prop_count) + " properties in " + std::to_string(prop_bytes) + " bytes");
      for (std::uint64_t i = 0; i < prop_count; ++i) node.properties.push_back(parse_property(pos, props_end));
      if (pos != props_end) error(pos, "node '" + printable(node.name, 40) + "': property list length mismatch");
      const bool first_objects = depth == 0 && node.name == "Objects" && !objects_seen_;
      objects_seen_ = objects_seen_ || first_objects;
      if (pos < end_offset) {
        node.null_terminated = parse_list(pos, end_offset, node.children, depth + 1, first_objects);
        if (pos != end_offset) error(pos, "node '" + printable(node.name, 40) + "': children end at " + std::to_string(pos) + ", expected " + std::to_string(end_offset));
      }
      if (objects && each_object_) each_object_(node);
      out.push_back(std::move(node));
    }
    return false;
  }

 private:
  FbxProperty parse_property(std::size_t& pos, std::size_t end) const {
    std::size_t start = pos;
    char type = read<char>(pos);
    FbxProperty p;
    p.type = type;
    switch (type) {
      case 'Y': p.value = std::int64_t{read<std::int16_t>(pos)}; break;
      case 'C': p.value = std::int64_t{read<std::uint8_t>(pos)}; break;
      case 'I': p.value = std::int64_t{read<std::int32_t>(pos)}; break;
      case 'L': p.value = read<std::int64_t>(pos); break;
      case 'F': p.value = double{read<float>(pos)}; break;
      case 'D': p.value = read<double>(pos); break;
      case 'S':
      case 'R': {
        std::uint32_t n = read<std::uint32_t>(pos);
        p.value = std::string(take(pos, n));
        break;
      }
      case 'f': p.value = read_array<float>(pos, p); break;
      case 'd': p.value = read_array<double>(pos, p); break;
      case 'l': p.value = read_array<std::int64_t>(pos, p); break;
      case 'i': p.value = read_array<std::int32_t>(pos, p); break;
      case 'b':
      case 'c': p.value = read_array<std::uint8_t>(pos, p); break;
      default: error(start, std::string("unknown property type code 0x") + hex(static_cast<unsigned char>(type)));
    }
    if (pos > end) error(start, "property runs past its node's property list");
    return p;
  }

  static std::string hex(unsigned v) {
    const char* d = "0123456789abcdef";
    return {d[v >> 4], d[v & 15]};
  }

  template <typename T>
  std::vector<T> read_array(std::size_t& pos, FbxProperty& p) const {
    std::size_t start = pos;
    std::uint32_t count = read<std::uint32_t>(pos);
    std::uint32_t encoding = read<std::uint32_t>(pos);
    std::uint32_t stored = read<std::uint32_t>(pos);
    std::string_view data = take(pos, stored);
    std::uint64_t raw_size = std::uint64_t{count} * sizeof(T);
    if (raw_size > k_max_array_bytes)
      error(start, "array of " + std::to_string(count) + " elements is larger than 1 GiB");
    std::vector<T> out;
    if (encoding == 0) {
      if (stored != raw_size) error(start, "array of " + std::to_string(count) + " elements stored in " + std::to_string(stored) + " bytes");
      out.resize(count);
      if (count) std::memcpy(out.data(), data.data(), raw_size);
      return out;
    }
    if (encoding != 1) error(start, "unknown array encoding " + std::to_string(encoding));
    if (raw_size > std::uint64_t{stored} * k_max_zlib_ratio + 64)
      error(start, "array of " + std::to_string(count) + " elements cannot come from " + std::to_string(stored) + " compressed bytes");
    inflated_ += raw_size;
    if (inflated_ > std::uint64_t{bytes_.size()} * k_max_inflate_ratio + k_inflate_allowance)
      error(start, "compressed arrays expand to more than " + std::to_string(inflated_ >> 20) +
                       " MiB in all, over 16 x the file size + 64 MiB (a decompression bomb?)");
    p.compressed = true;
    out.resize(count);
    uLongf dest_len = static_cast<uLongf>(raw_size);
    int rc = uncompress(reinterpret_cast<Bytef*>(out.data()), &dest_len,
                        reinterpret_cast<const Bytef*>(data.data()), stored);
    if (rc != Z_OK || dest_len != raw_size)
      error(start, "bad zlib array data (" + std::string(rc == Z_OK ? "wrong length" : zError(rc)) + ")");
    p.encoded = std::make_shared<const std::string>(data);
    p.encoded_hash = std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char*>(out.data()), raw_size));
    return out;
  }

  std::string_view bytes_;
  const std::string& source_;
  bool wide_;
  const EachFbxObject& each_object_;
  bool objects_seen_ = false;  ///< the first top-level Objects node has been met
  mutable std::uint64_t inflated_ = 0;  ///< bytes all compressed arrays so far expand to
};

}  // namespace

FbxDocument parse_fbx_binary(std::string_view bytes, const std::string& source_name, const EachFbxObject& each_object) {
  auto error = [&](std::size_t offset, const std::string& what) {
    fail(ErrorKind::read, source_name + ": offset " + std::to_string(offset) + ": " + what);
  };
  if (bytes.size() < k_header_size) error(0, "file too short for a binary FBX header");
  if (bytes.substr(0, 21) != std::string_view("Kaydara FBX Binary  \0", 21)) error(0, "not a binary FBX file");
  FbxDocument doc;
  doc.binary = true;
  std::memcpy(&doc.version, bytes.data() + 23, 4);
  if (doc.version < 7000 || doc.version >= 8000) error(23, "unsupported FBX version " + std::to_string(doc.version));
  BinaryReader reader(bytes, source_name, doc.version >= 7500, each_object);
  std::size_t pos = k_header_size;
  bool closed = reader.parse_list(pos, bytes.size(), doc.roots, 0);
  if (!closed) error(pos, "missing top-level null record (truncated file?)");
  doc.footer = std::string(bytes.substr(pos));
  std::size_t version_at = 16;
  while (version_at < doc.footer.size() && doc.footer[version_at] == '\0') ++version_at;
  doc.footer_version_residue = static_cast<int>((pos + version_at) % 16);
  doc.footer_start_residue = static_cast<int>(pos % 16);
  return doc;
}

}  // namespace footfix
