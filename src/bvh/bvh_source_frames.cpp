// A BVH clip's frames as read, decoded again from the raw values the reader keeps for the writer.
#include <stdexcept>

#include "bvh_source.h"

namespace footfix {

namespace {

const BvhSource* frames_source(const Clip& clip) {
  const auto* source = dynamic_cast<const BvhSource*>(clip.source.get());
  if (source == nullptr || source->values_per_frame <= 0 ||
      source->joints.size() != static_cast<size_t>(clip.joint_count()) ||
      source->values.size() / static_cast<size_t>(source->values_per_frame) < static_cast<size_t>(clip.frame_count))
    return nullptr;
  return source;
}

}  // namespace

bool has_bvh_source_frames(const Clip& clip) { return frames_source(clip) != nullptr; }

void decode_bvh_source_frame(const Clip& clip, int frame, Clip& into) {
  const BvhSource* source = frames_source(clip);
  if (source == nullptr || frame < 0 || frame >= clip.frame_count)
    throw std::logic_error(clip.source_name + ": no source frame " + std::to_string(frame) + " to decode");
  // As parse_bvh decodes and convert_to_internal converts (the writer relies on the same).
  const SourceFrame to_file = clip.values_to_file();
  for (int j = 0; j < clip.joint_count(); ++j) {
    const Transform t = decode_bvh_joint(*source, source->raw_offsets[static_cast<size_t>(j)], frame, j);
    into.rotation(0, j) = rotation_to_internal(to_file, t.rotation);
    into.translation(0, j) = point_to_internal(to_file, t.translation);
  }
  // World positions (BvhSource::world_positions) made parent-relative, as the reader made them.
  if (source->world_positions)
    for (int j = clip.joint_count() - 1; j >= 0; --j)
      if (const int parent = clip.skeleton.parents[static_cast<size_t>(j)]; parent >= 0)
        into.translation(0, j) = into.translation(0, j) - into.translation(0, parent);
}

}  // namespace footfix
