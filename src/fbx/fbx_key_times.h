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
};

/// Takes every AnimationCurve's KeyTime array (int64, two keys or more) out of `doc`, keeping
/// each distinct array once; the document keeps each curve's first key (a take's origin is read
/// from it). restore_key_times puts them back.
SharedKeyTimes take_out_key_times(FbxDocument& doc);

/// Puts the arrays take_out_key_times took back into `doc` (or a copy of that document).
void restore_key_times(FbxDocument& doc, const SharedKeyTimes& shared);

}  // namespace footfix::fbx
