// How `clean` patches a glTF file's buffers, through the real binary: a .gltf with an external
// .bin gets its own .bin beside the output (the input's bytes as prefix, never written over), an
// embedded buffer stays embedded, the replaced samplers leave no unused accessor or buffer view
// (and data that something else still reads are not reused), and a Draco-compressed mesh is
// carried through byte for byte. Every output passes the Khronos glTF-Validator with no new
// warnings and no new UNUSED_OBJECT.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <signal.h>

#include <chrono>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "cli/gltf_cli_helpers.h"
#include "cli/run_footfix.h"
#include "support/limited_run.h"
#include "support/paths.h"
#include "support/run_cli.h"
#include "unit/contacts_json_schema.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* k_patch_walk = "cmu_07_01_walk.bvh";

/// `folder`/`name`.gltf naming its buffer as `bin` (a file beside it), made from footfix's
/// skeleton-only conversion of the shared walk; `more` may edit the JSON and append to the bytes.
template <class Edit>
void external_walk(const fs::path& folder, const std::string& name, const std::string& bin, Edit more) {
  fs::create_directories(folder);
  const fs::path embedded = folder / (name + ".embedded.gltf");
  ASSERT_EQ(run_footfix("convert " + quoted(data_clip(k_patch_walk)) + " " + quoted(embedded)).exit_code, 0);
  json j = gltf_json(embedded);
  fs::remove(embedded);
  const std::string uri = j["buffers"][0]["uri"];
  std::ofstream(folder / "b64.txt") << uri.substr(uri.find(',') + 1);
  ASSERT_EQ(std::system(("base64 -d " + quoted(folder / "b64.txt") + " > " + quoted(folder / bin)).c_str()), 0);
  fs::remove(folder / "b64.txt");
  std::string bytes = read_output(folder / bin);
  more(j, bytes);
  j["buffers"][0]["uri"] = bin;
  j["buffers"][0]["byteLength"] = bytes.size();
  std::ofstream(folder / bin, std::ios::binary) << bytes;
  std::ofstream(folder / (name + ".gltf")) << j.dump();
}

void external_walk(const fs::path& folder, const std::string& name, const std::string& bin) {
  external_walk(folder, name, bin, [](json&, std::string&) {});
}

/// What a glTF file declares but never uses, found independently of footfix's own bookkeeping:
/// samplers no channel names, accessors no used sampler, mesh or skin names, and buffer views no
/// used accessor, image or Draco primitive names.
std::vector<std::string> unused_objects(const json& j) {
  std::set<size_t> accessors, views;
  std::vector<std::string> unused;
  for (size_t a = 0; a < j.value("animations", json::array()).size(); ++a) {
    const json& anim = j["animations"][a];
    std::set<size_t> used;
    for (const json& c : anim["channels"]) used.insert(c["sampler"].get<size_t>());
    for (size_t s = 0; s < anim["samplers"].size(); ++s) {
      if (!used.count(s)) unused.push_back("animations[" + std::to_string(a) + "].samplers[" + std::to_string(s) + "]");
      accessors.insert(anim["samplers"][s]["input"].get<size_t>());
      accessors.insert(anim["samplers"][s]["output"].get<size_t>());
    }
  }
  for (const json& mesh : j.value("meshes", json::array()))
    for (const json& p : mesh["primitives"]) {
      for (const auto& a : p["attributes"].items()) accessors.insert(a.value().get<size_t>());
      if (p.contains("indices")) accessors.insert(p["indices"].get<size_t>());
      if (p.contains("extensions") && p["extensions"].contains("KHR_draco_mesh_compression"))
        views.insert(p["extensions"]["KHR_draco_mesh_compression"]["bufferView"].get<size_t>());
    }
  for (const json& skin : j.value("skins", json::array()))
    if (skin.contains("inverseBindMatrices")) accessors.insert(skin["inverseBindMatrices"].get<size_t>());
  for (size_t a = 0; a < j.value("accessors", json::array()).size(); ++a) {
    if (!accessors.count(a)) unused.push_back("accessors[" + std::to_string(a) + "]");
    else if (j["accessors"][a].contains("bufferView")) views.insert(j["accessors"][a]["bufferView"].get<size_t>());
  }
  for (const json& image : j.value("images", json::array()))
    if (image.contains("bufferView")) views.insert(image["bufferView"].get<size_t>());
  for (size_t v = 0; v < j.value("bufferViews", json::array()).size(); ++v)
    if (!views.count(v)) unused.push_back("bufferViews[" + std::to_string(v) + "]");
  return unused;
}

