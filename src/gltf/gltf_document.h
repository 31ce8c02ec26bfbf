// Internal to gltf/: a parsed glTF document (JSON in file order) with its buffers loaded, and the
// checked access to its members that every glTF reader step uses; errors name the file and the
// JSON path ("<file>: accessors[3].count: ...").
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "footfix/files/read_limits.h"
#include "gltf_container.h"

namespace footfix::gltf {

using Json = nlohmann::ordered_json;

struct Document {
  std::string name;    ///< the file, for messages
  Container container; ///< the file's JSON text and BIN chunk as read
  Json json;
  std::vector<std::string> buffers;  ///< each buffer's bytes, exactly byteLength long
};

/// Parses a .gltf / .glb file's bytes and loads its buffers (BIN chunk, data: URIs, files beside
/// `path`). Throws Error(read).
Document load_document(const std::filesystem::path& path, const std::string& bytes, const ReadLimits& limits);

/// The member `key` of `j` (where `where` names j) as a non-negative integer below `limit`, or
/// `fallback` when absent. Throws Error(read) "<name>: <where>.<key>: ..." otherwise.
std::uint64_t index_member(const Json& j, const char* key, const std::string& where, const std::string& name,
                           std::uint64_t limit, std::int64_t fallback = -1);
/// The array `key` of the document (empty when absent); throws when it is not an array.
const Json& array_member(const Json& j, const char* key, const std::string& name);
/// The URIs of the buffers of glTF JSON `json` (of file `name`, for messages) that name files
/// (not data: URIs), in buffer order. Throws Error(read) where "buffers" is not an array.
std::vector<std::string> external_buffer_uris(const Json& json, const std::string& name);
/// The same for a loaded document.
inline std::vector<std::string> external_buffer_uris(const Document& doc) {
  return external_buffer_uris(doc.json, doc.name);
}
/// The URIs of the images of glTF JSON `json` that name files (not data: URIs), in image order.
std::vector<std::string> external_image_uris(const Json& json);
/// The file that relative URI `uri` names inside `folder`, by the rules buffers are read by; empty
/// where it leaves the folder (absolute, "..", a scheme, a symlink out of it) or is malformed.
std::filesystem::path file_in_folder(const std::filesystem::path& folder, const std::string& uri);
/// A file name as a relative URI: every byte but unreserved ones (RFC 3986: letters, digits,
/// "-._~") percent-escaped.
std::string file_name_uri(const std::string& file_name);
/// A relative file URI as a path (percent escapes decoded).
std::filesystem::path uri_path(const std::string& uri);

/// Throws Error(read) "<name>: <where>: <what>".
[[noreturn]] void fail_at(const std::string& name, const std::string& where, const std::string& what);

}  // namespace footfix::gltf
