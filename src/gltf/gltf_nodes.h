// Internal to gltf/: the glTF node hierarchy with each node's rest transform (TRS; a matrix is
// decomposed into TRS, shear ignored).
#pragma once

#include <string>
#include <vector>

#include "footfix/core/math.h"
#include "gltf_document.h"

namespace footfix::gltf {

struct Node {
  std::string name;
  int parent = -1;
  std::vector<int> children;
  Vec3 translation;
  Quat rotation;
  Vec3 scale{1, 1, 1};
  bool has_matrix = false;  ///< given as a matrix (cannot be animated)
};

/// The document's nodes. Throws Error(read) "<file>: nodes[i]...: ..." for malformed members, a
/// child index out of range, a node with two parents or a cycle.
std::vector<Node> read_nodes(const Document& doc);

}  // namespace footfix::gltf
