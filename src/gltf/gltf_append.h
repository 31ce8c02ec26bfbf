// Internal to gltf/: adding float accessors (each with its own buffer view) to a glTF document
// whose new data go to the end of one buffer, as both glTF writers need. Slots of accessors and
// views that a patch freed are filled first (their indices are kept), then new ones appended.
// Floats are stored little-endian, as glTF requires, whatever the host's byte order.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/core/math.h"
#include "gltf_document.h"

namespace footfix::gltf {

class Appender {
 public:
  /// Appends to `buffer` (the bytes of buffer `buffer_index` of `json`), whose byteLength the
  /// caller sets from `bytes()` when done.
  Appender(Json& json, std::string& bytes, size_t buffer_index) : json_(json), bytes_(bytes), buffer_(buffer_index) {}
  /// Fills the accessors and buffer views at these indices (ascending; each unused by the
  /// document) before appending any.
  void reuse(std::vector<size_t> accessors, std::vector<size_t> views);
  /// Free slots not filled yet (the larger of the accessor and view counts).
  size_t spare_slots() const { return std::max(free_accessors_.size(), free_views_.size()); }
  /// Removes the free slots left unfilled that are last in their arrays (no index shifts);
  /// returns how many unfilled slots remain in the middle.
  size_t drop_trailing_spares();
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
  std::vector<size_t> free_accessors_, free_views_;  // ascending; filled from the front
};

/// `floats` as little-endian IEEE 754 bytes.
std::string little_endian_bytes(const std::vector<float>& floats);

/// Key times of every frame of `clip`, frame 0 at `start` seconds.
std::vector<float> frame_times(const Clip& clip, double start);

/// Stores `extras` (JSON object text; nothing when empty) as `animation`.extras.footfix, unless
/// the animation's extras are not an object (someone else's: kept as they are).
void store_footfix_extras(Json& animation, const std::string& extras);

/// `bytes` as standard base64 with padding.
std::string base64(const std::string& bytes);

}  // namespace footfix::gltf
