// The FBX node tree, as stored in binary FBX 7.x and ASCII FBX files.
//
// An FbxDocument is the whole file as a tree of named nodes, each with typed properties and
// children. It is read from either flavour and written back in the same flavour, so a writer can
// edit a few nodes (animation curves) and keep every other node's meaning. Binary output keeps
// the version, each array's encoding (raw or zlib) and the footer; ASCII output keeps the header
// comment lines (other comments are dropped).
//
// Failure: parsing throws Error(read, "<source>: offset N: ...") for malformed input (truncated
// data, offsets out of range, counts larger than the remaining bytes, bad zlib streams). Nothing
// is allocated beyond what the input bytes can justify.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

namespace footfix {

/// One property value. The type code follows the binary format: 'Y' int16, 'C' bool/char
/// (byte kept as is), 'I' int32, 'F' float, 'D' double, 'L' int64, 'S' string, 'R' raw bytes,
/// 'f' 'd' 'l' 'i' 'b' 'c' arrays ('c': char, one byte per element, as assimp reads it). ASCII input yields 'L' for integer tokens, 'D' for other numbers,
/// 'S' for quoted strings, 'C' for one-letter bare words (T, Y, W...), 'W' for longer bare words,
/// and 'd' / 'l' for `*N { a: ... }` arrays (integers only: 'l').
struct FbxProperty {
  using Value = std::variant<std::int64_t, double, std::string, std::vector<double>,
                             std::vector<std::int64_t>, std::vector<float>, std::vector<std::int32_t>,
                             std::vector<std::uint8_t>>;
  char type = 'L';
  Value value;
  bool compressed = false;  ///< binary arrays: were zlib-encoded in the source
  /// Binary zlib arrays: the source's compressed bytes and a hash of the elements they decode
  /// to. The writer reuses them while the elements still hash the same (faster, and unchanged
  /// arrays stay byte-identical).
  std::shared_ptr<const std::string> encoded;
  std::size_t encoded_hash = 0;

  FbxProperty() = default;
  FbxProperty(char t, Value v, bool zlib = false) : type(t), value(std::move(v)), compressed(zlib) {}

  static FbxProperty integer(char type, std::int64_t v) { return {type, v}; }
  static FbxProperty real(char type, double v) { return {type, v}; }
  static FbxProperty string(std::string s) { return {'S', std::move(s)}; }

  bool is_array() const { return type == 'f' || type == 'd' || type == 'l' || type == 'i' || type == 'b' || type == 'c'; }
  bool is_string() const { return type == 'S' || type == 'R' || type == 'W'; }
  /// Numeric scalar as double (0 for strings and arrays).
  double as_double() const;
  /// Numeric scalar as int64 (truncated for reals; 0 for strings and arrays).
  std::int64_t as_int() const;
  /// String payload ("" for non-strings).
  const std::string& as_string() const;
  /// Number of array elements (0 for scalars).
  std::size_t array_size() const;
  /// Array element i as double (0 if out of range or not an array).
  double array_double(std::size_t i) const;
  bool operator==(const FbxProperty& o) const { return type == o.type && value == o.value; }
  /// Hash of an array's element bytes (0 for scalars).
  std::size_t array_hash() const;
  /// The same hash of `bytes` element bytes at `data`.
  static std::size_t bytes_hash(const void* data, std::size_t bytes);
};

/// Deepest node nesting the binary and ASCII readers accept: hostile nesting cannot overflow the
/// call stack.
constexpr int k_fbx_max_depth = 64;

struct FbxNode {
  std::string name;
  std::vector<FbxProperty> properties;
  std::vector<FbxNode> children;
  /// Binary only: the node was closed by a null record even with no children (kept on write).
  bool null_terminated = false;

  /// First child named `n`, or null.
  const FbxNode* child(std::string_view n) const;
  FbxNode* child(std::string_view n);
  /// Equality of name, properties (bit for bit) and children (encoding hints and terminators
  /// ignored).
  bool same_tree(const FbxNode& o) const;
};

struct FbxDocument {
  bool binary = true;
  std::uint32_t version = 7400;  ///< 7100..7700 (ASCII: from the header comment or FBXVersion)
  std::vector<FbxNode> roots;    ///< top-level nodes in file order
  std::string footer;            ///< binary: bytes after the top-level null record
  /// Binary: offset of the footer's version field modulo 16 (4 for FBX SDK files, 0 for
  /// Blender's); the zero padding before it is recomputed on write to keep this alignment.
  int footer_version_residue = 4;
  /// Binary: the footer's offset modulo 16 in the source; where it is the same on write, the
  /// source's zero padding is kept exactly.
  int footer_start_residue = -1;
  std::string ascii_header;      ///< ASCII: leading comment lines, verbatim

  const FbxNode* root(std::string_view n) const;
  FbxNode* root(std::string_view n);
  bool same_tree(const FbxDocument& o) const;
};

/// Called with each child of the document's first top-level Objects node, in order, once that
/// child is whole: it may shrink the child's arrays. A binary document calls it as each child is
/// parsed (memory it frees is reused by the next child's arrays), an ASCII one after parsing.
using EachFbxObject = std::function<void(FbxNode& object)>;

/// Parses an FBX file held in memory (binary if it starts with "Kaydara FBX Binary", else ASCII).
/// `source_name` prefixes error messages.
FbxDocument parse_fbx_document(std::string_view bytes, const std::string& source_name,
                               const EachFbxObject& each_object = {});
FbxDocument parse_fbx_binary(std::string_view bytes, const std::string& source_name,
                             const EachFbxObject& each_object = {});
FbxDocument parse_fbx_ascii(std::string_view text, const std::string& source_name);

/// Serializes in the document's own flavour. Throws Error(write) if a node cannot be encoded.
void write_fbx_document(const FbxDocument& doc, std::ostream& out);
/// `size` elements at `data`, of the element type of the array property it stands for.
struct FbxArrayView {
  const void* data = nullptr;
  std::size_t size = 0;
};
/// Elements written in place of some array properties' own (arrays a copy of a kept document
/// leaves where they are: see fbx_curve_arrays.h), by property.
using FbxArrayOverrides = std::unordered_map<const FbxProperty*, FbxArrayView>;
void write_fbx_binary(const FbxDocument& doc, std::ostream& out, const FbxArrayOverrides* overrides = nullptr);
void write_fbx_ascii(const FbxDocument& doc, std::ostream& out);

}  // namespace footfix
