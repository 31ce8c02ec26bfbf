#include "fbx_flavour.h"

#include <cstdint>
#include <limits>
#include <string_view>

namespace footfix::fbx {
namespace {

// The binary array type of a node's `*N { a: ... }` values (ASCII reads them as double or
// int64), as the FBX SDK writes them: indexes and flags int32, key times int64, curve values
// float, everything else (vertices, normals, weights, matrices) double.
char binary_array_type(std::string_view node) {
  for (std::string_view name : {"PolygonVertexIndex", "Edges", "UVIndex", "NormalsIndex", "BinormalsIndex",
                                "TangentsIndex", "ColorIndex", "Materials", "Indexes", "KeyAttrFlags",
                                "KeyAttrRefCount", "Smoothing", "TextureId", "Visibility"})
    if (node == name) return 'i';
  if (node == "KeyTime") return 'l';
  if (node == "KeyValueFloat" || node == "KeyAttrDataFloat") return 'f';
  return 'd';
}

template <typename To, typename From>
std::vector<To> cast_all(const std::vector<From>& from) {
  return std::vector<To>(from.begin(), from.end());
}

// An ASCII array (double or int64 elements) as binary array `type`.
FbxProperty binary_array(const FbxProperty& p, char type) {
  auto as = [&](auto target) -> FbxProperty::Value {
    using To = decltype(target);
    if (const auto* d = std::get_if<std::vector<double>>(&p.value)) return cast_all<To>(*d);
    if (const auto* l = std::get_if<std::vector<std::int64_t>>(&p.value)) return cast_all<To>(*l);
    return p.value;
  };
  switch (type) {
    case 'i': return {'i', as(std::int32_t{})};
    case 'l': return {'l', as(std::int64_t{})};
    case 'f': return {'f', as(float{})};
    default: return {'d', as(double{})};
  }
}

// The binary scalar type of an integer read from ASCII: int64 for object ids, times and the
// P types the SDK stores as int64; double where the value is a real written without a point
// (a P of a real type, an AnimationCurve's Default); int32 otherwise, where it fits.
char binary_integer_type(const FbxNode& node, std::string_view parent, std::size_t index, std::int64_t value) {
  if (node.name == "P" && index >= 4) {
    const std::string type = node.properties.size() > 1 ? node.properties[1].as_string() : "";
    if (type == "KTime" || type == "ULongLong") return 'L';
    for (std::string_view t : {"int", "Integer", "enum", "Enum", "bool", "Bool", "Visibility Inheritance"})
      if (type == t) return 'I';
    return 'D';
  }
  if (node.name == "Default") return 'D';
  const bool id = (parent == "Objects" && index == 0) || ((node.name == "C" || node.name == "Connect") && index >= 1) ||
                  ((node.name == "Document" || node.name == "RootNode") && index == 0) ||
                  node.name == "LocalTime" || node.name == "ReferenceTime" || node.name == "KeyTime";
  if (id) return 'L';
  const bool fits = value >= std::numeric_limits<std::int32_t>::min() && value <= std::numeric_limits<std::int32_t>::max();
  return fits ? 'I' : 'L';
}

void to_binary(FbxNode& node, std::string_view parent) {
  for (std::size_t i = 0; i < node.properties.size(); ++i) {
    FbxProperty& p = node.properties[i];
    if (p.is_array()) {
      p = binary_array(p, binary_array_type(node.name));
    } else if (p.type == 'L') {
      const std::int64_t v = p.as_int();
      const char type = binary_integer_type(node, parent, i, v);
      p = type == 'D' ? FbxProperty::real('D', static_cast<double>(v)) : FbxProperty::integer(type, v);
    } else if (p.type == 'W') {
      p.type = 'S';
    } else if (p.type == 'S' && parent == "Objects" && i == 1) {
      // "Class::Name" -> "Name\0\1Class"
      const std::string& text = p.as_string();
      if (const std::size_t at = text.find("::"); at != std::string::npos)
        p = FbxProperty::string(text.substr(at + 2) + std::string("\0\1", 2) + text.substr(0, at));
    }
  }
  for (FbxNode& child : node.children) to_binary(child, node.name);
}

std::string base64(const std::string& bytes) {
  static const char k_digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t n = static_cast<std::uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) n |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(bytes[i + 1])) << 8;
    if (i + 2 < bytes.size()) n |= static_cast<std::uint8_t>(bytes[i + 2]);
    out += k_digits[n >> 18 & 63];
    out += k_digits[n >> 12 & 63];
    out += i + 1 < bytes.size() ? k_digits[n >> 6 & 63] : '=';
    out += i + 2 < bytes.size() ? k_digits[n & 63] : '=';
  }
  return out;
}

void to_ascii(FbxNode& node) {
  for (FbxProperty& p : node.properties) {
    if (p.type == 'R') {
      p = FbxProperty::string(base64(p.as_string()));
    } else if (p.type == 'S') {
      std::string text = p.as_string();
      // "Name\0\1Class" -> "Class::Name"
      if (const std::size_t at = text.find(std::string_view("\0\1", 2)); at != std::string::npos)
        text = text.substr(at + 2) + "::" + text.substr(0, at);
      // ASCII strings cannot hold a quote: the SDK writes it as &quot;
      for (std::size_t q = text.find('"'); q != std::string::npos; q = text.find('"', q + 6)) text.replace(q, 1, "&quot;");
      p = FbxProperty::string(std::move(text));
    }
  }
  for (FbxNode& child : node.children) to_ascii(child);
}

// The binary footer as Blender writes it: the footer id, (padding, computed on write), the
// version at a 16-byte boundary, 120 zeros and the closing magic.
std::string binary_footer(std::uint32_t version) {
  static const char k_id[] = "\xfa\xbc\xab\x09\xd0\xc8\xd4\x66\xb1\x76\xfb\x83\x1c\xf7\x26\x7e";
  static const char k_magic[] = "\xf8\x5a\x8c\x6a\xde\xf5\xd9\x7e\xec\xe9\x0c\xe3\x75\x8f\x29\x0b";
  std::string footer(k_id, 16);
  for (int b = 0; b < 4; ++b) footer += static_cast<char>(version >> (8 * b) & 0xff);
  footer.append(120, '\0');
  footer.append(k_magic, 16);
  return footer;
}

}  // namespace

void convert_flavour(FbxDocument& doc, bool binary) {
  if (doc.binary == binary) return;
  doc.binary = binary;
  if (binary) {
    for (FbxNode& root : doc.roots) to_binary(root, "");
    doc.ascii_header.clear();
    doc.footer = binary_footer(doc.version);
    doc.footer_version_residue = 0;
    doc.footer_start_residue = -1;
  } else {
    for (FbxNode& root : doc.roots) to_ascii(root);
    doc.footer.clear();
  }
}

}  // namespace footfix::fbx
