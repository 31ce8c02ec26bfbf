// Internal: replacing or creating the Lcl Translation / Lcl Rotation animation curves of Models
// in an FbxDocument, within one take's first animation layer.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "fbx_objects.h"

namespace footfix::fbx {

class CurveEditor {
 public:
  /// Binds to the AnimationStack named `take` (or the first stack) and its first layer. Throws
  /// Error(write) if the document has no Objects / Connections or no stack and layer.
  CurveEditor(FbxDocument& doc, const std::string& take);

  /// Makes `property` ("Lcl Rotation" or "Lcl Translation") of Model `model_id` follow
  /// `values[axis][key]` at `times` (KTime), one curve per axis, reusing the existing curve node
  /// and curves where there are some, creating what is missing.
  void set_curves(std::int64_t model_id, const std::string& property, const std::vector<std::int64_t>& times,
                  const std::array<std::vector<float>, 3>& values);

 private:
  FbxNode& objects();
  FbxNode* object(std::int64_t id);
  std::int64_t find_child(std::int64_t parent, const std::string& cls, const std::string& property) const;
  std::int64_t add_object(FbxNode node);
  void connect(const char* kind, std::int64_t child, std::int64_t parent, const std::string& property);
  void fill_curve(FbxNode& curve, const std::vector<std::int64_t>& times, const std::vector<float>& values);
  void bump_definition(const std::string& type);

  FbxDocument& doc_;
  std::int64_t layer_ = 0;
  std::int64_t next_id_ = 1;
  LinkIndex links_;
  std::unordered_map<std::int64_t, std::size_t> index_;  ///< object id -> Objects child index
  bool has_template_ = false;  ///< template_copy_ holds an existing curve, copied for new ones
  FbxNode template_copy_;
};

}  // namespace footfix::fbx
