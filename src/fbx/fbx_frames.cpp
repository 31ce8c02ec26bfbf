#include "fbx_frames.h"

#include "fbx_source.h"

namespace footfix::fbx {

Pose decompose(const aiMatrix4x4& m) {
  aiVector3D s, p;
  aiQuaternion q;
  m.Decompose(s, q, p);
  return {normalize(Quat{q.w, q.x, q.y, q.z}), {p.x, p.y, p.z}, {s.x, s.y, s.z}};
}

void joint_locals(const std::vector<aiMatrix4x4>& world, const std::vector<int>& nodes, const std::vector<int>& parents,
                  std::vector<Pose>& pose, Quat* rotations, Vec3* translations) {
  const std::size_t joints = nodes.size();
  pose.resize(joints);
  for (std::size_t j = 0; j < joints; ++j) pose[j] = decompose(world[static_cast<std::size_t>(nodes[j])]);
  for (std::size_t j = 0; j < joints; ++j) {
    const int p = parents[j];
    if (p < 0) {
      rotations[j] = pose[j].rotation;
      translations[j] = pose[j].position;
    } else {
      const Quat inv = inverse(pose[static_cast<std::size_t>(p)].rotation);
      rotations[j] = normalize(inv * pose[j].rotation);
      translations[j] = rotate(inv, pose[j].position - pose[static_cast<std::size_t>(p)].position);
    }
  }
}

void SourceFrames::frame(int f, Quat* rotations, Vec3* translations) const {
  graph.evaluate(first_tick + f, true, world_);
  joint_locals(world_, nodes, parents, pose_, rotations, translations);
}

}  // namespace footfix::fbx

namespace footfix {

bool FbxSource::has_frames(int frame_count, int joints) const {
  if (frame_count < 0 || this->joints.size() != static_cast<std::size_t>(joints)) return false;
  if (frames) return frames->frame_count == frame_count;
  const std::size_t n = static_cast<std::size_t>(frame_count) * static_cast<std::size_t>(joints);
  return rotations.size() == n && translations.size() == n;
}

void FbxSource::frame(int f, Quat* rotations_out, Vec3* translations_out) const {
  if (frames) return frames->frame(f, rotations_out, translations_out);
  const std::size_t first = static_cast<std::size_t>(f) * joints.size();
  for (std::size_t j = 0; j < joints.size(); ++j) {
    rotations_out[j] = rotations[first + j];
    translations_out[j] = translations[first + j];
  }
}

}  // namespace footfix
