#include "gltf_container.h"

#include <cstdint>

#include "footfix/core/error.h"

namespace footfix::gltf {
namespace {

constexpr std::uint32_t k_magic = 0x46546C67;      // "glTF"
constexpr std::uint32_t k_chunk_json = 0x4E4F534A; // "JSON"
constexpr std::uint32_t k_chunk_bin = 0x004E4942;  // "BIN\0"

std::uint32_t u32_at(std::string_view b, size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + static_cast<size_t>(i)]);
  return v;
}

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

}  // namespace

Container split_container(std::string_view bytes, const std::string& name) {
  Container c;
  if (bytes.size() < 4 || u32_at(bytes, 0) != k_magic) {
    c.json = std::string(bytes);
    return c;
  }
  c.binary = true;
  if (bytes.size() < 12) fail(ErrorKind::read, name + ": glb header: file shorter than 12 bytes");
  const std::uint32_t version = u32_at(bytes, 4);
  if (version != 2) fail(ErrorKind::read, name + ": glb header: version " + std::to_string(version) + " (expected 2)");
  const std::uint64_t declared = u32_at(bytes, 8);
  if (declared > bytes.size())
    fail(ErrorKind::read, name + ": glb header: length " + std::to_string(declared) + " is past the end of the file (" +
                              std::to_string(bytes.size()) + " bytes)");
  size_t at = 12;
  int index = 0;
  while (at < declared) {
    const std::string where = name + ": glb chunk " + std::to_string(index) + " at byte " + std::to_string(at);
    if (declared - at < 8) fail(ErrorKind::read, where + ": chunk header cut short");
    const std::uint64_t length = u32_at(bytes, at);
    const std::uint32_t type = u32_at(bytes, at + 4);
    if (length > declared - at - 8)
      fail(ErrorKind::read, where + ": chunk length " + std::to_string(length) + " is past the end of the file");
    std::string_view data = bytes.substr(at + 8, static_cast<size_t>(length));
    if (index == 0) {
      if (type != k_chunk_json) fail(ErrorKind::read, where + ": the first chunk is not JSON");
      c.json = std::string(data);
    } else if (type == k_chunk_bin && !c.has_bin && index == 1) {
      c.bin = std::string(data);
      c.has_bin = true;
    }  // other chunk types are skipped, as the specification asks
    at += 8 + static_cast<size_t>(length);
    ++index;
  }
  if (index == 0) fail(ErrorKind::read, name + ": glb: no JSON chunk");
  return c;
}

std::string join_glb(std::string_view json, std::string_view bin, bool has_bin) {
  const size_t json_padded = (json.size() + 3) / 4 * 4;
  const size_t bin_padded = (bin.size() + 3) / 4 * 4;
  const size_t total = 12 + 8 + json_padded + (has_bin ? 8 + bin_padded : 0);
  std::string out;
  out.reserve(total);
  put_u32(out, k_magic);
  put_u32(out, 2);
  put_u32(out, static_cast<std::uint32_t>(total));
  put_u32(out, static_cast<std::uint32_t>(json_padded));
  put_u32(out, k_chunk_json);
  out.append(json);
  out.append(json_padded - json.size(), ' ');
  if (has_bin) {
    put_u32(out, static_cast<std::uint32_t>(bin_padded));
    put_u32(out, k_chunk_bin);
    out.append(bin);
    out.append(bin_padded - bin.size(), '\0');
  }
  return out;
}

}  // namespace footfix::gltf
