// glTF reader on hand-made files: interpolation, quantized and sparse outputs, node scales, the
// choice of animation, and located refusals of malformed files.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "cli/run_footfix.h"
#include "footfix/core/error.h"
#include "footfix/gltf/gltf.h"
#include "gltf/gltf_test_file.h"

namespace footfix {
namespace {

using test::animate;
using test::GltfFile;
using test::two_joint_rig;

Clip read_text(const std::string& text, std::vector<std::string>* warnings = nullptr, const std::string& anim = "") {
  return read_gltf_bytes(text, "hand.gltf", anim, warnings);
}

std::string error_of(const std::string& bytes, const std::filesystem::path& path = "hand.gltf") {
  try {
    read_gltf_bytes(bytes, path);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::read);
    return e.what();
  }
  return "(read without error)";
}

TEST(GltfRead, LinearStepAndCubicSampleBetweenKeys) {
  // Keys at 0, 0.25 and 1 s: the shortest interval makes 4 frames per second, t = 0.5 s is frame
  // 2, a third of the way from the second key to the third.
  for (const char* interp : {"LINEAR", "STEP"}) {
    GltfFile f = two_joint_rig();
    animate(f, 1, "translation", {0, 0.25f, 1}, {0, 1, 0, 1, 1, 0, 4, 1, 0}, interp);
    const Clip clip = read_text(f.gltf_text());
    ASSERT_EQ(clip.frame_count, 5);
    EXPECT_DOUBLE_EQ(clip.fps, 4.0);
    const int hips = clip.skeleton.find("hips");
    EXPECT_NEAR(clip.translation(2, hips).x, std::string(interp) == "LINEAR" ? 2.0 : 1.0, 1e-6) << interp;
    EXPECT_NEAR(clip.translation(4, hips).x, 4.0, 1e-6);
  }
  GltfFile f = two_joint_rig();
  // CUBICSPLINE: per key in-tangent, value, out-tangent; zero tangents from 0 to 3 over 0.75 s:
  // at u = 1/3 the Hermite basis gives 3 * (3u^2 - 2u^3) = 7/9.
  animate(f, 1, "translation", {0, 0.25f, 1},
          {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 1, 0, 0, 0, 0}, "CUBICSPLINE");
  const Clip clip = read_text(f.gltf_text());
  EXPECT_NEAR(clip.translation(2, clip.skeleton.find("hips")).x, 7.0 / 9.0, 1e-6);
}

TEST(GltfRead, NormalizedShortRotationsAndSparseTranslations) {
  GltfFile f = two_joint_rig();
  const int in = f.floats({0, 1}, "SCALAR", 2);
  // 90 degrees about Y as KHR_mesh_quantization stores it: round(0.7071 * 32767) = 23170.
  const int rot = f.shorts({0, 23170, 0, 23170, 0, 23170, 0, 23170}, "VEC4", 2);
  // Translations: zeros but for key 1, given sparsely.
  std::string index(2, '\0');
  index[0] = 1;
  const float value[3] = {5, 0, 0};
  const int index_view = f.view(index);
  const int value_view = f.view(std::string(reinterpret_cast<const char*>(value), 12));
  f.json["accessors"].push_back({{"componentType", 5126}, {"count", 2}, {"type", "VEC3"},
                                 {"sparse", {{"count", 1},
                                             {"indices", {{"bufferView", index_view}, {"componentType", 5123}}},
                                             {"values", {{"bufferView", value_view}}}}}});
  const int tr = static_cast<int>(f.json["accessors"].size()) - 1;
  auto& a = f.json["animations"][0];
  a["samplers"] = {{{"input", in}, {"output", rot}}, {{"input", in}, {"output", tr}}};
  a["channels"] = {{{"sampler", 0}, {"target", {{"node", 2}, {"path", "rotation"}}}},
                   {{"sampler", 1}, {"target", {{"node", 1}, {"path", "translation"}}}}};
  const Clip clip = read_text(f.gltf_text());
  const Quat q = clip.rotation(1, clip.skeleton.find("leg"));
  EXPECT_NEAR(q.w, std::sqrt(0.5), 1e-6);
  EXPECT_NEAR(q.y, std::sqrt(0.5), 1e-6);
  EXPECT_NEAR(clip.translation(0, clip.skeleton.find("hips")).x, 0.0, 1e-12);
  EXPECT_NEAR(clip.translation(1, clip.skeleton.find("hips")).x, 5.0, 1e-6);
}

TEST(GltfRead, ScaledRootComesOutInMetres) {
  // Mixamo through Blender: an armature scaled 0.01 over a skeleton in centimetres.
  GltfFile f = two_joint_rig();
  f.json["nodes"][0]["scale"] = {0.01, 0.01, 0.01};
  f.json["nodes"][1]["translation"] = {0, 95, 0};
  f.json["nodes"][2]["translation"] = {0, -45, 0};
  animate(f, 1, "translation", {0, 1}, {0, 95, 0, 30, 95, 0});
  const Clip clip = read_text(f.glb());
  const int hips = clip.skeleton.find("hips"), leg = clip.skeleton.find("leg");
  EXPECT_NEAR(clip.translation(1, hips).x, 0.30, 1e-6);
  EXPECT_NEAR(clip.translation(1, hips).y, 0.95, 1e-6);
  EXPECT_NEAR(clip.translation(1, leg).y, -0.45, 1e-6);
  EXPECT_TRUE(clip.source_frame_declared);
}

TEST(GltfRead, AnimationsByNameOrIndex) {
  GltfFile f = two_joint_rig();
  animate(f, 1, "translation", {0, 1}, {0, 1, 0, 1, 1, 0});
  f.json["animations"].push_back(f.json["animations"][0]);
  f.json["animations"][1]["name"] = "run";
  f.json["animations"][1]["channels"][0]["target"]["node"] = 2;
  const std::string text = f.gltf_text();
  EXPECT_EQ(gltf_animation_names(read_text(text)), (std::vector<std::string>{"walk", "run"}));
  const Clip run = read_text(text, nullptr, "run");
  EXPECT_NEAR(run.translation(1, run.skeleton.find("leg")).x, 1.0, 1e-6);
  const Clip second = read_text(text, nullptr, "1");
  EXPECT_NEAR(second.translation(1, second.skeleton.find("leg")).x, 1.0, 1e-6);
  try {
    read_text(text, nullptr, "jump");
    ADD_FAILURE() << "an unknown animation was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no animation 'jump'"), std::string::npos) << e.what();
  }
}

