// Internal to io/: appending float accessors (with their own buffer views) to a glTF document
// whose data go to one buffer, as both glTF writers need.
#pragma once

#include <string>
#include <vector>

#include "footfix/core/math.h"
#include "gltf_document.h"

namespace footfix::gltf {

class Appender {
 public:
  /// Appends to `buffer` (the bytes of buffer `buffer_index` of `json`), whose byteLength the
  /// caller sets from `bytes()` when done.
  Appender(Json& json, std::string& bytes, size_t buffer_index) : json_(json), bytes_(bytes), buffer_(buffer_index) {}
  /// Key times (SCALAR float, with min/max as animation inputs need). Returns the accessor index.
  size_t times(const std::vector<float>& seconds);
  size_t vec3(const std::vector<Vec3>& values);
  /// Rotations as glTF stores them (x, y, z, w).
  size_t quat(const std::vector<Quat>& values);

 private:
  size_t add(const std::vector<float>& floats, const char* type, size_t count, Json min, Json max);
  Json& json_;
  std::string& bytes_;
  size_t buffer_;
};

/// `bytes` as standard base64 with padding.
std::string base64(const std::string& bytes);

}  // namespace footfix::gltf