/// The validator finds no error in `output`, no more warnings than in `input` and no unused
/// object that it did not find in `input` (it does not read Draco data, so it calls a Draco
/// buffer view unused in both).
void expect_validator_clean(const fs::path& output, const fs::path& input) {
  const json out = validate_gltf(output), in = validate_gltf(input);
  EXPECT_EQ(out.value("errors", -1), 0) << output << ": " << out.dump();
  EXPECT_LE(out.value("warnings", -1), in.value("warnings", -1)) << output << ": " << out.dump();
  const std::string before = in["info_codes"].dump();
  for (const json& code : out["info_codes"]) {
    if (code.get<std::string>().rfind("UNUSED_OBJECT", 0) != 0) continue;
    EXPECT_NE(before.find(code.get<std::string>()), std::string::npos) << output << ": new " << code << " " << out.dump();
  }
}

TEST(GltfPatchCli, ExternalBufferGetsItsOwnBinBesideTheOutput) {
  TempDir dir;
  external_walk(dir / "in", "walk", "walk.bin");
  const std::string original = read_output(dir / "in" / "walk.bin");
  const RunResult r = run_footfix("clean " + quoted(dir / "in" / "walk.gltf") + " -o " + quoted(dir / "out" / "walk.gltf"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json out = gltf_json(dir / "out" / "walk.gltf");
  ASSERT_EQ(out["buffers"].size(), 1u) << out["buffers"].dump();
  EXPECT_EQ(out["buffers"][0]["uri"], "walk.bin");
  EXPECT_EQ(read_output(dir / "out" / "walk.gltf").find("data:"), std::string::npos);
  const std::string written = read_output(dir / "out" / "walk.bin");
  EXPECT_EQ(out["buffers"][0]["byteLength"].get<size_t>(), written.size());
  ASSERT_GT(written.size(), original.size());
  EXPECT_EQ(written.substr(0, original.size()), original);  // the input's bytes as prefix
  EXPECT_EQ(read_output(dir / "in" / "walk.bin"), original);
  EXPECT_EQ(unused_objects(out), std::vector<std::string>{});
  REQUIRE_VALIDATOR();
  expect_validator_clean(dir / "out" / "walk.gltf", dir / "in" / "walk.gltf");
}

TEST(GltfPatchCli, ImagesInTheFilesFolderAreCopiedBesideAnOutputInAnotherFolder) {
  // A .gltf's textures are files beside it: an output in another folder gets copies of those in
  // the source's folder (subfolders kept), never of one outside it ("../": it names it as before).
  TempDir dir;
  // A 1x1 RGB PNG.
  const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0\x90wS\xde\0\0\0\x0cIDATx\x9c"
                        "c\xf8\xcf\xc0\0\0\x03\x01\x01\0\xc9\xfe\x92\xef\0\0\0\0IEND\xae\x42\x60\x82",
                        69);
  external_walk(dir / "in", "walk", "walk.bin", [](json& j, std::string&) {
    j.update(json::parse(R"({"images": [{"uri": "textures/skin%20tone.png"}, {"uri": "../shared.png"}],
                             "textures": [{"source": 0}, {"source": 1}],
                             "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}},
                                            "emissiveTexture": {"index": 1}}]})"));
  });
  fs::create_directories(dir / "in" / "textures");
  std::ofstream(dir / "in" / "textures" / "skin tone.png", std::ios::binary) << png;
  std::ofstream(dir / "shared.png", std::ios::binary) << png;
  const RunResult r = run_footfix("clean " + quoted(dir / "in" / "walk.gltf") + " -o " + quoted(dir / "out" / "walk.gltf"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(read_output(dir / "out" / "textures" / "skin tone.png"), png);
  EXPECT_EQ(gltf_json(dir / "out" / "walk.gltf")["images"], gltf_json(dir / "in" / "walk.gltf")["images"]);
  const std::vector<std::string> entries = dir.entries();
  EXPECT_EQ(std::set<std::string>(entries.begin(), entries.end()),
            (std::set<std::string>{"in", "in/walk.gltf", "in/walk.bin", "in/textures", "in/textures/skin tone.png",
                                   "shared.png", "out", "out/walk.gltf", "out/walk.bin", "out/walk.contacts.json",
                                   "out/textures", "out/textures/skin tone.png"}));
  REQUIRE_VALIDATOR();
  expect_validator_clean(dir / "out" / "walk.gltf", dir / "in" / "walk.gltf");
}

TEST(GltfPatchCli, IncrementalCleansAgainAnOutputThatLostItsBin) {
  // An incremental batch skips an unchanged clip whose outputs are there; a patched .gltf is
  // there only with its .bin.
  TempDir dir;
  external_walk(dir / "in", "walk", "walk.bin");
  const std::string command = "clean " + quoted(dir / "in") + " -o " + quoted(dir / "out") + " --incremental";
  ASSERT_EQ(run_footfix(command).exit_code, 0);
  const std::string bin = read_output(dir / "out" / "walk.bin");
  const RunResult again = run_footfix(command);
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("skipped"), std::string::npos) << again.output;
  fs::remove(dir / "out" / "walk.bin");
  const RunResult after_loss = run_footfix(command);
  ASSERT_EQ(after_loss.exit_code, 0) << after_loss.output;
  EXPECT_EQ(after_loss.output.find("skipped"), std::string::npos) << after_loss.output;
  ASSERT_TRUE(fs::exists(dir / "out" / "walk.bin"));
  EXPECT_EQ(read_output(dir / "out" / "walk.bin"), bin);
}

