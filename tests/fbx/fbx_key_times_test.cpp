// A kept FBX document holds each distinct key-time array once: taken out and put back, every
// shared FBX file is the document parsed, and a curve whose keys differ keeps its own array.
// Taken out as each curve is parsed (parse_fbx_document's each_object), the document and the
// arrays are those of taking them out after parsing, binary and ASCII.
#include <gtest/gtest.h>

#include <sstream>

#include "fbx/fbx_key_times.h"  // internal to fbx, not installed
#include "fbx/fbx_objects.h"
#include "fbx/fbx_test_support.h"

namespace footfix {
namespace {

std::size_t curves_with_key_times(const FbxDocument& doc) {
  std::size_t n = 0;
  for (const FbxNode& o : doc.root("Objects")->children)
    if (o.name == "AnimationCurve" && o.child("KeyTime") && o.child("KeyTime")->properties[0].array_size() >= 2) ++n;
  return n;
}

std::string written(const FbxDocument& doc) {
  std::ostringstream out;
  write_fbx_document(doc, out);
  return out.str();
}

TEST(FbxKeyTimes, TakenOutOnceAndPutBackAsParsed) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  for (const auto& path : test::shared_fbx_files()) {
    SCOPED_TRACE(path.filename().string());
    const FbxDocument parsed = parse_fbx_document(test::file_bytes(path), path.string());
    const std::size_t curves = curves_with_key_times(parsed);
    FbxDocument kept = parsed;
    const fbx::SharedKeyTimes shared = fbx::take_out_key_times(kept);
    EXPECT_EQ(shared.of_curve.size(), curves);
    EXPECT_EQ(curves_with_key_times(kept), 0u);  // each curve keeps its first key only
    EXPECT_LE(shared.arrays.size(), curves);
    FbxDocument whole = kept;
    fbx::restore_key_times(whole, shared);
    EXPECT_TRUE(whole.same_tree(parsed));
    EXPECT_EQ(written(whole), written(parsed));
  }
}

TEST(FbxKeyTimes, TakenOutAsEachCurveIsParsedAsAfterParsing) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  for (const auto& path : test::shared_fbx_files()) {
    SCOPED_TRACE(path.filename().string());
    const std::string bytes = test::file_bytes(path);
    FbxDocument after = parse_fbx_document(bytes, path.string());
    const fbx::SharedKeyTimes taken_after = fbx::take_out_key_times(after);
    fbx::SharedKeyTimes taken_during;
    std::vector<std::int64_t> ids;  // of the objects, in the order each_object saw them
    const FbxDocument during = parse_fbx_document(bytes, path.string(), [&](FbxNode& object) {
      ids.push_back(fbx::object_id(object));
      fbx::take_out_key_times(object, taken_during);
    });
    ASSERT_GT(taken_after.of_curve.size(), 0u);
    EXPECT_EQ(taken_during.arrays, taken_after.arrays);
    EXPECT_EQ(taken_during.of_curve, taken_after.of_curve);
    EXPECT_TRUE(during.same_tree(after));
    EXPECT_EQ(written(during), written(after));
    std::vector<std::int64_t> object_ids;
    for (const FbxNode& o : after.root("Objects")->children) object_ids.push_back(fbx::object_id(o));
    EXPECT_EQ(ids, object_ids);
  }
}

TEST(FbxKeyTimes, MixamoCurvesShareOneArrayAndAChangedCurveKeepsItsOwn) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  FbxDocument doc = parse_fbx_document(
      test::file_bytes(test::shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx"), "walk");
  ASSERT_GT(curves_with_key_times(doc), 100u);
  EXPECT_EQ(fbx::take_out_key_times(doc).arrays.size(), 1u);  // one key grid for every curve
  FbxDocument changed = parse_fbx_document(
      test::file_bytes(test::shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx"), "walk");
  for (FbxNode& o : changed.root("Objects")->children)
    if (o.name == "AnimationCurve" && o.child("KeyTime")) {
      std::get<std::vector<std::int64_t>>(o.child("KeyTime")->properties[0].value).back() += 1;
      break;
    }
  const FbxDocument parsed = changed;
  const fbx::SharedKeyTimes shared = fbx::take_out_key_times(changed);
  EXPECT_EQ(shared.arrays.size(), 2u);
  fbx::restore_key_times(changed, shared);
  EXPECT_TRUE(changed.same_tree(parsed));
}

}  // namespace
}  // namespace footfix
