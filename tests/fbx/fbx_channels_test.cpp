// The channels made from the kept document's curves (fbx/fbx_channels) against assimp's import of
// the whole file: every key, and every sample at whole and half frame ticks, bit for bit, on every
// shared binary FBX; the frames FbxSource gives again are the frames read; files this does not
// reproduce (a rotation curve assimp would split, keys out of order, fewer values than times)
// go through assimp whole.
#include <gtest/gtest.h>

#include <sstream>

#include "footfix/fbx/fbx.h"
#include "fbx/fbx_channels.h"  // internal to fbx, not installed
#include "fbx/fbx_import.h"
#include "fbx/fbx_objects.h"
#include "fbx/fbx_source.h"
#include "fbx/fbx_test_support.h"

namespace footfix {
namespace {

std::string document_bytes(const FbxDocument& doc) {
  std::ostringstream out;
  write_fbx_document(doc, out);
  return out.str();
}

bool same(const aiVectorKey& a, const aiVectorKey& b) { return a.mTime == b.mTime && a.mValue == b.mValue; }
bool same(const aiQuatKey& a, const aiQuatKey& b) { return a.mTime == b.mTime && a.mValue == b.mValue; }

/// The reader's import of `bytes` (in-process: the same scene the import child sends).
fbx::ImportedScene imported(const std::string& bytes) {
  ReadLimits limits;
  limits.isolate_fbx_import = false;
  return fbx::import_fbx(bytes, "copy.fbx", limits);
}

TEST(FbxChannels, EveryKeyAndSampleAsAssimpMakesThem) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  int binary_files = 0;
  for (const auto& path : test::shared_fbx_files()) {
    SCOPED_TRACE(path.filename().string());
    const std::string bytes = test::file_bytes(path);
    fbx::SharedKeyTimes key_times;
    const FbxDocument doc = test::parse_kept(bytes, path.string(), key_times);
    std::optional<FbxDocument> ends = fbx::copy_with_end_keys(doc, key_times);
    if (!doc.binary) {
      EXPECT_FALSE(ends) << "ASCII goes through assimp whole";
      continue;
    }
    ++binary_files;
    ASSERT_TRUE(ends);
    const std::string copy = document_bytes(*ends);
    EXPECT_LT(copy.size(), bytes.size());
    Assimp::Importer whole_import;
    const fbx::ImportedScene small = imported(copy);
    const aiScene* whole = whole_import.ReadFileFromMemory(bytes.data(), bytes.size(), 0, "fbx");
    ASSERT_TRUE(whole);
    ASSERT_EQ(small.takes.size(), whole->mNumAnimations);
    ASSERT_GT(whole->mNumAnimations, 0u);
    for (unsigned a = 0; a < whole->mNumAnimations; ++a) {
      const aiAnimation& full = *whole->mAnimations[a];
      EXPECT_EQ(small.takes[a].duration, full.mDuration);
      auto channels = fbx::own_channels(doc, key_times, small.takes[a]);
      ASSERT_TRUE(channels);
      int keys = 0, key_mismatches = 0, samples = 0, sample_mismatches = 0;
      for (unsigned c = 0; c < full.mNumChannels; ++c) {
        const aiNodeAnim& ch = *full.mChannels[c];
        auto own = channels->find(ch.mNodeName.C_Str());
        ASSERT_NE(own, channels->end()) << ch.mNodeName.C_Str();
        const fbx::ModelChannel& mc = own->second;
        ASSERT_EQ(mc.key_count(), ch.mNumPositionKeys);
        ASSERT_EQ(mc.key_count(), ch.mNumRotationKeys);
        ASSERT_EQ(mc.key_count(), ch.mNumScalingKeys);
        for (unsigned i = 0; i < ch.mNumPositionKeys; ++i, ++keys) {
          const fbx::ModelChannel::Key k = mc.key(i);
          if (!same({k.time, k.position}, ch.mPositionKeys[i]) || !same({k.time, k.rotation}, ch.mRotationKeys[i]) ||
              !same({k.time, k.scaling}, ch.mScalingKeys[i]))
            ++key_mismatches;
        }
        // Whole and half frames, from before the first key to past the last.
        for (int half = -2; half <= 2 * static_cast<int>(full.mDuration) + 4; ++half, ++samples) {
          const double tick = half / 2.0;
          const aiMatrix4x4 expected =
              fbx::sample_keys(ch.mPositionKeys, ch.mNumPositionKeys, ch.mRotationKeys, ch.mNumRotationKeys,
                               ch.mScalingKeys, ch.mNumScalingKeys, aiMatrix4x4(), tick);
          if (!(mc.local(tick) == expected)) ++sample_mismatches;
        }
      }
      EXPECT_GT(keys, 10);
      EXPECT_EQ(key_mismatches, 0) << "of " << keys << " keys";
      EXPECT_EQ(sample_mismatches, 0) << "of " << samples << " samples";
    }
  }
  EXPECT_GE(binary_files, 4);
}

TEST(FbxChannels, SourceFramesAreTheFramesRead) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  for (const auto& path : test::shared_fbx_files()) {
    SCOPED_TRACE(path.filename().string());
    const Clip clip = read_fbx(path);
    const auto* source = dynamic_cast<const FbxSource*>(clip.source.get());
    ASSERT_NE(source, nullptr);
    ASSERT_TRUE(source->has_frames(clip.frame_count, clip.joint_count()));
    // Binary files keep no copy of the frames; ASCII ones (read by assimp whole) do.
    EXPECT_EQ(source->frames != nullptr, source->document.binary);
    EXPECT_EQ(source->rotations.empty(), source->document.binary);
    EXPECT_FALSE(source->has_frames(clip.frame_count + 1, clip.joint_count()));
    std::vector<Quat> rotations(static_cast<std::size_t>(clip.joint_count()));
    std::vector<Vec3> translations(rotations.size());
    int mismatches = 0;
    for (int f = clip.frame_count - 1; f >= 0; --f) {  // backwards: not only in the order read
      source->frame(f, rotations.data(), translations.data());
      for (int j = 0; j < clip.joint_count(); ++j)
        if (rotations[static_cast<std::size_t>(j)] != clip.rotation(f, j) ||
            translations[static_cast<std::size_t>(j)] != clip.translation(f, j))
          ++mismatches;
    }
    EXPECT_EQ(mismatches, 0);
  }
}

