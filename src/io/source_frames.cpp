// A clip's frames as read, given again from what its reader keeps for the writer: BVH decodes
// them from the file's raw values, FBX copies them from the transforms it read or evaluates them
// again from its kept document (FbxSource).
#include <stdexcept>
#include <vector>

#include "bvh/bvh_source.h"
#include "fbx/fbx_source.h"
#include "footfix/io/clip_io.h"

namespace footfix {

namespace {

const FbxSource* fbx_frames_source(const Clip& clip) {
  const auto* source = dynamic_cast<const FbxSource*>(clip.source.get());
  return source != nullptr && source->has_frames(clip.frame_count, clip.joint_count()) ? source : nullptr;
}

}  // namespace

bool has_source_frames(const Clip& clip) { return has_bvh_source_frames(clip) || fbx_frames_source(clip) != nullptr; }

void decode_source_frame(const Clip& clip, int frame, Clip& into) {
  const FbxSource* source = fbx_frames_source(clip);
  if (source == nullptr) return decode_bvh_source_frame(clip, frame, into);
  if (frame < 0 || frame >= clip.frame_count)
    throw std::logic_error(clip.source_name + ": no source frame " + std::to_string(frame) + " to decode");
  // As convert_to_internal converts the clip read (the writer relies on the same).
  const SourceFrame to_file = clip.values_to_file();
  const auto joints = static_cast<size_t>(clip.joint_count());
  std::vector<Quat> rotations(joints);
  std::vector<Vec3> translations(joints);
  source->frame(frame, rotations.data(), translations.data());
  for (size_t j = 0; j < joints; ++j) {
    into.rotation(0, static_cast<int>(j)) = rotation_to_internal(to_file, rotations[j]);
    into.translation(0, static_cast<int>(j)) = point_to_internal(to_file, translations[j]);
  }
}

}  // namespace footfix
