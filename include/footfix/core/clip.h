// An animation clip: a skeleton plus per-frame local joint transforms. Per-frame data are flat
// arrays indexed [frame * joint_count + joint]. A reader leaves the clip in its file's units and
// axes (space == ClipSpace::source); convert_to_internal moves it to the internal frame (meters,
// Y up) once; writers convert back only what is internal, so no value is converted twice.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "footfix/core/conventions.h"
#include "footfix/core/math.h"
#include "footfix/core/skeleton.h"

namespace footfix {

/// Format-specific data a reader keeps so a writer can reproduce the file (BVH channel layout
/// and raw values, the original FBX document). Opaque to everything outside the format modules
/// (bvh/, fbx/, gltf/) and io/.
struct SourceData {
  virtual ~SourceData() = default;
};

/// The frame a clip's translations and rotations are expressed in.
enum class ClipSpace {
  source,    ///< the file's own units and axes, as read (source_frame says what they are)
  internal,  ///< meters, Y up; source_frame says how to convert back on write
};

struct Clip {
  Skeleton skeleton;
  double fps = 30.0;     ///< frames per second (> 0)
  int frame_count = 0;
  std::vector<Quat> rotations;     ///< local rotation of each joint relative to its parent
  std::vector<Vec3> translations;  ///< local translation (joint origin in parent space), in `space`
  SourceFrame source_frame;        ///< units and up axis of the file the clip came from
  /// Where the transforms are now. Clips built in code are internal (meters, Y up); readers set
  /// source, convert_to_internal sets internal.
  ClipSpace space = ClipSpace::internal;
  /// True when the file states source_frame (FBX GlobalSettings UnitScaleFactor and up axis);
  /// false when it was detected or defaulted (BVH has no such header).
  bool source_frame_declared = false;
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
  /// The conversion from the clip's values to its file's values, for writers: source_frame when
  /// the clip is internal, the identity (values are file values already) when it is in source
  /// space.
  SourceFrame values_to_file() const { return space == ClipSpace::internal ? source_frame : SourceFrame{}; }
};

/// Converts a clip read in its source frame (units, axes as in the file) to the internal frame.
/// Sets clip.source_frame = frame and clip.space = internal. Throws std::logic_error (a bug,
/// exit 70 in the CLI) when the clip is already internal: a second conversion would scale it
/// twice.
void convert_to_internal(Clip& clip, const SourceFrame& frame);

}  // namespace footfix