TEST(GltfPatchCli, ReportListsTheBinTheOutputNeeds) {
  TempDir dir;
  external_walk(dir / "in", "walk", "walk.bin");
  const fs::path report = dir / "r.json";
  const RunResult r = run_footfix("clean " + quoted(dir / "in" / "walk.gltf") + " -o " +
                                  quoted(dir / "out" / "walk.gltf") + " --report " + quoted(report));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json clip = json::parse(read_output(report))["clips"][0];
  EXPECT_EQ(clip["buffers"], json::array({(dir / "out" / "walk.bin").string()})) << clip.dump();
  const json schema = json::parse(read_output(fs::path(FOOTFIX_SCHEMA_DIR) / "report.schema.json"));
  EXPECT_EQ(SchemaValidator::validate(schema, json::parse(read_output(report))), std::vector<std::string>{});
}

// A SIGTERM landing after the output's own .bin is put in place and before the .gltf is
// (FOOTFIX_TEST_SIGTERM_AT holds that thread there): the stop waits, so the .gltf and its contacts
// are in place with the .bin, never the .bin alone.
TEST(GltfPatchCli, SigtermAfterTheBinStillLeavesTheGltfAndItsContacts) {
  TempDir dir;
  external_walk(dir / "in", "walk", "walk.bin");
  LimitedRunOptions options;
  options.bound = std::chrono::seconds(120);
  options.env = {"FOOTFIX_TEST_SIGTERM_AT=committed:walk.bin"};
  const LimitedRun r = run_footfix_limited({"clean", (dir / "in").string(), "-o", (dir / "out").string()}, options);
  ASSERT_FALSE(r.timed_out) << r.err;
  EXPECT_EQ(r.signal, SIGTERM) << r.err;
  ASSERT_TRUE(fs::exists(dir / "out" / "walk.bin")) << "the hook never ran: " << r.err;
  EXPECT_TRUE(fs::exists(dir / "out" / "walk.gltf")) << "an orphan .bin";
  EXPECT_TRUE(fs::exists(dir / "out" / "walk.contacts.json")) << "a clip without its contacts";
}

