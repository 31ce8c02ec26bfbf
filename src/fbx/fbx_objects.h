// Internal helpers over an FbxDocument's object graph: object ids and names, Properties70 values
// and the Connections list. Used by the FBX reader and writer only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "footfix/core/math.h"
#include "fbx_document.h"

namespace footfix::fbx {

/// Object id (first property) or 0.
std::int64_t object_id(const FbxNode& obj);
/// Object name without its class: binary "Name\0\1Model" and ASCII "Model::Name" give "Name".
std::string object_name(const FbxNode& obj);
/// The object's name property for a new object of `cls` in the document's flavour.
std::string make_object_name(bool binary, std::string_view cls, std::string_view name);

/// The `P` entry named `name` in obj's Properties70, or null.
const FbxNode* find_p(const FbxNode& obj, std::string_view name);
FbxNode* find_p(FbxNode& obj, std::string_view name);
/// Values of a `P` entry (its properties from index 4 on) as a vector, or `fallback`.
Vec3 p_vec3(const FbxNode& obj, std::string_view name, Vec3 fallback);
double p_number(const FbxNode& obj, std::string_view name, double fallback);
std::int64_t p_int(const FbxNode& obj, std::string_view name, std::int64_t fallback);

struct Connection {
  std::string kind;  ///< "OO" or "OP"
  std::int64_t child = 0, parent = 0;
  std::string property;  ///< for "OP"
};
std::vector<Connection> connections(const FbxDocument& doc);

/// Connections indexed by parent and by child, built once: a lookup costs the links of the
/// objects it asks about, not a scan of the whole file (a file with tens of thousands of joints
/// and curves would otherwise take time quadratic in its size). Links can be added.
class LinkIndex {
 public:
  LinkIndex() = default;
  explicit LinkIndex(std::vector<Connection> links);
  void add(Connection link);
  const std::vector<Connection>& all() const { return links_; }
  /// Indices into all() of the links whose parent (child) is `id`, in file order.
  const std::vector<std::size_t>& to_parent(std::int64_t id) const;
  const std::vector<std::size_t>& to_child(std::int64_t id) const;
  bool linked(std::int64_t child, std::int64_t parent) const;

 private:
  std::vector<Connection> links_;
  std::unordered_map<std::int64_t, std::vector<std::size_t>> by_parent_, by_child_;
};

/// Objects section children of class `cls` (e.g. "Model", "AnimationStack").
std::vector<const FbxNode*> objects_of(const FbxDocument& doc, std::string_view cls);

/// AnimationCurve objects by id.
using CurveIndex = std::unordered_map<std::int64_t, const FbxNode*>;
CurveIndex curves_by_id(const FbxDocument& doc);

/// First key value of each of the d|X, d|Y, d|Z curves that animate `property` ("Lcl
/// Rotation"...) of Model `model_id`, in any layer; `fallback`'s component where there is none.
Vec3 first_key_values(const CurveIndex& curves, const LinkIndex& links, std::int64_t model_id, std::string_view property,
                      Vec3 fallback);

/// The KTime that assimp counts a take's ticks from: the AnimationStack's LocalStart when it
/// sets a time span (LocalStart or LocalStop non-zero), else the earliest key of the curves in
/// its layers. `take` names the stack; the first stack if none matches; 0 if there is none.
std::int64_t take_origin_ktime(const FbxDocument& doc, const std::string& take);

}  // namespace footfix::fbx
