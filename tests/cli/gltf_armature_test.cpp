// A glTF clip under an armature node rotated from Z up to Y up and scaled 0.01 (what Blender
// writes for a Mixamo FBX) measures like its source in the slide protocol (`footfix compare
// --slide-protocol`): the root's horizontal motion is scaled in world space, not in the
// armature's rotated frame.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <fstream>

#include "cli/gltf_cli_helpers.h"
#include "cli/run_footfix.h"
#include "support/paths.h"
#include "support/run_cli.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

constexpr double k_half_sqrt2 = 0.70710678118654752;
constexpr double k_armature_scale = 0.01;

std::uint32_t glb_u32(const std::string& b, size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + static_cast<size_t>(i)]);
  return v;
}

void put_glb_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

/// The floats of accessor `index` (tightly packed in buffer 0, as footfix writes them) in `bin`.
float* accessor_floats(nlohmann::json& json, std::string& bin, size_t index) {
  const auto& a = json["accessors"][index];
  const auto& v = json["bufferViews"][a["bufferView"].get<size_t>()];
  const size_t at = v.value("byteOffset", size_t{0}) + a.value("byteOffset", size_t{0});
  return reinterpret_cast<float*>(bin.data() + at);
}

/// `walk.glb` (a skeleton-only glTF written by `footfix convert`) with its root put under a new
/// node "Armature" (rotated +90 degrees about X, scaled 0.01) and every transform, static and
/// animated, re-expressed under it: the same world motion.
std::string under_rotated_armature(const std::string& glb) {
  const size_t json_length = glb_u32(glb, 12);
  nlohmann::json json = nlohmann::json::parse(glb.substr(20, json_length));
  std::string bin = glb.substr(20 + json_length + 8, glb_u32(glb, 20 + json_length));
  const size_t root = json["scenes"][0]["nodes"][0];
  // Every translation in the armature's units (x 1 / 0.01); the root's also rotated by R^-1,
  // R = +90 degrees about X: (x, y, z) -> (x, z, -y), and a rotation q -> R^-1 q.
  auto to_armature_point = [](double x, double y, double z, bool is_root, double* out) {
    out[0] = x / k_armature_scale;
    out[1] = (is_root ? z : y) / k_armature_scale;
    out[2] = (is_root ? -y : z) / k_armature_scale;
  };
  auto to_armature_rotation = [](double x, double y, double z, double w, double* out) {
    const double c = k_half_sqrt2, s = -k_half_sqrt2;  // R^-1 = (w c, x s)
    out[0] = c * x + s * w;
    out[1] = c * y - s * z;
    out[2] = c * z + s * y;
    out[3] = c * w - s * x;
  };
  double moved[4];
  for (size_t n = 0; n < json["nodes"].size(); ++n) {
    auto& node = json["nodes"][n];
    if (node.contains("translation")) {
      const auto t = node["translation"];
      to_armature_point(t[0], t[1], t[2], n == root, moved);
      node["translation"] = {moved[0], moved[1], moved[2]};
    }
    if (n == root && node.contains("rotation")) {
      const auto r = node["rotation"];
      to_armature_rotation(r[0], r[1], r[2], r[3], moved);
      node["rotation"] = {moved[0], moved[1], moved[2], moved[3]};
    }
  }
  for (const auto& channel : json["animations"][0]["channels"]) {
    const bool rotation = channel["target"]["path"] == "rotation", is_root = channel["target"]["node"] == root;
    if (rotation && !is_root) continue;
    const size_t output = json["animations"][0]["samplers"][channel["sampler"].get<size_t>()]["output"];
    float* v = accessor_floats(json, bin, output);
    const size_t count = json["accessors"][output]["count"];
    for (size_t k = 0; k < count; ++k) {
      float* e = v + k * (rotation ? 4 : 3);
      if (rotation) to_armature_rotation(e[0], e[1], e[2], e[3], moved);
      else to_armature_point(e[0], e[1], e[2], is_root, moved);
      for (int c = 0; c < (rotation ? 4 : 3); ++c) e[c] = static_cast<float>(moved[c]);
    }
    json["accessors"][output].erase("min");
    json["accessors"][output].erase("max");
  }
  json["nodes"].push_back({{"name", "Armature"},
                           {"children", {root}},
                           {"rotation", {k_half_sqrt2, 0, 0, k_half_sqrt2}},
                           {"scale", {k_armature_scale, k_armature_scale, k_armature_scale}}});
  json["scenes"][0]["nodes"] = {json["nodes"].size() - 1};
  std::string text = json.dump();
  while (text.size() % 4) text.push_back(' ');
  std::string out = "glTF";
  put_glb_u32(out, 2);
  put_glb_u32(out, static_cast<std::uint32_t>(12 + 8 + text.size() + 8 + bin.size()));
  put_glb_u32(out, static_cast<std::uint32_t>(text.size()));
  out += "JSON" + text;
  put_glb_u32(out, static_cast<std::uint32_t>(bin.size()));
  out += std::string("BIN\0", 4) + bin;
  return out;
}

nlohmann::json slide_protocol(const fs::path& clip) {
  const RunResult r = run_footfix("compare -q --slide-protocol --json " + quoted(clip));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return nlohmann::json::parse(r.output, nullptr, false);
}

TEST(GltfArmatureCli, SlideProtocolUnderARotatedScaledArmatureMatchesTheSource) {
  TempDir dir;
  ASSERT_EQ(run_footfix("convert " + quoted(data_clip("cmu_07_01_walk.bvh")) + " " + quoted(dir / "walk.glb")).exit_code, 0);
  std::ofstream(dir / "armature.glb", std::ios::binary) << under_rotated_armature(read_output(dir / "walk.glb"));
  const nlohmann::json plain = slide_protocol(dir / "walk.glb"), armature = slide_protocol(dir / "armature.glb");
  ASSERT_TRUE(plain.is_array() && armature.is_array());
  const auto& a = plain[0]["variants"];
  const auto& b = armature[0]["variants"];
  ASSERT_EQ(a.size(), 3u);
  ASSERT_EQ(b.size(), a.size());
  for (size_t v = 0; v < a.size(); ++v) {
    // The slide the protocol makes (x1.00, x1.25, x0.75), and what the clean leaves of it in
    // points of that slide (the 0.5-point bar).
    const auto& none_a = a[v]["methods"]["no fix"]["slide_source"];
    const auto& none_b = b[v]["methods"]["no fix"]["slide_source"];
    EXPECT_NEAR(none_b["mean_mm_per_frame"].get<double>(), none_a["mean_mm_per_frame"].get<double>(),
                0.02 * none_a["mean_mm_per_frame"].get<double>())
        << "variant " << v;
    auto residual = [](const nlohmann::json& variant) {
      const auto& m = variant["methods"]["offline clean"];
      return 100.0 * m["slide_cleaned"]["mean_mm_per_frame"].get<double>() / m["slide_source"]["mean_mm_per_frame"].get<double>();
    };
    EXPECT_NEAR(residual(b[v]), residual(a[v]), 0.5) << "variant " << v;
  }
}

}  // namespace
}  // namespace footfix::test
