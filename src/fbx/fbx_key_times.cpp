#include "fbx_key_times.h"

#include "fbx_objects.h"
#include "fbx_source.h"

namespace footfix::fbx {
namespace {

/// The KeyTime array of an AnimationCurve object, or null.
std::vector<std::int64_t>* key_times(FbxNode& curve) {
  if (curve.name != "AnimationCurve") return nullptr;
  FbxNode* times = curve.child("KeyTime");
  if (!times || times->properties.empty() || times->properties[0].type != 'l') return nullptr;
  return std::get_if<std::vector<std::int64_t>>(&times->properties[0].value);
}

}  // namespace

SharedKeyTimes take_out_key_times(FbxDocument& doc) {
  SharedKeyTimes out;
  FbxNode* objects = doc.root("Objects");
  if (!objects) return out;
  std::unordered_multimap<std::size_t, std::size_t> by_hash;  // hash of the elements -> index
  for (FbxNode& curve : objects->children) {
    std::vector<std::int64_t>* times = key_times(curve);
    if (!times || times->size() < 2) continue;
    const std::size_t hash = curve.child("KeyTime")->properties[0].array_hash();
    std::size_t index = out.arrays.size();
    for (auto [it, end] = by_hash.equal_range(hash); it != end; ++it)
      if (out.arrays[it->second] == *times) index = it->second;
    if (index == out.arrays.size()) {
      by_hash.emplace(hash, index);
      out.arrays.push_back(std::move(*times));
    }
    out.of_curve[object_id(curve)] = index;
    *times = std::vector<std::int64_t>{out.arrays[index].front()};  // a new buffer: the old one is freed
  }
  return out;
}

void restore_key_times(FbxDocument& doc, const SharedKeyTimes& shared) {
  FbxNode* objects = doc.root("Objects");
  if (!objects || shared.of_curve.empty()) return;
  for (FbxNode& curve : objects->children) {
    std::vector<std::int64_t>* times = key_times(curve);
    if (!times) continue;
    auto it = shared.of_curve.find(object_id(curve));
    if (it != shared.of_curve.end()) *times = shared.arrays[it->second];
  }
}

}  // namespace footfix::fbx

namespace footfix {

FbxDocument FbxSource::whole_document() const {
  FbxDocument doc = document;
  fbx::restore_key_times(doc, key_times);
  return doc;
}

}  // namespace footfix
