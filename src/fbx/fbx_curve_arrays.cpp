#include "fbx_curve_arrays.h"

#include <algorithm>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "fbx_objects.h"

namespace footfix::fbx {
namespace {

constexpr const char* k_curve_arrays[] = {"KeyTime", "KeyValueFloat"};

bool is_curve_array(const FbxNode& curve_child) {
  for (const char* name : k_curve_arrays)
    if (curve_child.name == name) return true;
  return false;
}

/// `p` with no elements (scalars as they are).
FbxProperty emptied(const FbxProperty& p) {
  FbxProperty out(p.type, std::int64_t{0}, p.compressed);
  out.encoded = p.encoded;
  out.encoded_hash = p.encoded_hash;
  std::visit(
      [&out](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, double> || std::is_same_v<T, std::string>)
          out.value = v;
        else
          out.value = T{};
      },
      p.value);
  return out;
}

/// A curve's KeyTime or KeyValueFloat node with its array emptied.
FbxNode without_array(const FbxNode& n) {
  FbxNode out{n.name, {}, n.children, n.null_terminated};
  out.properties.reserve(n.properties.size());
  for (std::size_t i = 0; i < n.properties.size(); ++i)
    out.properties.push_back(i == 0 ? emptied(n.properties[i]) : n.properties[i]);
  return out;
}

/// A copy of `n` whose children are `child(c)` of its own.
template <typename F>
FbxNode copy_with(const FbxNode& n, F child) {
  FbxNode out{n.name, n.properties, {}, n.null_terminated};
  out.children.reserve(n.children.size());
  for (const FbxNode& c : n.children) out.children.push_back(child(c));
  return out;
}

/// The elements of array property `p` (none for scalars).
FbxArrayView elements(const FbxProperty& p) {
  return std::visit(
      [](const auto& v) -> FbxArrayView {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, double> || std::is_same_v<T, std::string>)
          return {};
        else
          return {v.data(), v.size()};
      },
      p.value);
}

}  // namespace

FbxDocument copy_without_curve_arrays(const FbxDocument& doc) {
  FbxDocument out{doc.binary, doc.version, {}, doc.footer, doc.footer_version_residue, doc.footer_start_residue,
                  doc.ascii_header};
  auto curve_child = [](const FbxNode& c) { return is_curve_array(c) ? without_array(c) : c; };
  auto object = [&](const FbxNode& o) { return o.name == "AnimationCurve" ? copy_with(o, curve_child) : o; };
  out.roots.reserve(doc.roots.size());
  for (const FbxNode& root : doc.roots) out.roots.push_back(root.name == "Objects" ? copy_with(root, object) : root);
  return out;
}

FbxArrayOverrides kept_curve_arrays(const FbxDocument& copy, const FbxDocument& kept, const SharedKeyTimes& key_times) {
  FbxArrayOverrides out;
  const FbxNode* objects = copy.root("Objects");
  const FbxNode* kept_objects = kept.root("Objects");
  if (!objects || !kept_objects) return out;
  // The copy's objects are the kept ones, in order, with new ones after them.
  const std::size_t count = std::min(objects->children.size(), kept_objects->children.size());
  for (std::size_t i = 0; i < count; ++i) {
    const FbxNode& curve = objects->children[i];
    if (curve.name != "AnimationCurve") continue;
    for (const char* name : k_curve_arrays) {
      const FbxNode* mine = curve.child(name);
      const FbxNode* theirs = kept_objects->children[i].child(name);
      if (!mine || !theirs || mine->properties.empty() || theirs->properties.empty()) continue;
      const FbxProperty& p = mine->properties[0];
      if (!p.is_array() || p.array_size() != 0) continue;  // rewritten since it was copied
      FbxArrayView view = elements(theirs->properties[0]);
      // Key times taken out of the kept document: put back as restore_key_times does.
      auto shared = key_times.of_curve.find(object_id(curve));
      if (std::string_view(name) == "KeyTime" && shared != key_times.of_curve.end() && p.type == 'l' &&
          std::holds_alternative<std::vector<std::int64_t>>(p.value)) {
        const std::vector<std::int64_t>& times = key_times.arrays[shared->second];
        view = {times.data(), times.size()};
      }
      out[&p] = view;
    }
  }
  return out;
}

}  // namespace footfix::fbx