TEST(GltfPatchCli, BinIsNamedAfterTheOutputAndNeverOverwritesTheInputs) {
  TempDir dir;
  external_walk(dir.path(), "walk", "walk.bin");
  const std::string original = read_output(dir / "walk.bin");
  // Beside the input, under another name: <output stem>.bin, URI-escaped.
  const RunResult beside = run_footfix("clean " + quoted(dir / "walk.gltf") + " -o " + quoted(dir / "my walk.gltf"));
  ASSERT_EQ(beside.exit_code, 0) << beside.output;
  EXPECT_EQ(gltf_json(dir / "my walk.gltf")["buffers"][0]["uri"], "my%20walk.bin");
  EXPECT_TRUE(fs::exists(dir / "my walk.bin"));
  EXPECT_EQ(read_output(dir / "walk.bin"), original);
  // Over the input itself: walk.bin is the input's buffer, so the output's is walk.footfix.bin.
  const RunResult over = run_footfix("clean " + quoted(dir / "walk.gltf") + " --overwrite");
  ASSERT_EQ(over.exit_code, 0) << over.output;
  EXPECT_EQ(gltf_json(dir / "walk.gltf")["buffers"][0]["uri"], "walk.footfix.bin");
  EXPECT_EQ(read_output(dir / "walk.bin"), original);
  EXPECT_EQ(read_output(dir / "walk.footfix.bin").substr(0, original.size()), original);
  REQUIRE_VALIDATOR();
  const json report = validate_gltf(dir / "my walk.gltf");
  EXPECT_EQ(report.value("errors", -1), 0) << report.dump();
  EXPECT_EQ(report.value("warnings", -1), 0) << report.dump();
}

