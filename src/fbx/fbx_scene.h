// Internal: assimp's FBX scene (as imported, fbx_imported.h) evaluated per frame, with
// `$AssimpFbx$` helper nodes folded into the joints they belong to.
#pragma once

#include <assimp/anim.h>
#include <assimp/matrix4x4.h>

#include <string>
#include <vector>

#include "fbx_imported.h"

namespace footfix::fbx {

/// A node's local transform over time from somewhere other than an assimp channel (see
/// fbx_channels.h), sampled exactly as a channel with the same keys would be.
class LocalSampler {
 public:
  virtual ~LocalSampler() = default;
  virtual aiMatrix4x4 local(double tick) const = 0;
};

struct SceneNode {
  std::string name;
  int parent = -1;           ///< index into SceneGraph::nodes; -1 for the root
  int base = -1;             ///< node whose world this node's local is composed onto
  bool helper = false;       ///< a `Name_$AssimpFbx$_Component` node
  std::string owner;         ///< helpers: the joint's name; others: own name
  aiMatrix4x4 static_local;  ///< the node's transform at rest
  const ImportedChannel* channel = nullptr;
  const LocalSampler* sampler = nullptr;  ///< used instead of `channel` where set
  bool has_meshes = false;
};

struct SceneGraph {
  std::vector<SceneNode> nodes;  ///< depth first, parents before children; [0] is the root

  /// The nodes of `scene`, with `take`'s channels (may be null) bound to nodes by name. A real
  /// node with its own channel and helper nodes above it is composed directly onto its nearest
  /// real ancestor: assimp 5.2 bakes the helpers' static transforms into that channel.
  SceneGraph(const ImportedScene& scene, const ImportedTake* take);
  SceneGraph() = default;

  /// World matrices of every node at `tick` (channels sampled, clamped to their key range), or
  /// at rest (static transforms only) when `animated` is false.
  void evaluate(double tick, bool animated, std::vector<aiMatrix4x4>& world) const;
};

/// A channel's local transform at `tick` from its keys (clamped to their range), as
/// SceneGraph::evaluate samples it; a component with no keys is `fallback`'s.
aiMatrix4x4 sample_keys(const aiVectorKey* positions, unsigned position_count, const aiQuatKey* rotations,
                        unsigned rotation_count, const aiVectorKey* scalings, unsigned scaling_count,
                        const aiMatrix4x4& fallback, double tick);
/// sample_keys over `channel`'s keys.
aiMatrix4x4 sample_keys(const ImportedChannel& channel, const aiMatrix4x4& fallback, double tick);

/// Earliest and latest key time over all channels of `take`, in ticks.
void key_range(const ImportedTake& take, double& first, double& last);

}  // namespace footfix::fbx
