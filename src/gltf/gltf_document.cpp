#include "gltf_document.h"

#include <algorithm>
#include <array>
#include <system_error>

#include "core/json_text.h"
#include "footfix/core/error.h"
#include "footfix/core/read_file.h"
#include "footfix/core/text_location.h"
#include "files/file_magic.h"

namespace footfix::gltf {
namespace fs = std::filesystem;
namespace {

const Json k_empty_array = Json::array();

std::string decode_base64(std::string_view text, const std::string& name, const std::string& where) {
  std::array<int, 256> value{};
  value.fill(-1);
  const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (int i = 0; i < 64; ++i) value[static_cast<unsigned char>(alphabet[i])] = i;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  unsigned bits = 0;
  int count = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '=') break;
    if (value[c] < 0) fail_at(name, where, "invalid base64 character at offset " + std::to_string(i));
    bits = (bits << 6) | static_cast<unsigned>(value[c]);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xFF));
    }
  }
  return out;
}

std::string percent_decode(const std::string& uri, const std::string& name, const std::string& where) {
  std::string out;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] != '%') {
      out.push_back(uri[i]);
      continue;
    }
    if (i + 2 >= uri.size() || !std::isxdigit(static_cast<unsigned char>(uri[i + 1])) ||
        !std::isxdigit(static_cast<unsigned char>(uri[i + 2])))
      fail_at(name, where, "bad percent escape in the URI");
    out.push_back(static_cast<char>(std::stoi(uri.substr(i + 1, 2), nullptr, 16)));
    i += 2;
  }
  return out;
}

/// The file an external URI names: a plain relative path inside `folder` (no scheme, no "..",
/// not absolute, no NUL), whose real location (symlinks resolved) is still inside the folder.
fs::path external_path(const fs::path& folder, const std::string& uri, const std::string& name,
                       const std::string& where) {
  const std::string decoded = percent_decode(uri, name, where);
  if (decoded.empty() || decoded.find('\0') != std::string::npos || decoded.find(':') != std::string::npos)
    fail_at(name, where, "only relative file URIs in the file's folder are read");
  const fs::path rel(decoded);
  if (rel.is_absolute() || decoded[0] == '/' || decoded[0] == '\\')
    fail_at(name, where, "absolute URIs are refused: buffers must lie in the file's folder");
  for (const auto& part : rel)
    if (part == "..") fail_at(name, where, "URIs with '..' are refused: buffers must lie in the file's folder");
  std::error_code ec;
  const fs::path real_folder = fs::weakly_canonical(folder.empty() ? fs::path(".") : folder, ec);
  const fs::path target = fs::weakly_canonical(folder / rel, ec);
  if (ec) fail_at(name, where, "cannot resolve the URI's file");
  auto [end, unused] = std::mismatch(real_folder.begin(), real_folder.end(), target.begin(), target.end());
  (void)unused;
  if (end != real_folder.end())
    fail_at(name, where, "the URI's file is a symlink out of the file's folder: refused");
  return folder / rel;
}

std::string load_buffer(const Json& buffer, size_t i, const Document& doc, const fs::path& folder,
                        const ReadLimits& limits) {
  const std::string where = "buffers[" + std::to_string(i) + "]";
  const std::uint64_t length = index_member(buffer, "byteLength", where, doc.name, limits.max_input_bytes + 1, -2);
  std::string bytes;
  if (!buffer.contains("uri")) {
    if (i != 0 || !doc.container.has_bin) fail_at(doc.name, where, "no uri and no glb BIN chunk");
    bytes = doc.container.bin;
  } else {
    if (!buffer["uri"].is_string()) fail_at(doc.name, where + ".uri", "not a string");
    const std::string uri = buffer["uri"].get<std::string>();
    if (uri.rfind("data:", 0) == 0) {
      const size_t comma = uri.find(',');
      if (comma == std::string::npos || uri.substr(0, comma).find(";base64") == std::string::npos)
        fail_at(doc.name, where + ".uri", "only base64 data: URIs are read");
      bytes = decode_base64(std::string_view(uri).substr(comma + 1), doc.name, where + ".uri");
    } else {
      const fs::path file = external_path(folder, uri, doc.name, where + ".uri");
      bytes = read_file(file, std::min<std::uint64_t>(limits.max_input_bytes, length + 3));
    }
  }
  if (bytes.size() < length)
    fail_at(doc.name, where, "buffer holds " + std::to_string(bytes.size()) + " bytes, shorter than its byteLength " +
                                 std::to_string(length));
  bytes.resize(static_cast<size_t>(length));
  return bytes;
}

}  // namespace

