// Internal to fbx/: what the reader uses of assimp's import of an FBX file, as plain values: the
// node tree, the names of the skin bones and every take's channels. The isolated import child
// sends it to the reader through a socket (fbx_import_wire.h); an import in-process goes through
// the same encoding, so the reader has one representation whichever way the file was imported.
#pragma once

#include <assimp/anim.h>
#include <assimp/matrix4x4.h>

#include <memory>
#include <string>
#include <vector>

namespace footfix::fbx {

struct ImportedNode {
  std::string name;
  int parent = -1;         ///< index of the parent node (always lower than this node's); -1: the root
  aiMatrix4x4 transform;   ///< aiNode::mTransformation: the local transform at rest
  bool has_meshes = false;
};

/// One node's animation in a take: assimp's aiNodeAnim keys (times in ticks).
struct ImportedChannel {
  std::string node;
  std::vector<aiVectorKey> positions;
  std::vector<aiQuatKey> rotations;
  std::vector<aiVectorKey> scalings;
};

/// One take (assimp's aiAnimation).
struct ImportedTake {
  std::string name;
  double ticks_per_second = 0;  ///< aiAnimation::mTicksPerSecond (0: not stated)
  double duration = 0;          ///< aiAnimation::mDuration, in ticks
  std::vector<ImportedChannel> channels;
};

struct ImportedScene {
  std::vector<ImportedNode> nodes;  ///< depth first, parents before children; [0] is the root
  std::vector<std::string> bones;   ///< names of the meshes' bones, mesh by mesh
  std::vector<ImportedTake> takes;  ///< in file order
  /// The import worker that sent this scene, where it retires after it: it is ended (if still
  /// running) and reaped when the last copy of the scene goes, so that its exit overlaps the
  /// reader's work on the scene. Empty otherwise.
  std::shared_ptr<void> sender;

  std::vector<std::string> take_names() const {
    std::vector<std::string> out;
    out.reserve(takes.size());
    for (const ImportedTake& t : takes) out.push_back(t.name);
    return out;
  }
};

}  // namespace footfix::fbx
