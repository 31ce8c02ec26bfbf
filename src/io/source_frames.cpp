// A clip's frames as read, given again from what its reader keeps for the writer: BVH decodes
// them from the file's raw values, FBX copies them from the transforms it read (FbxSource).
#include <stdexcept>

#include "bvh_source.h"
#include "fbx_source.h"
#include "footfix/io/clip_io.h"

namespace footfix {

namespace {

const FbxSource* fbx_frames_source(const Clip& clip) {
  const auto* source = dynamic_cast<const FbxSource*>(clip.source.get());
  const size_t n = static_cast<size_t>(clip.frame_count) * static_cast<size_t>(clip.joint_count());
  if (source == nullptr || clip.frame_count < 0 || source->joints.size() != static_cast<size_t>(clip.joint_count()) ||
      source->rotations.size() != n || source->translations.size() != n)
    return nullptr;
  return source;
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
  const size_t first = clip.index(frame, 0);
  for (int j = 0; j < clip.joint_count(); ++j) {
    into.rotation(0, j) = rotation_to_internal(to_file, source->rotations[first + static_cast<size_t>(j)]);
    into.translation(0, j) = point_to_internal(to_file, source->translations[first + static_cast<size_t>(j)]);
  }
}

}  // namespace footfix