std::vector<std::string> external_buffer_uris(const Json& json, const std::string& name) {
  std::vector<std::string> out;
  for (const Json& b : array_member(json, "buffers", name))
    if (b.contains("uri") && b["uri"].is_string() && b["uri"].get<std::string>().rfind("data:", 0) != 0)
      out.push_back(b["uri"].get<std::string>());
  return out;
}

std::vector<std::string> external_image_uris(const Json& json) {
  std::vector<std::string> out;
  const auto images = json.find("images");
  if (images == json.end() || !images->is_array()) return out;
  for (const Json& image : *images)
    if (image.is_object() && image.contains("uri") && image["uri"].is_string() &&
        image["uri"].get<std::string>().rfind("data:", 0) != 0)
      out.push_back(image["uri"].get<std::string>());
  return out;
}

fs::path file_in_folder(const fs::path& folder, const std::string& uri) {
  try {
    return external_path(folder, uri, "", "");
  } catch (const Error&) {
    return {};
  }
}

std::string file_name_uri(const std::string& file_name) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const char ch : file_name) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

fs::path uri_path(const std::string& uri) { return fs::path(percent_decode(uri, "", "")); }

void fail_at(const std::string& name, const std::string& where, const std::string& what) {
  fail(ErrorKind::read, name + ": " + where + ": " + what);
}

std::uint64_t index_member(const Json& j, const char* key, const std::string& where, const std::string& name,
                           std::uint64_t limit, std::int64_t fallback) {
  const std::string at = where + "." + key;
  if (!j.is_object()) fail_at(name, where, "not an object");
  auto it = j.find(key);
  if (it == j.end()) {
    if (fallback == -2) fail_at(name, at, "missing");
    return static_cast<std::uint64_t>(fallback);
  }
  if (!it->is_number_unsigned() && !(it->is_number_integer() && it->get<std::int64_t>() >= 0))
    fail_at(name, at, "not a non-negative integer");
  const std::uint64_t v = it->get<std::uint64_t>();
  if (v >= limit) fail_at(name, at, std::to_string(v) + " is out of range (below " + std::to_string(limit) + " expected)");
  return v;
}

const Json& array_member(const Json& j, const char* key, const std::string& name) {
  auto it = j.find(key);
  if (it == j.end()) return k_empty_array;
  if (!it->is_array()) fail_at(name, key, "not an array");
  return *it;
}

Document load_document(const fs::path& path, const std::string& bytes, const ReadLimits& limits) {
  Document doc;
  doc.name = path.string();
  doc.container = split_container(bytes, doc.name);
  if (!doc.container.binary) {
    const std::string_view head = std::string_view(bytes).substr(0, 64);
    const size_t first = head.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    if (first == std::string_view::npos || head[first] != '{') fail(ErrorKind::read, doc.name + ": " + io_detail::not_a("a glTF file", bytes));
  }
  refuse_deep_json(doc.container.json, doc.name, ErrorKind::read);
  try {
    doc.json = Json::parse(doc.container.json);
  } catch (const nlohmann::json::parse_error& e) {
    fail(ErrorKind::read, doc.name + ": not valid JSON at " + text_location(doc.container.json, e.byte > 0 ? e.byte - 1 : 0));
  } catch (const nlohmann::json::exception&) {
    fail(ErrorKind::read, doc.name + ": not valid JSON (a number out of range)");
  }
  if (!doc.json.is_object()) fail(ErrorKind::read, doc.name + ": not a glTF file (the JSON is not an object)");
  const Json& asset = doc.json.contains("asset") ? doc.json["asset"] : Json();
  if (!asset.is_object() || !asset.contains("version") || !asset["version"].is_string())
    fail_at(doc.name, "asset.version", "missing (not a glTF 2.0 file)");
  const std::string version = asset["version"].get<std::string>();
  if (version.rfind("2.", 0) != 0) fail_at(doc.name, "asset.version", "'" + version + "' is not glTF 2.x");
  for (const char* list : {"extensionsRequired", "extensionsUsed"})
    for (const Json& ext : array_member(doc.json, list, doc.name))
      if (ext == "EXT_meshopt_compression")
        fail_at(doc.name, list, "EXT_meshopt_compression is not supported (decompress the file first, e.g. "
                                "gltfpack -noq, or export it without meshopt compression)");
  const fs::path folder = path.parent_path();
  const Json& buffers = array_member(doc.json, "buffers", doc.name);
  std::uint64_t total = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    doc.buffers.push_back(load_buffer(buffers[i], i, doc, folder, limits));
    total += doc.buffers.back().size();
    if (total > limits.max_input_bytes)
      fail_at(doc.name, "buffers", "over the input size limit in all (--max-input-size)");
  }
  return doc;
}

}  // namespace footfix::gltf
