// Hand-made glTF files for the reader tests: accessors from plain numbers, one embedded buffer
// (a base64 data: URI) or a .glb container, every other member as the test writes it.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace footfix::test {

class GltfFile {
 public:
  GltfFile() {
    json["asset"] = {{"version", "2.0"}};
    json["buffers"] = nlohmann::json::array();
    json["bufferViews"] = nlohmann::json::array();
    json["accessors"] = nlohmann::json::array();
  }
  /// An accessor of 32-bit floats; returns its index.
  int floats(const std::vector<float>& values, const char* type, int count) {
    std::string raw(values.size() * 4, '\0');
    std::memcpy(raw.data(), values.data(), raw.size());
    return add(raw, type, count, 5126, false);
  }
  /// An accessor of normalized signed shorts (KHR_mesh_quantization rotations).
  int shorts(const std::vector<std::int16_t>& values, const char* type, int count) {
    std::string raw(values.size() * 2, '\0');
    std::memcpy(raw.data(), values.data(), raw.size());
    while (raw.size() % 4) raw.push_back('\0');
    return add(raw, type, count, 5122, true);
  }
  /// Raw bytes in their own buffer view (no accessor); returns the view's index.
  int view(const std::string& raw) {
    while (bin.size() % 4) bin.push_back('\0');
    json["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", bin.size()}, {"byteLength", raw.size()}});
    bin += raw;
    return static_cast<int>(json["bufferViews"].size()) - 1;
  }
  /// The .gltf text, the buffer embedded.
  std::string gltf_text() {
    finish();
    json["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64(bin);
    return json.dump();
  }
  /// The .glb bytes (JSON chunk, BIN chunk).
  std::string glb() {
    finish();
    std::string text = json.dump();
    while (text.size() % 4) text.push_back(' ');
    std::string b = bin;
    while (b.size() % 4) b.push_back('\0');
    std::string out = "glTF";
    put(out, 2);
    put(out, static_cast<std::uint32_t>(12 + 8 + text.size() + 8 + b.size()));
    put(out, static_cast<std::uint32_t>(text.size()));
    out += "JSON";
    out += text;
    put(out, static_cast<std::uint32_t>(b.size()));
    out += std::string("BIN\0", 4);
    out += b;
    return out;
  }

  nlohmann::json json;
  std::string bin;

 private:
  int add(const std::string& raw, const char* type, int count, int component, bool normalized) {
    const int v = view(raw);
    nlohmann::json a = {{"bufferView", v}, {"componentType", component}, {"count", count}, {"type", type}};
    if (normalized) a["normalized"] = true;
    json["accessors"].push_back(a);
    return static_cast<int>(json["accessors"].size()) - 1;
  }
  void finish() {
    if (json["buffers"].empty()) json["buffers"].push_back(nlohmann::json::object());
    json["buffers"][0]["byteLength"] = bin.size();
  }
  static void put(std::string& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  }
  static std::string base64(const std::string& bytes) {
    static const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (size_t i = 0; i < bytes.size(); i += 3) {
      unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
      if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
      if (i + 2 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 2]);
      out += a[(v >> 18) & 63];
      out += a[(v >> 12) & 63];
      out += i + 1 < bytes.size() ? a[(v >> 6) & 63] : '=';
      out += i + 2 < bytes.size() ? a[v & 63] : '=';
    }
    return out;
  }
};

/// A two-node chain (root "hips" under "Armature", child "leg" 1 m below the hips) with one
/// animation "walk" whose channels the test adds.
inline GltfFile two_joint_rig() {
  GltfFile f;
  f.json["nodes"] = {{{"name", "Armature"}, {"children", {1}}},
                     {{"name", "hips"}, {"children", {2}}, {"translation", {0, 1, 0}}},
                     {{"name", "leg"}, {"translation", {0, -1, 0}}}};
  f.json["scenes"] = {{{"nodes", {0}}}};
  f.json["animations"] = {{{"name", "walk"}, {"samplers", nlohmann::json::array()}, {"channels", nlohmann::json::array()}}};
  return f;
}

/// Adds a channel animating `path` of `node` with keys `times` and `values` (floats).
inline void animate(GltfFile& f, int node, const char* path, const std::vector<float>& times,
                    const std::vector<float>& values, const char* interpolation = "LINEAR") {
  const int in = f.floats(times, "SCALAR", static_cast<int>(times.size()));
  const bool rotation = std::string(path) == "rotation";
  const int per = rotation ? 4 : 3;
  const int out = f.floats(values, rotation ? "VEC4" : "VEC3", static_cast<int>(values.size()) / per);
  auto& a = f.json["animations"][0];
  a["samplers"].push_back({{"input", in}, {"output", out}, {"interpolation", interpolation}});
  a["channels"].push_back({{"sampler", a["samplers"].size() - 1}, {"target", {{"node", node}, {"path", path}}}});
}

}  // namespace footfix::test