/// `f` as .gltf text with `edit` applied to its JSON after the buffer was embedded.
template <class Edit>
std::string edited(GltfFile f, Edit edit) {
  nlohmann::json j = nlohmann::json::parse(f.gltf_text());
  edit(j);
  return j.dump();
}

GltfFile animated_rig() {
  GltfFile f = two_joint_rig();
  animate(f, 1, "translation", {0, 1}, {0, 1, 0, 1, 1, 0});
  return f;
}

TEST(GltfRead, MalformedFilesAreRefusedWhereTheyAre) {
  struct Case {
    const char* what;
    std::string bytes;
    const char* expected;
  };
  const std::vector<Case> cases = {
      {"accessor out of range", edited(animated_rig(), [](auto& j) { j["animations"][0]["samplers"][0]["input"] = 99; }),
       "animations[0].samplers[0].input: accessor 99 does not exist"},
      {"count mismatch", edited(animated_rig(), [](auto& j) { j["accessors"][1]["count"] = 1; }),
       "animations[0].samplers[0]: output has 1 elements for 2 key times"},
      {"byte stride", edited(animated_rig(), [](auto& j) { j["bufferViews"][1]["byteStride"] = 6; }),
       "bufferViews[1].byteStride: 6 is not a multiple of 4"},
      {"short stride", edited(animated_rig(), [](auto& j) { j["bufferViews"][1]["byteStride"] = 8; }),
       "accessors[1]: byteStride 8 is shorter than one element"},
      {"accessor past its view", edited(animated_rig(), [](auto& j) { j["accessors"][1]["count"] = 3; j["accessors"][0]["count"] = 3; }),
       "accessors[0]: 3 elements from byte 0 do not fit in the buffer view"},
      {"buffer shorter than declared", edited(animated_rig(), [](auto& j) { j["buffers"][0]["byteLength"] = 4096; }),
       "buffers[0]: buffer holds 32 bytes, shorter than its byteLength 4096"},
      {"view past the buffer", edited(animated_rig(), [](auto& j) { j["bufferViews"][1]["byteLength"] = 400; }),
       "bufferViews[1]: bytes 8..408 are past the end of buffer 0"},
      {"animated matrix", edited(animated_rig(), [](auto& j) {
         j["nodes"][1].erase("translation");
         j["nodes"][1]["matrix"] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
       }),
       "animations[0].channels[0]: animates node 1, which has a matrix"},
      {"meshopt", edited(animated_rig(), [](auto& j) { j["extensionsRequired"] = {"EXT_meshopt_compression"}; }),
       "extensionsRequired: EXT_meshopt_compression is not supported"},
      {"no view, huge count", edited(animated_rig(), [](auto& j) { j["accessors"][1].erase("bufferView"); j["accessors"][1]["count"] = 500000000; }),
       "accessors[1].count: 500000000 elements are over the memory limit"},
      {"cycle", edited(animated_rig(), [](auto& j) { j["nodes"][2]["children"] = {0}; }), "nodes[0]: the hierarchy has a cycle"},
  };
  for (const Case& c : cases) {
    const std::string message = error_of(c.bytes);
    EXPECT_NE(message.find(std::string("hand.gltf: ") + c.expected), std::string::npos) << c.what << ": " << message;
  }
}

