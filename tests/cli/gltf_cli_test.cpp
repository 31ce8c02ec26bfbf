// glTF through the real binary: BVH to glTF, byte-identical round trips, `clean` patching only
// the leg and root channels, the residual against the BVH source, and the files footfix writes
// checked by the Khronos glTF-Validator and Blender's importer (each skipped, with the reason,
// where that tool is not installed).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "cli/gltf_cli_helpers.h"
#include "cli/run_footfix.h"
#include "support/paths.h"
#include "support/run_cli.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

/// "frames N" and "N joints" of `footfix inspect`.
std::string frames_and_joints(const fs::path& clip) {
  const RunResult r = run_footfix("inspect " + quoted(clip));
  std::smatch m;
  std::regex_search(r.output, m, std::regex("frames (\\d+) at [^,]*, [^,]*, (\\d+) joints"));
  return m.size() == 3 ? m[1].str() + " frames, " + m[2].str() + " joints" : "(none) " + r.output;
}

/// The p95 slide after cleaning, from `clean`'s summary line.
double cleaned_p95(const std::string& output) {
  std::smatch m;
  if (!std::regex_search(output, m, std::regex("p95 ([0-9.]+) -> ([0-9.]+) cm/s"))) return -1;
  return std::stod(m[2].str());
}

const char* k_walk = "cmu_07_01_walk.bvh";

TEST(GltfCli, BvhToGltfKeepsFramesAndJointsAndPassesTheValidator) {
  TempDir dir;
  const fs::path bvh = data_clip(k_walk);
  for (const char* name : {"walk.glb", "walk.gltf"}) {
    const RunResult r = run_footfix("convert " + quoted(bvh) + " " + quoted(dir / name));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(frames_and_joints(dir / name), frames_and_joints(bvh)) << name;
    const RunResult inspect = run_footfix("inspect " + quoted(dir / name));
    EXPECT_NE(inspect.output.find("animations: 'footfix'"), std::string::npos) << inspect.output;
  }
  REQUIRE_VALIDATOR();
  for (const char* name : {"walk.glb", "walk.gltf"}) {
    const nlohmann::json report = validate_gltf(dir / name);
    EXPECT_EQ(report.value("errors", -1), 0) << name << ": " << report.dump();
    EXPECT_EQ(report.value("warnings", -1), 0) << name << ": " << report.dump();
  }
}

TEST(GltfCli, BvhToGltfKeepsTheLastFrameOfAClipAtAnUnevenRate) {
  // Frame Time 0.008333 s: 120.0048 fps. Read back at a rate rounded to 120, the last of its
  // 2575 frames fell 0.05 frames short of the grid and was dropped.
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  TempDir dir;
  const fs::path bvh = shared_clips_dir() / "sfu_0005_2FeetJump001_inches.bvh";
  ASSERT_EQ(run_footfix("convert " + quoted(bvh) + " " + quoted(dir / "jump.glb")).exit_code, 0);
  EXPECT_EQ(frames_and_joints(dir / "jump.glb"), frames_and_joints(bvh));
  EXPECT_NE(frames_and_joints(bvh).find("2575 frames"), std::string::npos) << frames_and_joints(bvh);
}

TEST(GltfCli, BvhToGltfKeepsTheEndSites) {
  // The toes' End Sites are the feet's tips: without them the glTF's tips, and what the clean
  // makes of the toes, were not the BVH's.
  TempDir dir;
  const fs::path bvh = data_clip("cmu3dsmax_131_01_start_walk_stop.bvh");
  ASSERT_EQ(run_footfix("convert " + quoted(bvh) + " " + quoted(dir / "walk.glb")).exit_code, 0);
  auto joints = [](const fs::path& clip) {
    const RunResult r = run_footfix("inspect --json " + quoted(clip));
    const nlohmann::json j = nlohmann::json::parse(r.output, nullptr, false);
    return j.is_array() ? j[0]["joints"] : nlohmann::json(r.output);
  };
  const nlohmann::json from_bvh = joints(bvh);
  EXPECT_EQ(joints(dir / "walk.glb"), from_bvh);
  int end_sites = 0;
  for (const auto& joint : from_bvh) end_sites += joint.value("end_site", false);
  EXPECT_GE(end_sites, 5);  // toes, head, hands
}

TEST(GltfCli, UncleanedRoundTripIsByteIdentical) {
  TempDir dir;
  for (const char* name : {"walk.glb", "walk.gltf"}) {
    ASSERT_EQ(run_footfix("convert " + quoted(data_clip(k_walk)) + " " + quoted(dir / name)).exit_code, 0);
    const std::string copy = std::string("copy_") + name;
    const RunResult r = run_footfix("convert " + quoted(dir / name) + " " + quoted(dir / copy));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(read_output(dir / copy), read_output(dir / name)) << name;
  }
  const RunResult other = run_footfix("convert " + quoted(dir / "walk.glb") + " " + quoted(dir / "other.gltf"));
  EXPECT_EQ(other.exit_code, 5) << other.output;
}

