// FbxProperty / FbxNode / FbxDocument accessors and flavour dispatch.
#include "fbx_document.h"

#include "files/file_magic.h"
#include "footfix/core/error.h"

#include <functional>
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

std::size_t FbxProperty::array_size() const {
  return std::visit(
      [](const auto& v) -> std::size_t {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, double> ||
                      std::is_same_v<T, std::string>)
          return 0;
        else
          return v.size();
      },
      value);
}

double FbxProperty::array_double(std::size_t i) const {
  return std::visit(
      [i](const auto& v) -> double {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, double> ||
                      std::is_same_v<T, std::string>)
          return 0.0;
        else
          return i < v.size() ? static_cast<double>(v[i]) : 0.0;
      },
      value);
}

std::size_t FbxProperty::array_hash() const {
  return std::visit(
      [](const auto& v) -> std::size_t {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, double> ||
                      std::is_same_v<T, std::string>)
          return 0;
        else
          return bytes_hash(v.data(), v.size() * sizeof(v[0]));
      },
      value);
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

}  // namespace

const FbxNode* FbxNode::child(std::string_view n) const { return first_named(children, n); }

FbxNode* FbxNode::child(std::string_view n) { return first_named(children, n); }

bool FbxNode::same_tree(const FbxNode& o) const {
  if (name != o.name || properties != o.properties || children.size() != o.children.size()) return false;
  for (std::size_t i = 0; i < children.size(); ++i)
    if (!children[i].same_tree(o.children[i])) return false;
  return true;
}

const FbxNode* FbxDocument::root(std::string_view n) const { return first_named(roots, n); }

FbxNode* FbxDocument::root(std::string_view n) { return first_named(roots, n); }

bool FbxDocument::same_tree(const FbxDocument& o) const {
  if (binary != o.binary || version != o.version || roots.size() != o.roots.size()) return false;
  for (std::size_t i = 0; i < roots.size(); ++i)
    if (!roots[i].same_tree(o.roots[i])) return false;
  return true;
}

FbxDocument parse_fbx_document(std::string_view bytes, const std::string& source_name) {
  constexpr std::string_view k_magic = "Kaydara FBX Binary";
  if (bytes.substr(0, k_magic.size()) == k_magic) return parse_fbx_binary(bytes, source_name);
  // Named by its magic, never quoted: the "file" may be anything (/proc/self/environ).
  if (std::string_view other = io_detail::foreign_format(bytes); !other.empty() && other != "an ASCII FBX file")
    fail(ErrorKind::read, source_name + ": " + io_detail::not_a("an FBX file", bytes));
  return parse_fbx_ascii(bytes, source_name);
}

void write_fbx_document(const FbxDocument& doc, std::ostream& out) {
  if (doc.binary)
    write_fbx_binary(doc, out);
  else
    write_fbx_ascii(doc, out);
}

}  // namespace footfix