TEST(GltfRead, GlbChunkLengthPastTheFileIsRefused) {
  std::string glb = animated_rig().glb();
  // The BIN chunk's header follows the JSON chunk, whose length is the u32 at byte 12.
  const size_t json_length = static_cast<unsigned char>(glb[12]) + static_cast<size_t>(static_cast<unsigned char>(glb[13])) * 256;
  glb[20 + json_length + 2] = '\x01';  // BIN chunk length + 65536
  const std::string message = error_of(glb, "hand.glb");
  EXPECT_NE(message.find("hand.glb: glb chunk 1 at byte"), std::string::npos) << message;
  EXPECT_NE(message.find("past the end of the file"), std::string::npos) << message;
}

TEST(GltfRead, ExternalBuffersStayInTheFilesFolder) {
  test::TempDir dir;
  std::filesystem::create_directories(dir / "clips");
  GltfFile f = animated_rig();
  const std::string embedded = f.gltf_text();
  std::ofstream(dir / "outside.bin", std::ios::binary) << f.bin;
  std::ofstream(dir / "clips" / "inside.bin", std::ios::binary) << f.bin;
  std::filesystem::create_symlink(dir / "outside.bin", dir / "clips" / "link.bin");
  auto with_uri = [&](const std::string& uri) {
    nlohmann::json j = nlohmann::json::parse(embedded);
    j["buffers"][0]["uri"] = uri;
    return j.dump();
  };
  const auto file = dir / "clips" / "walk.gltf";
  EXPECT_NO_THROW(read_gltf_bytes(with_uri("inside.bin"), file));
  for (const std::string& uri : std::vector<std::string>{"../outside.bin", (dir / "outside.bin").string(), "link.bin",
                                                          "sub/%2E%2E/../outside.bin"}) {
    const std::string message = error_of(with_uri(uri), file);
    EXPECT_NE(message.find("buffers[0].uri"), std::string::npos) << uri << ": " << message;
    EXPECT_NE(message.find("refused"), std::string::npos) << uri << ": " << message;
  }
}

}  // namespace
}  // namespace footfix