TEST(GltfCli, CleanPatchesOnlyLegAndRootChannels) {
  TempDir dir;
  ASSERT_EQ(run_footfix("convert " + quoted(data_clip(k_walk)) + " " + quoted(dir / "walk.glb")).exit_code, 0);
  const RunResult bvh = run_footfix("clean " + quoted(data_clip(k_walk)) + " -o " + quoted(dir / "bvh_clean.bvh"));
  const RunResult glb = run_footfix("clean " + quoted(dir / "walk.glb") + " -o " + quoted(dir / "clean.glb"));
  ASSERT_EQ(glb.exit_code, 0) << glb.output;
  ASSERT_EQ(bvh.exit_code, 0) << bvh.output;
  // The same clip in either format cleans to the same residual (the issue allows 0.5 points).
  EXPECT_NEAR(cleaned_p95(glb.output), cleaned_p95(bvh.output), 0.5) << bvh.output << glb.output;
  const nlohmann::json before = gltf_json(dir / "walk.glb"), after = gltf_json(dir / "clean.glb");
  // Every node kept, and every accessor that a kept sampler reads; the original buffer bytes
  // kept as the prefix.
  EXPECT_EQ(after["nodes"], before["nodes"]);
  const std::string bin_before = read_output(dir / "walk.glb"), bin_after = read_output(dir / "clean.glb");
  const size_t json_before = 20 + (static_cast<unsigned char>(bin_before[12]) | static_cast<unsigned char>(bin_before[13]) << 8);
  const size_t json_after = 20 + (static_cast<unsigned char>(bin_after[12]) | static_cast<unsigned char>(bin_after[13]) << 8);
  const std::string data_before = bin_before.substr(json_before + 8);
  EXPECT_EQ(bin_after.substr(json_after + 8, data_before.size()), data_before);
  // Channels of the upper body point at their original samplers; leg channels at new ones.
  const auto& nodes = before["nodes"];
  int kept = 0, moved = 0;
  for (size_t c = 0; c < before["animations"][0]["channels"].size(); ++c) {
    const auto& ch_before = before["animations"][0]["channels"][c];
    const auto& ch_after = after["animations"][0]["channels"][c];
    const std::string name = nodes[ch_before["target"]["node"].get<size_t>()]["name"];
    const bool same = after["animations"][0]["samplers"][ch_after["sampler"].get<size_t>()] ==
                      before["animations"][0]["samplers"][ch_before["sampler"].get<size_t>()];
    if (same)
      for (const char* key : {"input", "output"}) {
        const size_t a = before["animations"][0]["samplers"][ch_before["sampler"].get<size_t>()][key];
        EXPECT_EQ(after["accessors"][a], before["accessors"][a]) << name << " " << key;
      }
    if (std::regex_search(name, std::regex("Head|Neck|Shoulder|Elbow|Wrist|Chest|back|Collar|hand|Fingers|Thumb"))) {
      EXPECT_TRUE(same) << name << " was rewritten";
      ++kept;
    }
    if (!same) ++moved;
  }
  EXPECT_GE(kept, 5);  // spine, neck, head, arms: the names above match at least these
  EXPECT_GT(moved, 0);
  ASSERT_TRUE(after["animations"][0].contains("extras"));
  EXPECT_TRUE(after["animations"][0]["extras"]["footfix"].contains("feet")) << after["animations"][0]["extras"].dump();
  REQUIRE_VALIDATOR();
  const nlohmann::json report = validate_gltf(dir / "clean.glb");
  EXPECT_EQ(report.value("errors", -1), 0) << report.dump();
  EXPECT_EQ(report.value("warnings", -1), 0) << report.dump();
  EXPECT_EQ(report["info_codes"].dump().find("UNUSED_OBJECT"), std::string::npos) << report.dump();
}

