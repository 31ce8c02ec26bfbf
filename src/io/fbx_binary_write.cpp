// FbxDocument -> binary FBX 7.x. Node end offsets are patched in after each node's children are
// written; arrays keep the encoding they were read with (zlib or raw).
#include <zlib.h>

#include <cstring>

#include "footfix/core/error.h"
#include "fbx_document.h"

namespace footfix {
namespace {

class BinaryWriter {
 public:
  explicit BinaryWriter(bool wide) : wide_(wide) {}
  std::string buf;

  template <typename T>
  void put(T v) {
    char tmp[sizeof(T)];
    std::memcpy(tmp, &v, sizeof(T));
    buf.append(tmp, sizeof(T));
  }
  void put_size(std::uint64_t v) {
    if (wide_)
      put<std::uint64_t>(v);
    else
      put<std::uint32_t>(static_cast<std::uint32_t>(v));
  }
  void patch_size(std::size_t at, std::uint64_t v) {
    if (wide_) {
      std::memcpy(&buf[at], &v, 8);
    } else {
      auto v32 = static_cast<std::uint32_t>(v);
      std::memcpy(&buf[at], &v32, 4);
    }
  }
  std::size_t size_bytes() const { return wide_ ? 8 : 4; }
  void null_record() { buf.append(3 * size_bytes() + 1, '\0'); }

  void node(const FbxNode& n) {
    if (n.name.size() > 255) fail(ErrorKind::write, "FBX node name longer than 255 bytes: " + n.name.substr(0, 40));
    std::size_t start = buf.size();
    put_size(0);  // end offset, patched below
    put_size(n.properties.size());
    std::size_t prop_len_at = buf.size();
    put_size(0);
    put<std::uint8_t>(static_cast<std::uint8_t>(n.name.size()));
    buf += n.name;
    std::size_t props_start = buf.size();
    for (const auto& p : n.properties) property(p, n.name);
    patch_size(prop_len_at, buf.size() - props_start);
    for (const auto& c : n.children) node(c);
    if (!n.children.empty() || n.null_terminated) null_record();
    if (!wide_ && buf.size() > 0xffffffffULL) fail(ErrorKind::write, "FBX file too large for a 32-bit-offset version");
    patch_size(start, buf.size());
  }

 private:
  void property(const FbxProperty& p, const std::string& node_name) {
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
        buf += p.as_string();
        break;
      case 'f': array(std::get<std::vector<float>>(p.value), p); break;
      case 'd': array(std::get<std::vector<double>>(p.value), p); break;
      case 'l': array(std::get<std::vector<std::int64_t>>(p.value), p); break;
      case 'i': array(std::get<std::vector<std::int32_t>>(p.value), p); break;
      case 'b':
      case 'c': array(std::get<std::vector<std::uint8_t>>(p.value), p); break;
      default:
        fail(ErrorKind::write, "node '" + node_name + "': property type '" + std::string(1, p.type) +
                                   "' has no binary encoding");
    }
  }

  template <typename T>
  void array(const std::vector<T>& v, const FbxProperty& p) {
    const auto* raw = reinterpret_cast<const Bytef*>(v.data());
    uLong raw_len = static_cast<uLong>(v.size() * sizeof(T));
    put<std::uint32_t>(static_cast<std::uint32_t>(v.size()));
    put<std::uint32_t>(p.compressed ? 1u : 0u);
    if (p.compressed && p.encoded && p.array_hash() == p.encoded_hash) {
      put<std::uint32_t>(static_cast<std::uint32_t>(p.encoded->size()));
      buf += *p.encoded;
      return;
    }
    if (!p.compressed) {
      put<std::uint32_t>(static_cast<std::uint32_t>(raw_len));
      buf.append(reinterpret_cast<const char*>(raw), raw_len);
      return;
    }
    std::string packed(compressBound(raw_len), '\0');
    uLongf packed_len = static_cast<uLongf>(packed.size());
    if (compress2(reinterpret_cast<Bytef*>(packed.data()), &packed_len, raw, raw_len, Z_DEFAULT_COMPRESSION) != Z_OK)
      fail(ErrorKind::write, "zlib compression failed");
    put<std::uint32_t>(static_cast<std::uint32_t>(packed_len));
    buf.append(packed.data(), packed_len);
  }

  bool wide_;
};

/// The footer is a 16-byte id, zero padding, then the version and a fixed tail. The padding is
/// recomputed for the new offset so the version keeps its alignment (FBX SDK files put it at 4
/// mod 16 after at least 4 zeros, so the file ends 16-aligned; Blender at 0 mod 16).
void write_footer(std::string& buf, const FbxDocument& doc) {
  const std::string& footer = doc.footer;
  int residue = doc.footer_version_residue;
  if (footer.size() < 16 || static_cast<int>(buf.size() % 16) == doc.footer_start_residue) {
    buf += footer;
    return;
  }
  buf.append(footer, 0, 16);
  std::size_t rest = 16;
  while (rest < footer.size() && footer[rest] == '\0') ++rest;
  std::size_t pad = residue == 4 ? 4 : 1;
  while ((buf.size() + pad) % 16 != static_cast<std::size_t>(residue) % 16) ++pad;
  buf.append(pad, '\0');
  buf.append(footer, rest, std::string::npos);
}

}  // namespace

void write_fbx_binary(const FbxDocument& doc, std::ostream& out) {
  BinaryWriter w(doc.version >= 7500);
  w.buf.append("Kaydara FBX Binary  \0\x1a\0", 23);
  w.put<std::uint32_t>(doc.version);
  for (const auto& n : doc.roots) w.node(n);
  w.null_record();
  write_footer(w.buf, doc);
  out.write(w.buf.data(), static_cast<std::streamsize>(w.buf.size()));
  if (!out) fail(ErrorKind::write, "could not write FBX data");
}

}  // namespace footfix
