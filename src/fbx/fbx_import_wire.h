// Internal to fbx/: the answer the import child sends the reader (fbx_import_child.h), in a
// compact binary format. The reader decodes it as hostile data: the child runs assimp on the
// file, so a file that takes assimp over could make it send anything.
//
//   answer  = "FFXI" | u8 version (1) | u8 kind | body
//   kind 0  = the scene: u32 n, node * n | u32 n, text * n (bone names) | u32 n, take * n
//   kind 1  = assimp could not read the file: text (assimp's reason)
//   node    = text name | i32 parent | f32 * 16 transform (row major) | u8 has meshes (0 or 1)
//   take    = text name | f64 ticks per second | f64 duration (ticks) | u32 n, channel * n
//   channel = text node | u32 n, (f64 time, f32 x y z) * n     position keys
//                       | u32 n, (f64 time, f32 w x y z) * n   rotation keys
//                       | u32 n, (f64 time, f32 x y z) * n     scaling keys
//   text    = u32 length (at most 1024, an aiString's capacity) | bytes
//
// Numbers are in the machine's byte order: both ends are the same build of footfix on one
// machine. Nodes come depth first, each after its parent; key times are finite and in order.
#pragma once

#include <assimp/scene.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "fbx_imported.h"
#include "footfix/files/read_limits.h"

namespace footfix::fbx {

/// Where an answer is written: a string, or the socket to the reader.
class WireSink {
 public:
  virtual ~WireSink() = default;
  virtual void write(const void* data, std::size_t size) = 0;
};

/// Appends to a string.
class StringSink final : public WireSink {
 public:
  explicit StringSink(std::string& out) : out_(out) {}
  void write(const void* data, std::size_t size) override { out_.append(static_cast<const char*>(data), size); }

 private:
  std::string& out_;
};

/// Writes the answer for `scene` (which has a root node).
void encode_scene(const aiScene& scene, WireSink& out);

/// Writes the answer for a file assimp could not read, with assimp's reason.
void encode_unreadable(std::string_view reason, WireSink& out);

struct ImportAnswer {
  bool readable = false;  ///< kind 0: `scene` holds it; kind 1: `reason` says why not
  std::string reason;
  ImportedScene scene;
};

/// Decodes an answer. Throws Error(read) naming `name`: where the answer is malformed (the byte
/// offset and the field), where it holds more nodes than limits.max_memory_bytes allows
/// (fbx::k_bytes_per_scene_node each), or where its decoded size would pass
/// limits.max_memory_bytes.
ImportAnswer decode_answer(std::string_view bytes, const std::string& name, const ReadLimits& limits);

}  // namespace footfix::fbx