/// The shared Mixamo root-motion walk (binary), parsed.
FbxDocument mixamo_walk() {
  const auto path = test::shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx";
  return parse_fbx_document(test::file_bytes(path), path.string());
}

/// The KeyTime and KeyValueFloat arrays of the first d|X curve of an Lcl Rotation curve node.
std::pair<std::vector<std::int64_t>*, std::vector<float>*> rotation_curve(FbxDocument& doc) {
  std::int64_t node = 0, curve = 0;
  const auto links = fbx::connections(doc);
  for (const auto& l : links)
    if (l.property == "Lcl Rotation" && node == 0) node = l.child;
  for (const auto& l : links)
    if (l.parent == node && l.property == "d|X") curve = l.child;
  for (FbxNode& o : doc.root("Objects")->children)
    if (o.name == "AnimationCurve" && fbx::object_id(o) == curve)
      return {&std::get<std::vector<std::int64_t>>(o.child("KeyTime")->properties[0].value),
              &std::get<std::vector<float>>(o.child("KeyValueFloat")->properties[0].value)};
  return {nullptr, nullptr};
}

TEST(FbxChannels, RotationKeysAssimpWouldSplitGoThroughAssimpWhole) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  FbxDocument doc = mixamo_walk();
  auto [times, values] = rotation_curve(doc);
  ASSERT_TRUE(times && values && values->size() > 10);
  (*values)[5] = (*values)[4] + 200.0f;  // assimp adds a key between these two
  const std::string bytes = document_bytes(doc);
  fbx::SharedKeyTimes key_times;
  const FbxDocument kept = test::parse_kept(bytes, "split.fbx", key_times);
  std::optional<FbxDocument> ends = fbx::copy_with_end_keys(kept, key_times);
  ASSERT_TRUE(ends);
  const std::string copy = document_bytes(*ends);
  const fbx::ImportedScene small = imported(copy);
  ASSERT_FALSE(small.takes.empty());
  EXPECT_FALSE(fbx::own_channels(kept, key_times, small.takes[0]));
  const Clip clip = read_fbx_bytes(bytes, "split.fbx");
  const auto* source = dynamic_cast<const FbxSource*>(clip.source.get());
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(source->frames, nullptr);
  EXPECT_FALSE(source->rotations.empty());
}

/// A file read through assimp whole: no channels made here, a copy of the frames read kept.
void expect_read_whole(const std::string& bytes) {
  const Clip clip = read_fbx_bytes(bytes, "dropped.fbx");
  const auto* source = dynamic_cast<const FbxSource*>(clip.source.get());
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(source->frames, nullptr);
  EXPECT_EQ(source->rotations.size(), clip.rotations.size());
}

// assimp leaves such a curve out (its object fails to read, with a warning) and reads the rest:
// it is not reproduced here, the file goes through assimp whole as before.
TEST(FbxChannels, CurvesAssimpDropsGoThroughAssimpWhole) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  {  // key times out of order
    FbxDocument doc = mixamo_walk();
    auto [times, values] = rotation_curve(doc);
    ASSERT_TRUE(times && times->size() > 10);
    std::swap((*times)[3], (*times)[4]);
    const std::string bytes = document_bytes(doc);
    fbx::SharedKeyTimes key_times;
    EXPECT_FALSE(fbx::copy_with_end_keys(test::parse_kept(bytes, "dropped.fbx", key_times), key_times));
    expect_read_whole(bytes);
  }
  {  // fewer values than key times
    FbxDocument doc = mixamo_walk();
    auto [times, values] = rotation_curve(doc);
    ASSERT_TRUE(values && values->size() > 10);
    values->pop_back();
    const std::string bytes = document_bytes(doc);
    fbx::SharedKeyTimes key_times;
    EXPECT_FALSE(fbx::copy_with_end_keys(test::parse_kept(bytes, "dropped.fbx", key_times), key_times));
    expect_read_whole(bytes);
  }
}

}  // namespace
}  // namespace footfix
