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

/// Takes the KeyTime array (int64, two keys or more) of `object`, one object of the document's
/// Objects node, out into `shared` when it is an AnimationCurve (a no-op otherwise), keeping each
/// distinct array once; the object keeps its first key (a take's origin is read from it).
/// Called on each object as it is parsed (parse_fbx_document's each_object), a duplicate array
/// is freed before the next curve's arrays are allocated. restore_key_times puts them back.
void take_out_key_times(FbxNode& object, SharedKeyTimes& shared);

/// The KeyTime array `shared` took out of `curve`, or null.
const std::vector<std::int64_t>* shared_key_times(const FbxNode& curve, const SharedKeyTimes& shared);

/// Puts the arrays take_out_key_times took back into `doc` (or a copy of that document).
void restore_key_times(FbxDocument& doc, const SharedKeyTimes& shared);

}  // namespace footfix::fbx
