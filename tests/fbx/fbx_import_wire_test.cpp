// The import child's answer (fbx/fbx_import_wire): what assimp imported comes back value for value,
// and the reader refuses anything else cleanly: every truncation, trailing bytes, counts the
// bytes cannot hold, more nodes or memory than --max-memory allows; a flipped byte anywhere
// decodes or is refused, never more.
#include <gtest/gtest.h>

#include <assimp/Importer.hpp>

#include "footfix/core/error.h"
#include "fbx/fbx_import_wire.h"  // internal to fbx, not installed
#include "support/hostile_files.h"

namespace footfix {
namespace {

using fbx::ImportAnswer;

/// assimp's import of a small ASCII FBX (three pivoted joints, one take), encoded.
struct Encoded {
  Assimp::Importer importer;
  const aiScene* scene = nullptr;
  std::string answer;
  Encoded() {
    const std::string bytes = test::ascii_fbx_pivoted_models(3);
    scene = importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, "fbx");
    if (!scene) return;
    fbx::StringSink sink(answer);
    fbx::encode_scene(*scene, sink);
  }
};

/// The Error(read) message decoding `bytes` throws; empty if it decodes.
std::string refusal(std::string_view bytes, const ReadLimits& limits = {}) {
  try {
    fbx::decode_answer(bytes, "answer.fbx", limits);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::read);
    return e.what();
  }
  return {};
}

/// The scene's nodes depth first (children in order), as the answer lists them.
void flatten(const aiNode* n, std::vector<const aiNode*>& out) {
  out.push_back(n);
  for (unsigned i = 0; i < n->mNumChildren; ++i) flatten(n->mChildren[i], out);
}

TEST(FbxImportWire, SceneComesBackValueForValue) {
  Encoded e;
  ASSERT_TRUE(e.scene);
  const ImportAnswer a = fbx::decode_answer(e.answer, "answer.fbx", {});
  ASSERT_TRUE(a.readable);
  std::vector<const aiNode*> nodes;
  flatten(e.scene->mRootNode, nodes);
  ASSERT_EQ(a.scene.nodes.size(), nodes.size());
  EXPECT_GT(nodes.size(), 20u);  // helper nodes for the pivots
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const fbx::ImportedNode& n = a.scene.nodes[i];
    EXPECT_EQ(n.name, nodes[i]->mName.C_Str());
    EXPECT_TRUE(n.transform == nodes[i]->mTransformation) << n.name;
    EXPECT_EQ(n.has_meshes, nodes[i]->mNumMeshes > 0);
    const aiNode* parent = nodes[i]->mParent;
    EXPECT_EQ(n.parent, parent ? static_cast<int>(std::find(nodes.begin(), nodes.end(), parent) - nodes.begin()) : -1);
  }
  ASSERT_EQ(a.scene.takes.size(), e.scene->mNumAnimations);
  const aiAnimation& anim = *e.scene->mAnimations[0];
  const fbx::ImportedTake& take = a.scene.takes[0];
  EXPECT_EQ(take.name, anim.mName.C_Str());
  EXPECT_EQ(take.ticks_per_second, anim.mTicksPerSecond);
  EXPECT_EQ(take.duration, anim.mDuration);
  ASSERT_EQ(take.channels.size(), anim.mNumChannels);
  for (unsigned c = 0; c < anim.mNumChannels; ++c) {
    const aiNodeAnim& ch = *anim.mChannels[c];
    const fbx::ImportedChannel& got = take.channels[c];
    EXPECT_EQ(got.node, ch.mNodeName.C_Str());
    ASSERT_EQ(got.positions.size(), ch.mNumPositionKeys);
    ASSERT_EQ(got.rotations.size(), ch.mNumRotationKeys);
    ASSERT_EQ(got.scalings.size(), ch.mNumScalingKeys);
    for (unsigned k = 0; k < ch.mNumRotationKeys; ++k) {
      EXPECT_EQ(got.rotations[k].mTime, ch.mRotationKeys[k].mTime);
      EXPECT_TRUE(got.rotations[k].mValue == ch.mRotationKeys[k].mValue);
    }
    for (unsigned k = 0; k < ch.mNumPositionKeys; ++k) EXPECT_TRUE(got.positions[k].mValue == ch.mPositionKeys[k].mValue);
  }
}

