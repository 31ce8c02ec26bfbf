// Internal to fbx/: clip frames from a take's scene graph (fbx_scene.h): each joint's transform
// relative to its parent joint. The reader fills the clip with them; where it made the take's
// channels itself (fbx_channels.h), FbxSource keeps the graph and the channels instead of a copy
// of the frames as read, and gives those frames again by evaluating them once more.
#pragma once

#include <assimp/scene.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "fbx_channels.h"
#include "fbx_scene.h"
#include "footfix/core/math.h"

namespace footfix::fbx {

struct Pose {
  Quat rotation;
  Vec3 position;
  Vec3 scale;
};

Pose decompose(const aiMatrix4x4& m);

/// Local rotation and translation of each joint (scene node `nodes[j]`, parent joint
/// `parents[j]`, -1 for none) from the nodes' world matrices; `pose` gets the joints' world poses.
void joint_locals(const std::vector<aiMatrix4x4>& world, const std::vector<int>& nodes, const std::vector<int>& parents,
                  std::vector<Pose>& pose, Quat* rotations, Vec3* translations);

/// A clip's frames as read, evaluated again from the graph and the channels made from the kept
/// document (whose arrays must outlive this). Not copyable: the graph's nodes point into
/// `channels`. frame() reuses buffers of its own (and the channels cache their last keys): one
/// caller at a time.
struct SourceFrames {
  std::unordered_map<std::string, ModelChannel> channels;
  SceneGraph graph;        ///< its channel nodes sample `channels` (no assimp channel)
  std::vector<int> nodes;  ///< scene node of each joint
  std::vector<int> parents;
  double first_tick = 0;   ///< tick of frame 0
  int frame_count = 0;

  SourceFrames() = default;
  SourceFrames(const SourceFrames&) = delete;
  SourceFrames& operator=(const SourceFrames&) = delete;

  /// Frame `f`'s local rotations and translations (one per joint), as the reader read them.
  void frame(int f, Quat* rotations, Vec3* translations) const;

 private:
  mutable std::vector<aiMatrix4x4> world_;
  mutable std::vector<Pose> pose_;
};

}  // namespace footfix::fbx