TEST(GltfPatchCli, NewDataGoToTheAnimationsBufferAmongSeveral) {
  TempDir dir;
  external_walk(dir / "in", "walk", "anim.bin");
  // Buffer 0 becomes a mesh's (a triangle in mesh.bin), the animation's data move to buffer 1.
  json j = gltf_json(dir / "in" / "walk.gltf");
  for (json& view : j["bufferViews"]) view["buffer"] = 1;
  const std::vector<float> triangle = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  std::string mesh_bytes(triangle.size() * 4, '\0');
  std::memcpy(mesh_bytes.data(), triangle.data(), mesh_bytes.size());  // test host: little-endian
  std::ofstream(dir / "in" / "mesh.bin", std::ios::binary) << mesh_bytes;
  j["buffers"] = json::array({{{"uri", "mesh.bin"}, {"byteLength", mesh_bytes.size()}}, j["buffers"][0]});
  j["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 0}, {"byteLength", mesh_bytes.size()}});
  j["accessors"].push_back({{"bufferView", j["bufferViews"].size() - 1}, {"componentType", 5126}, {"count", 3},
                            {"type", "VEC3"}, {"min", {0.0, 0.0, 0.0}}, {"max", {1.0, 1.0, 0.0}}});
  j["meshes"] = json::array({{{"primitives", json::array({{{"attributes", {{"POSITION", j["accessors"].size() - 1}}}}})}}});
  j["nodes"].push_back({{"name", "Triangle"}, {"mesh", 0}});
  j["scenes"][0]["nodes"].push_back(j["nodes"].size() - 1);
  std::ofstream(dir / "in" / "walk.gltf") << j.dump();
  const RunResult r = run_footfix("clean " + quoted(dir / "in" / "walk.gltf") + " -o " + quoted(dir / "out" / "clean.gltf"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json out = gltf_json(dir / "out" / "clean.gltf");
  ASSERT_EQ(out["buffers"].size(), 2u) << out["buffers"].dump();
  EXPECT_EQ(out["buffers"][0], j["buffers"][0]);
  EXPECT_EQ(out["buffers"][1]["uri"], "clean.bin");
  EXPECT_EQ(read_output(dir / "out" / "mesh.bin"), mesh_bytes);  // copied, unchanged
  const std::string anim = read_output(dir / "in" / "anim.bin");
  EXPECT_EQ(read_output(dir / "out" / "clean.bin").substr(0, anim.size()), anim);
  EXPECT_FALSE(fs::exists(dir / "out" / "anim.bin"));  // replaced by clean.bin: not copied
  EXPECT_EQ(out["meshes"], j["meshes"]);
  EXPECT_EQ(unused_objects(out), std::vector<std::string>{});
  REQUIRE_VALIDATOR();
  expect_validator_clean(dir / "out" / "clean.gltf", dir / "in" / "walk.gltf");
}

TEST(GltfPatchCli, DataAnotherAnimationUsesAreNotReused) {
  TempDir dir;
  // A second animation reads the same samplers' accessors: cleaning the first must leave them.
  external_walk(dir / "in", "walk", "walk.bin", [](json& j, std::string&) {
    json copy = j["animations"][0];
    copy["name"] = "copy";
    j["animations"].push_back(copy);
  });
  const RunResult r = run_footfix("clean " + quoted(dir / "in" / "walk.gltf") + " -o " + quoted(dir / "out" / "walk.gltf"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json in = gltf_json(dir / "in" / "walk.gltf"), out = gltf_json(dir / "out" / "walk.gltf");
  EXPECT_EQ(out["animations"][1], in["animations"][1]);
  const std::string in_bin = read_output(dir / "in" / "walk.bin"), out_bin = read_output(dir / "out" / "walk.bin");
  for (const json& sampler : in["animations"][1]["samplers"])
    for (const char* key : {"input", "output"}) {
      const size_t a = sampler[key];
      ASSERT_EQ(out["accessors"][a], in["accessors"][a]) << key << " " << a;
      const json& view = in["bufferViews"][in["accessors"][a]["bufferView"].get<size_t>()];
      EXPECT_EQ(out["bufferViews"][in["accessors"][a]["bufferView"].get<size_t>()], view);
      const size_t at = view.value("byteOffset", 0), length = view["byteLength"];
      EXPECT_EQ(out_bin.substr(at, length), in_bin.substr(at, length));
    }
  EXPECT_NE(out["animations"][0], in["animations"][0]);  // the first was cleaned
  EXPECT_EQ(unused_objects(out), std::vector<std::string>{});
  REQUIRE_VALIDATOR();
  expect_validator_clean(dir / "out" / "walk.gltf", dir / "in" / "walk.gltf");
}

TEST(GltfPatchCli, EmbeddedBufferStaysEmbeddedWithNoUnusedObjects) {
  TempDir dir;
  ASSERT_EQ(run_footfix("convert " + quoted(data_clip(k_patch_walk)) + " " + quoted(dir / "walk.gltf")).exit_code, 0);
  const RunResult r = run_footfix("clean " + quoted(dir / "walk.gltf") + " -o " + quoted(dir / "out" / "clean.gltf"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json in = gltf_json(dir / "walk.gltf"), out = gltf_json(dir / "out" / "clean.gltf");
  ASSERT_EQ(out["buffers"].size(), 1u);
  EXPECT_EQ(out["buffers"][0]["uri"].get<std::string>().rfind("data:application/octet-stream;base64,", 0), 0u);
  EXPECT_GT(out["buffers"][0]["byteLength"].get<size_t>(), in["buffers"][0]["byteLength"].get<size_t>());
  for (const auto& entry : fs::directory_iterator(dir / "out")) EXPECT_NE(entry.path().extension(), ".bin") << entry.path();
  EXPECT_EQ(unused_objects(out), std::vector<std::string>{});
  EXPECT_EQ(out["nodes"], in["nodes"]);
  REQUIRE_VALIDATOR();
  expect_validator_clean(dir / "out" / "clean.gltf", dir / "walk.gltf");
}

TEST(GltfPatchCli, DracoMeshIsCarriedThroughByteForByte) {
  TempDir dir;
  // A hand-made Draco primitive: its data are opaque to footfix (and not decoded by the
  // validator), so any bytes in a buffer view of the animation's buffer will do.
  static constexpr char k_draco_bytes[] = "DRACO\x02\x02\x01\x01\x00\x00\x00\x03\x07\x0b\x0d\x11\x13\x17\x1d\x1f\x25\x29";
  const std::string draco(k_draco_bytes, sizeof k_draco_bytes - 1);  // the NULs inside included
  size_t view = 0, accessor = 0, draco_at = 0;
  external_walk(dir / "in", "draco", "draco.bin", [&](json& j, std::string& bytes) {
    while (bytes.size() % 4) bytes.push_back('\0');
    draco_at = bytes.size();
    bytes += draco;
    view = j["bufferViews"].size();
    j["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", draco_at}, {"byteLength", draco.size()}});
    accessor = j["accessors"].size();
    j["accessors"].push_back({{"componentType", 5126}, {"count", 3}, {"type", "VEC3"},
                              {"min", {0.0, 0.0, 0.0}}, {"max", {1.0, 1.0, 0.0}}});
    j["meshes"] = json::array({{{"name", "DracoTriangle"},
                                {"extras", {{"origin", "hand-made"}}},
                                {"primitives", json::array({{{"attributes", {{"POSITION", accessor}}},
                                                             {"extensions", {{"KHR_draco_mesh_compression",
                                                                              {{"bufferView", view}, {"attributes", {{"POSITION", 0}}}}}}}}})}}});
    j["nodes"].push_back({{"name", "DracoMesh"}, {"mesh", 0}, {"extras", {{"kept", true}}}});
    j["scenes"][0]["nodes"].push_back(j["nodes"].size() - 1);
    j["extensionsUsed"] = json::array({"KHR_draco_mesh_compression"});
    j["extensionsRequired"] = json::array({"KHR_draco_mesh_compression"});
  });
  const RunResult r = run_footfix("clean " + quoted(dir / "in" / "draco.gltf") + " -o " + quoted(dir / "out" / "draco.gltf"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json in = gltf_json(dir / "in" / "draco.gltf"), out = gltf_json(dir / "out" / "draco.gltf");
  EXPECT_EQ(out["meshes"], in["meshes"]);
  EXPECT_EQ(out["nodes"], in["nodes"]);
  EXPECT_EQ(out["accessors"][accessor], in["accessors"][accessor]);
  EXPECT_EQ(out["bufferViews"][view], in["bufferViews"][view]);
  EXPECT_EQ(out["extensionsUsed"], in["extensionsUsed"]);
  EXPECT_EQ(out["extensionsRequired"], in["extensionsRequired"]);
  const std::string bin = read_output(dir / "out" / out["buffers"][0]["uri"].get<std::string>());
  ASSERT_GE(bin.size(), draco_at + draco.size());
  EXPECT_EQ(bin.substr(draco_at, draco.size()), draco);
  EXPECT_EQ(unused_objects(out), std::vector<std::string>{});
  REQUIRE_VALIDATOR();
  expect_validator_clean(dir / "out" / "draco.gltf", dir / "in" / "draco.gltf");
}

}  // namespace
}  // namespace footfix::test
