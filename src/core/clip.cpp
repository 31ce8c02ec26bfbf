#include "footfix/core/clip.h"

#include <stdexcept>

namespace footfix {

void Clip::resize(int frames) {
  frame_count = frames;
  size_t n = static_cast<size_t>(frames) * static_cast<size_t>(joint_count());
  rotations.assign(n, Quat{});
  translations.resize(n);
  for (int f = 0; f < frames; ++f)
    for (int j = 0; j < joint_count(); ++j) translation(f, j) = skeleton.rest_offsets[j];
}

void convert_to_internal(Clip& clip, const SourceFrame& frame) {
  if (clip.space == ClipSpace::internal)
    throw std::logic_error(clip.source_name + ": clip converted to the internal frame twice");
  points_to_internal(frame, clip.skeleton.rest_offsets);
  for (auto& e : clip.skeleton.end_sites)
    if (e) *e = point_to_internal(frame, *e);
  points_to_internal(frame, clip.translations);
  // Rotations in a Y-up file are already internal (rotation_to_internal returns them as they are).
  if (frame.up != Axis::pos_y)
    for (auto& q : clip.rotations) q = rotation_to_internal(frame, q);
  clip.source_frame = frame;
  clip.space = ClipSpace::internal;
}

}  // namespace footfix
