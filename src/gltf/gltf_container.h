// Internal to gltf/: the two containers of a glTF document. A .glb holds a 12-byte header, a JSON
// chunk and an optional BIN chunk (little-endian lengths); a .gltf is the JSON text alone.
#pragma once

#include <string>
#include <string_view>

namespace footfix::gltf {

struct Container {
  bool binary = false;
  std::string json;     ///< the JSON text
  std::string bin;      ///< the BIN chunk's bytes (binary only; may be empty)
  bool has_bin = false; ///< a BIN chunk was present
};

/// Splits `bytes` (a whole .glb or .gltf file). A .glb is recognised by its magic "glTF".
/// Throws Error(read) "<name>: glb ..." for a bad header, a chunk length past the file, or a
/// first chunk that is not JSON.
Container split_container(std::string_view bytes, const std::string& name);

/// A .glb file of `json` (padded with spaces) and `bin` (padded with zeros; omitted when
/// `has_bin` is false).
std::string join_glb(std::string_view json, std::string_view bin, bool has_bin);

}  // namespace footfix::gltf
