// Internal to gltf/: reading a glTF accessor's elements as floats, with every range checked
// against its buffer view and buffer (no read past what the file holds, no allocation beyond it).
#pragma once

#include <cstdint>
#include <vector>

#include "footfix/files/read_limits.h"
#include "gltf_document.h"

namespace footfix::gltf {

struct AccessorData {
  int components = 0;          ///< 1 (SCALAR), 3 (VEC3) or 4 (VEC4)
  std::uint64_t count = 0;
  std::vector<float> values;   ///< count * components, normalized integers mapped to [-1, 1] / [0, 1]
};

/// Accessor `index` (`where` names the referring member, for messages) decoded, sparse values
/// applied. `allowed_components` lists the types accepted (1, 3, 4). Throws Error(read)
/// "<file>: accessors[i]...: ..." for out-of-range views, bad strides, buffers too short, or more
/// floats than `limits.max_memory_bytes` allows.
AccessorData read_accessor(const Document& doc, std::uint64_t index, const std::string& where,
                           std::initializer_list<int> allowed_components, const ReadLimits& limits);

}  // namespace footfix::gltf
