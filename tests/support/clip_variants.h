// Variants of a clip as other capture tools write it, made with footfix's own Clip API on a clip
// still in its file's units and axes (parse_bvh), and written back as BVH text (write_bvh's
// standard layout). Tests of the reader build their inputs from the bundled walk with these.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/core/read_file.h"
#include "footfix/bvh/bvh.h"
#include "support/paths.h"

namespace footfix::test {

/// The bundled walk (120 fps, CMU units, Y up) in its file's frame.
inline Clip walk_source_clip() {
  const std::string path = data_clip("cmu_07_01_walk.bvh").string();
  return parse_bvh(read_file(path), path);
}

/// Turns the whole clip by `q` (file axes): every offset, End Site and root translation is
/// rotated, every local rotation conjugated (q r q^-1), so each world pose turns by q.
inline void turn_clip(Clip& clip, Quat q) {
  for (auto& offset : clip.skeleton.rest_offsets) offset = rotate(q, offset);
  for (auto& end : clip.skeleton.end_sites)
    if (end) end = rotate(q, *end);
  for (auto& t : clip.translations) t = rotate(q, t);
  for (auto& r : clip.rotations) r = normalize(q * r * conjugate(q));
}

/// Keeps every `step`-th frame (120 fps with step 4: 30 fps).
inline void keep_every(Clip& clip, int step) {
  const int joints = clip.joint_count();
  int kept = 0;
  for (int f = 0; f < clip.frame_count; f += step, ++kept)
    for (int j = 0; j < joints; ++j) {
      clip.rotation(kept, j) = clip.rotation(f, j);
      clip.translation(kept, j) = clip.translation(f, j);
    }
  clip.frame_count = kept;
  clip.rotations.resize(clip.index(kept, 0));
  clip.translations.resize(clip.index(kept, 0));
  clip.fps /= step;
}

/// Removes leaf joint `leaf` (no child joints); its parent gets an End Site where it was.
inline void remove_leaf(Clip& clip, int leaf) {
  Skeleton& sk = clip.skeleton;
  const int joints = clip.joint_count();
  sk.end_sites[static_cast<size_t>(sk.parents[leaf])] = sk.rest_offsets[leaf];
  std::vector<Quat> rotations;
  std::vector<Vec3> translations;
  for (int f = 0; f < clip.frame_count; ++f)
    for (int j = 0; j < joints; ++j)
      if (j != leaf) {
        rotations.push_back(clip.rotation(f, j));
        translations.push_back(clip.translation(f, j));
      }
  clip.rotations = std::move(rotations);
  clip.translations = std::move(translations);
  for (int& p : sk.parents)
    if (p > leaf) --p;
  const auto at = [leaf](auto& v) { v.erase(v.begin() + leaf); };
  at(sk.names), at(sk.parents), at(sk.rest_offsets), at(sk.end_sites);
}

/// BVH text of `clip` (its values as they are, frame time 1 / clip.fps) in the writer's standard
/// layout: 6 channels on the root and on joints that move, rotations Z Y X.
inline std::string bvh_text(Clip clip) {
  clip.source.reset();
  std::ostringstream out;
  write_bvh(clip, out);
  return out.str();
}

}  // namespace footfix::test
