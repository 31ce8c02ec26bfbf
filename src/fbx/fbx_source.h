// Internal to fbx/: what writing an FBX clip back needs, attached to the clips read_fbx returns
// (Clip::source): the parsed document and, per joint, the Model properties that turn a local
// transform back into Lcl curves. Not installed; tests reach it through the build's src/ include
// directory.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fbx_document.h"
#include "fbx_key_times.h"
#include "footfix/core/clip.h"
#include "footfix/fbx/fbx.h"

namespace footfix {

namespace fbx {
struct SourceFrames;
}

/// What writing needs to turn one joint's local transform back into Lcl curves. Vectors are in
/// file units, angles in degrees, as in the Model's Properties70 (FBX defaults if absent).
struct FbxJointSource {
  std::int64_t model_id = 0;   ///< the Model object id; 0 if the joint has no Model (not writable)
  int rotation_order = 0;      ///< FBX enum: 0 XYZ, 1 XZY, 2 YZX, 3 YXZ, 4 ZXY, 5 ZYX
  Vec3 pre_rotation, post_rotation;
  Vec3 rotation_offset, rotation_pivot, scaling_offset, scaling_pivot;
  Vec3 scaling{1, 1, 1};       ///< Lcl Scaling
  Vec3 lcl_translation, lcl_rotation;  ///< Lcl defaults (rotation: Euler degrees)
  /// The FBX parent's world transform at rest, as seen from the clip: for a joint whose parent is
  /// a clip joint only its uniform scale matters (rotation identity, translation zero); for a
  /// top-level joint, the scene root's full transform.
  Quat parent_rotation;
  Vec3 parent_translation;
  double parent_scale = 1.0;
};

struct FbxSource : SourceData {
  /// The parsed file (its `binary` flag is the flavour), its curves' key times taken out into
  /// `key_times` (each curve keeps its first key): whole_document() is the file as parsed.
  FbxDocument document;
  fbx::SharedKeyTimes key_times;
  std::string take;              ///< assimp animation / AnimationStack name that was read
  std::vector<std::string> takes;  ///< all takes' names, in file order (as list_fbx_takes)
  double start_time_s = 0;       ///< time of frame 0 in the file
  std::vector<FbxJointSource> joints;  ///< per clip joint
  /// The clip as read (file frame), to detect which joints a caller changed: a copy, or (where
  /// the reader made the take's channels from the document) `frames`, which evaluates them again.
  std::vector<Quat> rotations;
  std::vector<Vec3> translations;
  std::shared_ptr<const fbx::SourceFrames> frames;

  /// Whether the frames as read are here for a clip of that many frames and joints.
  bool has_frames(int frame_count, int joints) const;
  /// Frame `f` as read: one local rotation and translation per joint (file frame). Not for
  /// concurrent callers on one source (the evaluation reuses buffers).
  void frame(int f, Quat* rotations_out, Vec3* translations_out) const;

  /// `document` with its key times put back.
  FbxDocument whole_document() const;
};

}  // namespace footfix
