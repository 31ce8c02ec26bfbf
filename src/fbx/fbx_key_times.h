// Internal to fbx/: the key-time arrays of a document's animation curves, kept once. Curves
// usually share one key grid (one key per frame), so a kept FBX document holds the same KeyTime
// array once per curve: two thirds of its curve data.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "fbx_document.h"

namespace footfix::fbx {

struct SharedKeyTimes {
  std::vector<std::vector<std::int64_t>> arrays;          ///< the distinct KeyTime arrays taken out
  std::unordered_map<std::int64_t, std::size_t> of_curve;  ///< AnimationCurve id -> index in arrays
  std::unordered_multimap<std::size_t, std::size_t> by_hash;  ///< hash of an array's elements -> index
};

/// Takes every AnimationCurve's KeyTime array (int64, two keys or more) out of `doc`, keeping
/// each distinct array once; the document keeps each curve's first key (a take's origin is read
/// from it). restore_key_times puts them back.
SharedKeyTimes take_out_key_times(FbxDocument& doc);

/// take_out_key_times for one object of the document's Objects node (a no-op unless it is an
/// AnimationCurve), into `shared`. Called on each object as it is parsed (parse_fbx_document's
/// each_object), a duplicate array is freed before the next curve's arrays are allocated.
void take_out_key_times(FbxNode& object, SharedKeyTimes& shared);

/// The KeyTime array `shared` took out of `curve`, or null.
const std::vector<std::int64_t>* shared_key_times(const FbxNode& curve, const SharedKeyTimes& shared);

/// Puts the arrays take_out_key_times took back into `doc` (or a copy of that document).
void restore_key_times(FbxDocument& doc, const SharedKeyTimes& shared);

}  // namespace footfix::fbx
