// A kept FBX document written from a copy without its curves' arrays (the writer taking them from
// where they are kept) is byte for byte the document put back whole and written, unedited and
// with a curve rewritten, on every shared binary FBX.
#include <gtest/gtest.h>

#include <sstream>

#include "fbx/fbx_curve_arrays.h"  // internal to fbx, not installed
#include "fbx/fbx_curves.h"
#include "fbx/fbx_objects.h"
#include "fbx/fbx_test_support.h"

namespace footfix {
namespace {

/// The first Model with an Lcl Rotation curve node, or 0.
std::int64_t animated_model(const FbxDocument& doc) {
  for (const auto& c : fbx::connections(doc))
    if (c.property == "Lcl Rotation") return c.parent;
  return 0;
}

/// Rewrites that model's rotation curves (3 keys) when `edit`.
void maybe_edit(FbxDocument& doc, std::int64_t model, bool edit) {
  if (!edit) return;
  fbx::CurveEditor editor(doc, "");
  editor.set_curves(model, "Lcl Rotation", {0, 1539538600, 3079077200},
                    {std::vector<float>{1, 2, 3}, std::vector<float>{4, 5, 6}, std::vector<float>{7, 8, 9}});
}

TEST(FbxCurveArrays, WrittenFromWhereTheyAreKeptAsIfPutBack) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  int binary_files = 0;
  for (const auto& path : test::shared_fbx_files()) {
    fbx::SharedKeyTimes key_times;
    const FbxDocument kept = test::parse_kept(test::file_bytes(path), path.string(), key_times);
    if (!kept.binary) continue;
    ++binary_files;
    const std::int64_t model = animated_model(kept);
    ASSERT_NE(model, 0) << path;
    for (bool edit : {false, true}) {
      SCOPED_TRACE(path.filename().string() + (edit ? " edited" : " unedited"));
      FbxDocument whole = kept;
      fbx::restore_key_times(whole, key_times);
      maybe_edit(whole, model, edit);
      std::ostringstream expected;
      write_fbx_document(whole, expected);

      FbxDocument copy = fbx::copy_without_curve_arrays(kept);
      maybe_edit(copy, model, edit);
      const FbxArrayOverrides overrides = fbx::kept_curve_arrays(copy, kept, key_times);
      EXPECT_GT(overrides.size(), 100u);
      std::ostringstream out;
      write_fbx_binary(copy, out, &overrides);
      EXPECT_EQ(out.str(), expected.str());
      // Without the overrides the copy is another file (its curves' arrays are empty).
      std::ostringstream bare;
      write_fbx_binary(copy, bare);
      EXPECT_LT(bare.str().size(), expected.str().size());
    }
  }
  EXPECT_GE(binary_files, 3);
}

}  // namespace
}  // namespace footfix
