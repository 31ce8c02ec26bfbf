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

void take_out_key_times(FbxNode& object, SharedKeyTimes& shared) {
  std::vector<std::int64_t>* times = key_times(object);
  if (!times || times->size() < 2) return;
  const std::size_t hash = object.child("KeyTime")->properties[0].array_hash();
  std::size_t index = shared.arrays.size();
  for (auto [it, end] = shared.by_hash.equal_range(hash); it != end; ++it)
    if (shared.arrays[it->second] == *times) index = it->second;
  if (index == shared.arrays.size()) {
    shared.by_hash.emplace(hash, index);
    shared.arrays.push_back(std::move(*times));
  }
  shared.of_curve[object_id(object)] = index;
  *times = std::vector<std::int64_t>{shared.arrays[index].front()};  // a new buffer: the old one is freed
}

const std::vector<std::int64_t>* shared_key_times(const FbxNode& curve, const SharedKeyTimes& shared) {
  auto it = shared.of_curve.find(object_id(curve));
  return it == shared.of_curve.end() ? nullptr : &shared.arrays[it->second];
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
