// A kept FBX document holds each distinct key-time array once, taken out as each curve is parsed
// (parse_fbx_document's each_object, as the read does): put back, every shared FBX file is the
// document parsed without taking them out, binary and ASCII; each curve's array is the one parsed,
// and a curve whose keys differ keeps its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <variant>
#include <vector>

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

/// The KeyTime array of an AnimationCurve object with two keys or more, or null.
const std::vector<std::int64_t>* parsed_key_times(const FbxNode& o) {
  const FbxNode* times = o.name == "AnimationCurve" ? o.child("KeyTime") : nullptr;
  if (!times || times->properties.empty() || times->properties[0].array_size() < 2) return nullptr;
  return std::get_if<std::vector<std::int64_t>>(&times->properties[0].value);
}

TEST(FbxKeyTimes, TakenOutOnceAndPutBackAsParsed) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  for (const auto& path : test::shared_fbx_files()) {
    SCOPED_TRACE(path.filename().string());
    const std::string bytes = test::file_bytes(path);
    const FbxDocument parsed = parse_fbx_document(bytes, path.string());
    const std::size_t curves = curves_with_key_times(parsed);
    fbx::SharedKeyTimes shared;
    const FbxDocument kept = test::parse_kept(bytes, path.string(), shared);
    ASSERT_GT(curves, 0u);
    EXPECT_EQ(shared.of_curve.size(), curves);
    EXPECT_EQ(curves_with_key_times(kept), 0u);  // each curve keeps its first key only
    EXPECT_LE(shared.arrays.size(), curves);
    FbxDocument whole = kept;
    fbx::restore_key_times(whole, shared);
    EXPECT_TRUE(whole.same_tree(parsed));
    EXPECT_EQ(written(whole), written(parsed));
  }
}

TEST(FbxKeyTimes, EachCurveKeepsTheArrayParsedAndEachArrayIsKeptOnce) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  for (const auto& path : test::shared_fbx_files()) {
    SCOPED_TRACE(path.filename().string());
    const std::string bytes = test::file_bytes(path);
    const FbxDocument parsed = parse_fbx_document(bytes, path.string());
    fbx::SharedKeyTimes shared;
    std::vector<std::int64_t> ids;  // of the objects, in the order each_object saw them
    const FbxDocument kept = parse_fbx_document(bytes, path.string(), [&](FbxNode& object) {
      ids.push_back(fbx::object_id(object));
      fbx::take_out_key_times(object, shared);
    });
    const auto& objects = parsed.root("Objects")->children;
    const auto& kept_objects = kept.root("Objects")->children;
    ASSERT_EQ(kept_objects.size(), objects.size());
    std::vector<bool> used(shared.arrays.size(), false);
    for (size_t i = 0; i < objects.size(); ++i) {
      const std::vector<std::int64_t>* times = parsed_key_times(objects[i]);
      const std::vector<std::int64_t>* taken = fbx::shared_key_times(kept_objects[i], shared);
      if (!times) {
        EXPECT_EQ(taken, nullptr) << i;
        continue;
      }
      ASSERT_NE(taken, nullptr) << i;
      EXPECT_EQ(*taken, *times) << i;
      used[static_cast<size_t>(taken - shared.arrays.data())] = true;
      EXPECT_EQ(std::get<std::vector<std::int64_t>>(kept_objects[i].child("KeyTime")->properties[0].value),
                std::vector<std::int64_t>{times->front()})
          << i;
    }
    EXPECT_EQ(std::count(used.begin(), used.end(), false), 0);
    for (size_t a = 0; a < shared.arrays.size(); ++a)
      for (size_t b = a + 1; b < shared.arrays.size(); ++b) EXPECT_NE(shared.arrays[a], shared.arrays[b]) << a << " " << b;
    std::vector<std::int64_t> object_ids;
    for (const FbxNode& o : objects) object_ids.push_back(fbx::object_id(o));
    EXPECT_EQ(ids, object_ids);
  }
}

TEST(FbxKeyTimes, MixamoCurvesShareOneArrayAndAChangedCurveKeepsItsOwn) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  const std::string bytes = test::file_bytes(test::shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx");
  ASSERT_GT(curves_with_key_times(parse_fbx_document(bytes, "walk")), 100u);
  fbx::SharedKeyTimes shared;
  test::parse_kept(bytes, "walk", shared);
  EXPECT_EQ(shared.arrays.size(), 1u);  // one key grid for every curve
  // The first curve's last key moved, as it is parsed: it keeps an array of its own.
  fbx::SharedKeyTimes changed;
  bool moved = false;
  FbxDocument kept = parse_fbx_document(bytes, "walk", [&](FbxNode& object) {
    if (!moved && object.name == "AnimationCurve" && object.child("KeyTime")) {
      std::get<std::vector<std::int64_t>>(object.child("KeyTime")->properties[0].value).back() += 1;
      moved = true;
    }
    fbx::take_out_key_times(object, changed);
  });
  ASSERT_TRUE(moved);
  EXPECT_EQ(changed.arrays.size(), 2u);
  FbxDocument parsed = parse_fbx_document(bytes, "walk");
  for (FbxNode& o : parsed.root("Objects")->children)
    if (o.name == "AnimationCurve" && o.child("KeyTime")) {
      std::get<std::vector<std::int64_t>>(o.child("KeyTime")->properties[0].value).back() += 1;
      break;
    }
  fbx::restore_key_times(kept, changed);
  EXPECT_TRUE(kept.same_tree(parsed));
}

}  // namespace
}  // namespace footfix
