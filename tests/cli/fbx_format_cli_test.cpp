// --fbx-format binary|ascii: an FBX written in the other flavour holds the same animation (read
// back through assimp, as footfix reads every FBX), asking for the input's own flavour changes
// no byte, and Blender (which imports binary FBX only) imports the binary output of an ASCII
// input where it is installed.
#include <gtest/gtest.h>

#include <cstdlib>

#include "cli/cli_test_helpers.h"
#include "footfix/core/fk.h"
#include "footfix/pipeline/load_clip.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::run_footfix_bounded;

constexpr const char* k_ascii = "mixamo_walking_rootmotion_ascii7700.fbx";
constexpr const char* k_binary = "mixamo_walking_rootmotion_bin7700.fbx";

bool is_binary_fbx(const fs::path& path) { return read_file(path).rfind("Kaydara FBX Binary", 0) == 0; }

// Both files, read back, hold the same motion (within the float precision of FBX curves).
void expect_same_motion(const fs::path& a_path, const fs::path& b_path) {
  const LoadedClip a = load_clip(a_path), b = load_clip(b_path);
  ASSERT_EQ(a.clip.frame_count, b.clip.frame_count);
  ASSERT_EQ(a.clip.joint_count(), b.clip.joint_count());
  for (int j = 0; j < a.clip.joint_count(); ++j) EXPECT_EQ(a.clip.skeleton.names[j], b.clip.skeleton.names[j]);
  for (int f = 0; f < a.clip.frame_count; f += 5)
    for (int j = 0; j < a.clip.joint_count(); ++j) {
      const Vec3 d = joint_world_position(a.clip, f, j) - joint_world_position(b.clip, f, j);
      ASSERT_LT(length(d), 1e-5) << "frame " << f << " joint " << j;
    }
}

class FbxFormatCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::have_shared_clips()) GTEST_SKIP() << "the shared clips are not here";
  }
  fs::path shared(const char* name) const { return test::shared_clips_dir() / name; }
  test::TempDir dir;
};

TEST_F(FbxFormatCli, ConvertTurnsAsciiIntoBinaryAndBackWithTheSameMotion) {
  const fs::path binary = dir / "binary.fbx", ascii = dir / "ascii.fbx";
  auto r = run_footfix_bounded({"convert", shared(k_ascii).string(), binary.string(), "--fbx-format", "binary"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(is_binary_fbx(binary));
  expect_same_motion(shared(k_ascii), binary);
  r = run_footfix_bounded({"convert", binary.string(), ascii.string(), "--fbx-format", "ascii"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(is_binary_fbx(ascii));
  EXPECT_TRUE(contains(read_file(ascii), "Model::mixamorig:Hips")) << "object names in the ASCII spelling";
  expect_same_motion(shared(k_ascii), ascii);
  r = run_footfix_bounded({"convert", shared(k_binary).string(), (dir / "b2a.fbx").string(), "--fbx-format", "ascii"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_same_motion(shared(k_binary), dir / "b2a.fbx");
}

TEST_F(FbxFormatCli, CleanedClipsChangeFlavourAndTheSameFlavourChangesNoByte) {
  for (const char* input : {k_ascii, k_binary}) {
    const bool binary_input = input == std::string(k_binary);
    const fs::path kept = dir / "kept.fbx", same = dir / "same.fbx", other = dir / "other.fbx";
    for (const fs::path* out : {&kept, &same, &other}) fs::remove(*out);
    auto r = run_footfix_bounded({"clean", shared(input).string(), "-o", kept.string()}, std::chrono::seconds(120));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_footfix_bounded({"clean", shared(input).string(), "-o", same.string(), "--fbx-format",
                             binary_input ? "binary" : "ascii"},
                            std::chrono::seconds(120));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(kept), read_file(same)) << input;
    r = run_footfix_bounded({"clean", shared(input).string(), "-o", other.string(), "--fbx-format",
                             binary_input ? "ascii" : "binary"},
                            std::chrono::seconds(120));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(is_binary_fbx(other), !binary_input) << input;
    expect_same_motion(kept, other);
  }
}

// Blender's importer refuses ASCII FBX; the binary footfix writes from an ASCII input must import
// with its animation.
TEST_F(FbxFormatCli, BlenderImportsTheBinaryOutputOfAnAsciiInput) {
  if (std::system("command -v blender >/dev/null 2>&1") != 0) GTEST_SKIP() << "blender is not installed: not checked";
  const fs::path binary = dir / "for_blender.fbx";
  auto r = run_footfix_bounded({"convert", shared(k_ascii).string(), binary.string(), "--fbx-format", "binary"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string script =
      "import bpy, sys; bpy.ops.wm.read_factory_settings(use_empty=True); "
      "bpy.ops.import_scene.fbx(filepath=sys.argv[-1]); "
      "arm = [o for o in bpy.data.objects if o.type == 'ARMATURE']; "
      "ok = arm and len(bpy.data.actions) > 0 and len(bpy.data.actions[0].fcurves) > 0; "
      "sys.exit(0 if ok else 3)";
  const std::string command = "timeout 300 blender -b --factory-startup --python-exit-code 4 --python-expr \"" + script + "\" -- '" +
                              binary.string() + "' >" + (dir / "blender.log").string() + " 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << read_file(dir / "blender.log");
}

}  // namespace
}  // namespace footfix
