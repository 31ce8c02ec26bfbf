// FbxProperty / FbxNode / FbxDocument accessors and flavour dispatch.
#include "fbx_document.h"

#include "files/file_magic.h"
#include "footfix/core/error.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <type_traits>
#include <string_view>

namespace footfix {

double FbxProperty::as_double() const {
  if (auto* i = std::get_if<std::int64_t>(&value)) return static_cast<double>(*i);
  if (auto* d = std::get_if<double>(&value)) return *d;
  return 0.0;
}

std::int64_t FbxProperty::as_int() const {
  if (auto* i = std::get_if<std::int64_t>(&value)) return *i;
  if (auto* d = std::get_if<double>(&value)) return static_cast<std::int64_t>(*d);
  return 0;
}

const std::string& FbxProperty::as_string() const {
  static const std::string k_empty;
  auto* s = std::get_if<std::string>(&value);
  return s ? *s : k_empty;
}

namespace {

/// `on_array(v)` where `value` holds an array v, else `scalar`.
template <typename R, typename F>
R on_array(const FbxProperty::Value& value, R scalar, F on_array) {
  return std::visit(
      [&](const auto& v) -> R {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, double> || std::is_same_v<T, std::string>)
          return scalar;
        else
          return on_array(v);
      },
      value);
}

}  // namespace

std::size_t FbxProperty::array_size() const {
  return on_array<std::size_t>(value, 0, [](const auto& v) { return v.size(); });
}

double FbxProperty::array_double(std::size_t i) const {
  return on_array<double>(value, 0.0, [i](const auto& v) { return i < v.size() ? static_cast<double>(v[i]) : 0.0; });
}

std::size_t FbxProperty::array_hash() const {
  return on_array<std::size_t>(value, 0, [](const auto& v) { return bytes_hash(v.data(), v.size() * sizeof(v[0])); });
}

std::size_t FbxProperty::bytes_hash(const void* data, std::size_t bytes) {
  return std::hash<std::string_view>{}(std::string_view(static_cast<const char*>(data), bytes));
}

namespace {

/// The first node of `nodes` (a vector of nodes, const or not) named `n`, or null.
template <typename Nodes>
auto first_named(Nodes& nodes, std::string_view n) -> decltype(&nodes.front()) {
  for (auto& c : nodes)
    if (c.name == n) return &c;
  return nullptr;
}

/// Whether `a` and `b` hold the same values bit for bit (a NaN read back is the same NaN, which
/// == on floating values would deny).
bool same_bits(const FbxProperty& a, const FbxProperty& b) {
  if (a.type != b.type || a.value.index() != b.value.index()) return false;
  return std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        const T& y = std::get<T>(b.value);
        if constexpr (std::is_same_v<T, std::string>) {
          return x == y;
        } else if constexpr (std::is_arithmetic_v<T>) {
          return std::memcmp(&x, &y, sizeof x) == 0;
        } else {
          return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof x[0]) == 0);
        }
      },
      a.value);
}

/// Whether `a` and `b` hold the same trees, in order.
bool same_trees(const std::vector<FbxNode>& a, const std::vector<FbxNode>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!a[i].same_tree(b[i])) return false;
  return true;
}

}  // namespace

const FbxNode* FbxNode::child(std::string_view n) const { return first_named(children, n); }

FbxNode* FbxNode::child(std::string_view n) { return first_named(children, n); }

bool FbxNode::same_tree(const FbxNode& o) const {
  return name == o.name &&
         std::equal(properties.begin(), properties.end(), o.properties.begin(), o.properties.end(), same_bits) &&
         same_trees(children, o.children);
}

const FbxNode* FbxDocument::root(std::string_view n) const { return first_named(roots, n); }

FbxNode* FbxDocument::root(std::string_view n) { return first_named(roots, n); }

bool FbxDocument::same_tree(const FbxDocument& o) const {
  return binary == o.binary && version == o.version && same_trees(roots, o.roots);
}

FbxDocument parse_fbx_document(std::string_view bytes, const std::string& source_name, const EachFbxObject& each_object) {
  constexpr std::string_view k_magic = "Kaydara FBX Binary";
  if (bytes.substr(0, k_magic.size()) == k_magic) return parse_fbx_binary(bytes, source_name, each_object);
  // Named by its magic, never quoted: the "file" may be anything (/proc/self/environ).
  if (std::string_view other = io_detail::foreign_format(bytes); !other.empty() && other != "an ASCII FBX file")
    fail(ErrorKind::read, source_name + ": " + io_detail::not_a("an FBX file", bytes));
  FbxDocument doc = parse_fbx_ascii(bytes, source_name);
  if (FbxNode* objects = doc.root("Objects"); objects && each_object)
    for (FbxNode& object : objects->children) each_object(object);
  return doc;
}

void write_fbx_document(const FbxDocument& doc, std::ostream& out) {
  if (doc.binary)
    write_fbx_binary(doc, out);
  else
    write_fbx_ascii(doc, out);
}

}  // namespace footfix