TEST(GltfCli, BrokenFilesExitWithTheReadCode) {
  TempDir dir;
  std::ofstream(dir / "trunc.glb", std::ios::binary) << std::string("glTF\x02\0\0\0\xff\xff\0\0", 12);
  std::ofstream(dir / "escape.gltf") << R"({"asset":{"version":"2.0"},"buffers":[{"uri":"../x.bin","byteLength":4}]})";
  const RunResult trunc = run_footfix("inspect " + quoted(dir / "trunc.glb"));
  EXPECT_EQ(trunc.exit_code, 3) << trunc.output;
  EXPECT_NE(trunc.output.find("glb header: length 65535 is past the end of the file"), std::string::npos) << trunc.output;
  const RunResult escape = run_footfix("clean " + quoted(dir / "escape.gltf") + " -o " + quoted(dir / "out.gltf"));
  EXPECT_EQ(escape.exit_code, 3) << escape.output;
  EXPECT_NE(escape.output.find("buffers[0].uri: URIs with '..' are refused"), std::string::npos) << escape.output;
}

/// What Blender's glTF importer makes of `file` (tests/cli/gltf_blender_import.py's summary line),
/// or "(no import) <output>".
std::string blender_import(const fs::path& file) {
  const std::string script = std::string(FOOTFIX_TESTS_DIR) + "/cli/gltf_blender_import.py";
  const std::string out = shell_stdout("timeout 300 blender -b --python " + quoted(fs::path(script)) + " -- " + quoted(file) + " 2>&1");
  std::smatch m;
  return std::regex_search(out, m, std::regex("IMPORTED [^\n]*")) ? m[0].str() : "(no import) " + out.substr(0, 2000);
}

TEST(GltfCli, BlenderImportsTheCleanedFile) {
  if (shell_stdout("command -v blender").empty()) GTEST_SKIP() << "blender not installed: Blender import check skipped";
  TempDir dir;
  ASSERT_EQ(run_footfix("convert " + quoted(data_clip(k_walk)) + " " + quoted(dir / "walk.glb")).exit_code, 0);
  ASSERT_EQ(run_footfix("clean " + quoted(dir / "walk.glb") + " -o " + quoted(dir / "clean.glb")).exit_code, 0);
  // The cleaned file imports as the uncleaned one does: the same objects and frame range.
  const std::string before = blender_import(dir / "walk.glb");
  // A Blender whose glTF importer does not run (Debian's without python3-numpy) cannot judge.
  if (before.rfind("(no import)", 0) == 0) GTEST_SKIP() << "Blender's glTF importer does not run here: " << before;
  const std::string after = blender_import(dir / "clean.glb");
  EXPECT_EQ(after, before);
  EXPECT_NE(after.find("objects=38 "), std::string::npos) << after;  // the walk's 31 joints and 7 End Sites
}

TEST(GltfCli, BlenderImportsACleanedSkinnedCharacterWithItsBonesAndMesh) {
  // The shared skinned Mixamo FBX made glTF by Blender itself (bench/fbx_to_gltf.py), as .glb and
  // as .gltf with its .bin, cleaned: Blender imports the same armature, mesh and frame range.
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  if (shell_stdout("command -v blender").empty()) GTEST_SKIP() << "blender not installed: Blender import check skipped";
  TempDir dir;
  const std::string convert = std::string(FOOTFIX_TESTS_DIR) + "/../bench/fbx_to_gltf.py";
  const fs::path fbx = shared_clips_dir() / "mixamo_samba_dancing_skinned.fbx";
  fs::create_directories(dir / "in");
  for (const char* name : {"samba.glb", "samba.gltf"}) {
    const fs::path input = dir / "in" / name;
    shell_stdout("timeout 300 blender -b --python " + quoted(fs::path(convert)) + " -- " + quoted(fbx) + " " + quoted(input) + " 2>&1");
    ASSERT_TRUE(fs::exists(input)) << "Blender did not convert " << fbx;
    const RunResult clean = run_footfix("clean " + quoted(input) + " -o " + quoted(dir / name));
    ASSERT_EQ(clean.exit_code, 0) << clean.output;
    const std::string before = blender_import(input);
    if (before.rfind("(no import)", 0) == 0) GTEST_SKIP() << "Blender's glTF importer does not run here: " << before;
    const std::string after = blender_import(dir / name);
    EXPECT_EQ(after, before) << name;
    EXPECT_NE(after.find("armature_bones=65 "), std::string::npos) << name << ": " << after;
    EXPECT_EQ(after.find("meshes=0 "), std::string::npos) << name << ": " << after;
    if (!have_validator()) continue;
    // Blender's own export has warnings (skinned meshes under a parent): the cleaned file no more.
    const nlohmann::json in = validate_gltf(input), out = validate_gltf(dir / name);
    EXPECT_EQ(out.value("errors", -1), 0) << name << ": " << out.dump();
    EXPECT_LE(out.value("warnings", -1), in.value("warnings", -1)) << name << ": " << out.dump();
  }
  EXPECT_TRUE(fs::exists(dir / "samba.bin"));  // the .gltf's buffer beside it
}

}  // namespace
}  // namespace footfix::test