TEST(FbxImportWire, EveryTruncationIsRefused) {
  Encoded e;
  ASSERT_TRUE(e.scene);
  for (std::size_t n = 0; n < e.answer.size(); ++n) {
    const std::string error = refusal(std::string_view(e.answer).substr(0, n));
    ASSERT_NE(error.find("answer.fbx: the FBX import child's answer is malformed at byte"), std::string::npos)
        << n << " bytes: " << error;
  }
  EXPECT_NE(refusal(e.answer + '\0').find("1 bytes after the end"), std::string::npos);
}

TEST(FbxImportWire, FlippedBytesDecodeOrAreRefused) {
  Encoded e;
  ASSERT_TRUE(e.scene);
  int refused = 0;
  for (std::size_t i = 0; i < e.answer.size(); ++i) {
    std::string spoiled = e.answer;
    spoiled[i] = static_cast<char>(spoiled[i] ^ 0xA5);
    if (!refusal(spoiled).empty()) ++refused;  // anything but Error(read) fails the test
  }
  EXPECT_GT(refused, 0);
}

TEST(FbxImportWire, CountsTheBytesCannotHoldAllocateNothing) {
  std::string answer("FFXI\x01\x00", 6);
  answer += std::string("\xff\xff\xff\x7f", 4);  // 2^31 - 1 nodes, and nothing after
  EXPECT_NE(refusal(answer).find("malformed at byte 10 of 10 (2147483647 nodes in 0 bytes)"), std::string::npos)
      << refusal(answer);
  EXPECT_NE(refusal(std::string("FFXI\x02\x00", 6)).find("version 2, not 1"), std::string::npos);
  EXPECT_NE(refusal(std::string("FFXI\x01\x07", 6)).find("kind 7, not 0 or 1"), std::string::npos);
  EXPECT_NE(refusal("GIF89a").find("no FFXI header"), std::string::npos);
}

TEST(FbxImportWire, NodesAndMemoryAreBoundedByTheMemoryLimit) {
  Encoded e;
  ASSERT_TRUE(e.scene);
  ReadLimits limits;
  limits.max_memory_bytes = 10 << 10;  // two nodes at 5 KiB each
  EXPECT_NE(refusal(e.answer, limits).find("scene nodes (about 5 KiB each), over the memory limit"), std::string::npos)
      << refusal(e.answer, limits);

  // One node and a take of 100,000 rotation keys (2.4 MB decoded): over a 1 MiB limit.
  aiScene scene;
  scene.mRootNode = new aiNode("root");
  scene.mNumAnimations = 1;
  scene.mAnimations = new aiAnimation*[1]{new aiAnimation};
  aiAnimation& anim = *scene.mAnimations[0];
  anim.mNumChannels = 1;
  anim.mChannels = new aiNodeAnim*[1]{new aiNodeAnim};
  aiNodeAnim& ch = *anim.mChannels[0];
  ch.mNumRotationKeys = 100000;
  ch.mRotationKeys = new aiQuatKey[ch.mNumRotationKeys];
  for (unsigned k = 0; k < ch.mNumRotationKeys; ++k) ch.mRotationKeys[k].mTime = k;
  std::string answer;
  fbx::StringSink sink(answer);
  fbx::encode_scene(scene, sink);
  limits.max_memory_bytes = 1 << 20;
  EXPECT_NE(refusal(answer, limits).find("answer.fbx: the FBX import child's answer needs more than the memory limit of "
                                         "1 MiB (--max-memory); file refused"),
            std::string::npos)
      << refusal(answer, limits);
  EXPECT_EQ(refusal(answer), "");

  // Key times out of order: refused with the take and channel named.
  std::swap(ch.mRotationKeys[5].mTime, ch.mRotationKeys[6].mTime);
  answer.clear();
  fbx::encode_scene(scene, sink);
  EXPECT_NE(refusal(answer).find("(take 0, channel 0: rotation keys: key time 5.000000 is not finite or out of order)"),
            std::string::npos)
      << refusal(answer);
}

TEST(FbxImportWire, UnreadableCarriesAssimpsReason) {
  std::string answer;
  fbx::StringSink sink(answer);
  fbx::encode_unreadable("FBX-DOM unsupported, old format version", sink);
  const ImportAnswer a = fbx::decode_answer(answer, "answer.fbx", {});
  EXPECT_FALSE(a.readable);
  EXPECT_EQ(a.reason, "FBX-DOM unsupported, old format version");
  answer.clear();
  fbx::encode_unreadable(std::string(5000, 'x'), sink);  // kept to an aiString's capacity
  EXPECT_EQ(fbx::decode_answer(answer, "answer.fbx", {}).reason, std::string(1024, 'x'));
}

}  // namespace
}  // namespace footfix
