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

#include "fbx/fbx_document.h"  // internal to fbx, not installed
#include "fbx/fbx_key_times.h"
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

/// `bytes` parsed as footfix's FBX read keeps them: each AnimationCurve's key times taken out
/// into `key_times` as the curve is parsed (fbx::take_out_key_times).
inline FbxDocument parse_kept(const std::string& bytes, const std::string& name, fbx::SharedKeyTimes& key_times) {
  return parse_fbx_document(bytes, name, [&key_times](FbxNode& object) { fbx::take_out_key_times(object, key_times); });
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

/// The Mixamo walk with a second take "Second" spanning frames 10..20 of the same curves.
inline std::string with_second_take() {
  FbxDocument doc = parse_fbx_document(file_bytes(shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx"), "w");
  auto& objs = doc.root("Objects")->children;
  auto& links = doc.root("Connections")->children;
  auto p_ktime = [](const char* name, std::int64_t v) {
    return FbxNode{"P", {FbxProperty::string(name), FbxProperty::string("KTime"), FbxProperty::string("Time"),
                         FbxProperty::string(""), FbxProperty::integer('L', v)}, {}, false};
  };
  auto link = [](std::int64_t child, std::int64_t parent) {
    return FbxNode{"C", {FbxProperty::string("OO"), FbxProperty::integer('L', child), FbxProperty::integer('L', parent)}, {}, false};
  };
  const std::int64_t stack = 9000000001, layer = 9000000002;
  FbxNode props{"Properties70", {}, {p_ktime("LocalStart", 10 * 1539538600LL), p_ktime("LocalStop", 20 * 1539538600LL)}, true};
  objs.push_back(FbxNode{"AnimationStack", {FbxProperty::integer('L', stack), FbxProperty::string(std::string("Second\0\1AnimStack", 17)), FbxProperty::string("")}, {props}, true});
  objs.push_back(FbxNode{"AnimationLayer", {FbxProperty::integer('L', layer), FbxProperty::string(std::string("Layer0\0\1AnimLayer", 17)), FbxProperty::string("")}, {}, true});
  std::vector<FbxNode> extra{link(layer, stack)};
  for (const auto& o : objs)
    if (o.name == "AnimationCurveNode") extra.push_back(link(o.properties[0].as_int(), layer));
  links.insert(links.end(), extra.begin(), extra.end());
  std::ostringstream out;
  write_fbx_document(doc, out);
  return out.str();
}

/// The Mixamo walk (binary) whose LeftLeg gets rotation/scaling pivots and offsets, a
/// PostRotation and rotation order ZXY: assimp then animates helper nodes instead of the joint.
inline std::string with_pivots() {
  FbxDocument doc = parse_fbx_document(file_bytes(shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx"), "w");
  auto p_vec = [](const char* name, double x, double y, double z) {
    return FbxNode{"P", {FbxProperty::string(name), FbxProperty::string("Vector3D"), FbxProperty::string("Vector"),
                         FbxProperty::string(""), FbxProperty::real('D', x), FbxProperty::real('D', y), FbxProperty::real('D', z)}, {}, false};
  };
  for (auto& o : doc.root("Objects")->children) {
    if (o.name != "Model" || o.properties[1].as_string().substr(0, 18) != std::string("mixamorig:LeftLeg\0", 18)) continue;
    auto& props = o.child("Properties70")->children;
    props.push_back(p_vec("RotationPivot", 1.5, -2.0, 0.5));
    props.push_back(p_vec("RotationOffset", 0.3, 0.0, -0.2));
    props.push_back(p_vec("ScalingPivot", 0.2, 0.1, 0.0));
    props.push_back(p_vec("PostRotation", 10.0, 5.0, -20.0));
    props.push_back(FbxNode{"P", {FbxProperty::string("RotationOrder"), FbxProperty::string("enum"), FbxProperty::string(""),
                                  FbxProperty::string(""), FbxProperty::integer('I', 4)}, {}, false});
  }
  std::ostringstream out;
  write_fbx_document(doc, out);
  return out.str();
}

}  // namespace footfix::test
