// Internal to gltf/: what writing a glTF clip back needs, attached to the clips read_gltf returns
// (Clip::source): the file as read and, per joint, its node and the scale folded into its
// translations.
#pragma once

#include <string>
#include <vector>

#include "footfix/core/clip.h"
#include "gltf_document.h"

namespace footfix {

struct GltfSource : SourceData {
  gltf::Document document;          ///< the file as parsed (container bytes, JSON, buffers)
  std::string original;             ///< the whole file as read, written back when nothing changed
  size_t animation = 0;             ///< index of the animation read
  std::vector<std::string> animations;  ///< all animations' names, in file order
  double start_time_s = 0;          ///< time of frame 0 in the file
  std::vector<int> nodes;           ///< per clip joint: its node index
  /// Per frame and joint (Clip::index): the product of the ancestors' uniform scales that reading
  /// multiplied the joint's translation by.
  std::vector<double> parent_scales;
  std::vector<Quat> rotations;      ///< the clip as read, to detect what a caller changed
  std::vector<Vec3> translations;
};

}  // namespace footfix
