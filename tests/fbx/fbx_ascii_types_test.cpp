// ASCII FBX keeps property types through a write/read cycle: a real array whose values all
// happen to be integral must not come back as an integer array (fuzz_fbx finding).
#include <gtest/gtest.h>

#include <sstream>

#include "fbx/fbx_document.h"  // internal to fbx, not installed

namespace footfix {
namespace {

FbxDocument round_trip(const FbxDocument& doc) {
  std::ostringstream out;
  write_fbx_ascii(doc, out);
  return parse_fbx_ascii(out.str(), "round_trip.fbx");
}

TEST(FbxAsciiTypes, IntegralRealArraysAndScalarsStayReal) {
  FbxDocument doc;
  doc.binary = false;
  FbxNode curve;
  curve.name = "KeyValueFloat";
  curve.properties.emplace_back('d', std::vector<double>{0.0, 2.0, -7.0});
  FbxNode mixed;
  mixed.name = "Mixed";
  mixed.properties.emplace_back('d', std::vector<double>{1.0, 2.5});
  FbxNode scalar;
  scalar.name = "Scale";
  scalar.properties.push_back(FbxProperty::real('D', 3.0));
  FbxNode flag;
  flag.name = "P";
  flag.properties.push_back(FbxProperty::integer('C', 'a'));
  flag.properties.push_back(FbxProperty::integer('C', 'T'));
  FbxNode ints;
  ints.name = "KeyTime";
  ints.properties.emplace_back('l', std::vector<std::int64_t>{0, 46186158000});
  FbxNode objects;
  objects.name = "Objects";
  objects.children = {curve, mixed, scalar, flag, ints};
  doc.roots.push_back(objects);

  FbxDocument back = round_trip(doc);
  ASSERT_TRUE(back.same_tree(doc));
  const FbxNode* o = back.root("Objects");
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->child("KeyValueFloat")->properties[0].type, 'd');
  EXPECT_EQ(o->child("Scale")->properties[0].type, 'D');
  EXPECT_EQ(o->child("KeyTime")->properties[0].type, 'l');
  EXPECT_EQ(o->child("P")->properties[0].type, 'C');  // lower-case one-letter word (fuzz_fbx finding)
  EXPECT_EQ(o->child("P")->properties[0].as_int(), 'a');
}

}  // namespace
}  // namespace footfix
