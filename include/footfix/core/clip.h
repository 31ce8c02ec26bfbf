// An animation clip: a skeleton plus per-frame local joint transforms, in the internal frame
// (meters, Y up). Per-frame data are flat arrays indexed [frame * joint_count + joint].
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "footfix/core/conventions.h"
#include "footfix/core/math.h"
#include "footfix/core/skeleton.h"

namespace footfix {

/// Format-specific data a reader keeps so a writer can reproduce the file (BVH channel layout
/// and raw values, the original FBX document). Opaque to everything outside io/.
struct SourceData {
  virtual ~SourceData() = default;
};

struct Clip {
  Skeleton skeleton;
  double fps = 30.0;     ///< frames per second (> 0)
  int frame_count = 0;
  std::vector<Quat> rotations;     ///< local rotation of each joint relative to its parent
  std::vector<Vec3> translations;  ///< local translation (joint origin in parent space), meters
  SourceFrame source_frame;        ///< units and up axis of the file the clip came from
  std::string source_name;         ///< file name for messages
  std::shared_ptr<const SourceData> source;  ///< may be null (synthetic clips)

  int joint_count() const { return skeleton.joint_count(); }
  double frame_time() const { return 1.0 / fps; }
  size_t index(int frame, int joint) const {
    return static_cast<size_t>(frame) * static_cast<size_t>(joint_count()) + static_cast<size_t>(joint);
  }
  Quat& rotation(int frame, int joint) { return rotations[index(frame, joint)]; }
  const Quat& rotation(int frame, int joint) const { return rotations[index(frame, joint)]; }
  Vec3& translation(int frame, int joint) { return translations[index(frame, joint)]; }
  const Vec3& translation(int frame, int joint) const { return translations[index(frame, joint)]; }
  /// Allocates frame_count * joint_count transforms, initialised to the rest pose.
  void resize(int frames);
};

/// Converts a clip read in its source frame (units, axes as in the file) to the internal frame.
/// Sets clip.source_frame = frame.
void convert_to_internal(Clip& clip, const SourceFrame& frame);

}  // namespace footfix
