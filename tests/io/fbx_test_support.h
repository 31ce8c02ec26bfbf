// Helpers for the FBX tests: the shared FBX clips, file bytes, and an assimp summary of a file
// (node names, mesh vertices, skin weights, animation key counts) used as an independent oracle.
#pragma once

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/paths.h"

namespace footfix::test {

inline std::vector<std::filesystem::path> shared_fbx_files() {
  std::vector<std::filesystem::path> out;
  if (!have_shared_clips()) return out;
  for (const auto& e : std::filesystem::directory_iterator(shared_clips_dir()))
    if (e.path().extension() == ".fbx") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string file_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct AssimpSummary {
  std::vector<std::string> node_names;  ///< depth-first order
  unsigned vertices = 0;
  std::map<std::string, std::pair<unsigned, double>> bones;  ///< mesh/bone -> (weights, sum)
  std::map<std::string, std::pair<unsigned, unsigned>> keys; ///< channel -> (position, rotation)
  unsigned animations = 0;
};

inline void collect_nodes(const aiNode* n, std::vector<std::string>& out) {
  out.emplace_back(n->mName.C_Str());
  for (unsigned i = 0; i < n->mNumChildren; ++i) collect_nodes(n->mChildren[i], out);
}

inline AssimpSummary summarize(const aiScene* s) {
  AssimpSummary r;
  collect_nodes(s->mRootNode, r.node_names);
  for (unsigned m = 0; m < s->mNumMeshes; ++m) {
    const aiMesh* mesh = s->mMeshes[m];
    r.vertices += mesh->mNumVertices;
    for (unsigned b = 0; b < mesh->mNumBones; ++b) {
      const aiBone* bone = mesh->mBones[b];
      double sum = 0;
      for (unsigned w = 0; w < bone->mNumWeights; ++w) sum += bone->mWeights[w].mWeight;
      r.bones[std::to_string(m) + "/" + bone->mName.C_Str()] = {bone->mNumWeights, sum};
    }
  }
  r.animations = s->mNumAnimations;
  for (unsigned a = 0; a < s->mNumAnimations; ++a)
    for (unsigned c = 0; c < s->mAnimations[a]->mNumChannels; ++c) {
      const aiNodeAnim* ch = s->mAnimations[a]->mChannels[c];
      r.keys[std::to_string(a) + "/" + ch->mNodeName.C_Str()] = {ch->mNumPositionKeys, ch->mNumRotationKeys};
    }
  return r;
}

/// Summary of an FBX held in memory; fails the test if assimp cannot read it.
inline AssimpSummary assimp_summary(const std::string& bytes) {
  Assimp::Importer importer;
  const aiScene* s = importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, "fbx");
  EXPECT_NE(s, nullptr) << importer.GetErrorString();
  return s ? summarize(s) : AssimpSummary{};
}

}  // namespace footfix::test
