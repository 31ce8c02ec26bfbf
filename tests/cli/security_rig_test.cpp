// Finding 9 (rig detection quadratic in the children of one joint): 60,000 sibling joints
// (a few MB of BVH, generated) took 29 s; the detection now pairs only limbs that can be legs,
// at most 64 per joint, so the run ends well within its time bound.
#include <gtest/gtest.h>

#include "cli/run_footfix.h"
#include "support/hostile_files.h"
#include "support/security_checks.h"

namespace footfix::test {
namespace {

TEST(SecurityRig, SixtyThousandSiblingsAreLinear) {
  TempDir dir;
  write_bytes(dir / "siblings.bvh", bvh_many_siblings(60000));
  LimitedRunOptions options;
  options.bound = std::chrono::seconds(15);
  LimitedRun r = run_footfix_limited({"annotate", (dir / "siblings.bvh").string(), "-o", (dir / "out").string()}, options);
  expect_bounded(r, 400);
  EXPECT_EQ(r.exit_code, 4) << r.err;  // read, but no legs among the siblings
  EXPECT_NE(r.err.find("siblings.bvh"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace footfix::test
