// `footfix walk --skeleton` over the shared corpus: every BVH skeleton whose rest pose stands
// walks on flat ground and up stairs within the acceptance figures; the others are refused with
// a message saying why (never a broken walk).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "footfix/core/error.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/walk/walk.h"
#include "footfix/walk/walk_metrics.h"
#include "support/paths.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;

TEST(WalkCorpus, StandingSkeletonsWalkOthersAreRefused) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  int walked = 0, refused = 0;
  for (const auto& entry : fs::directory_iterator(test::shared_clips_dir())) {
    if (entry.path().extension() != ".bvh") continue;
    const std::string name = entry.path().filename().string();
    SCOPED_TRACE(name);
    const LoadedClip source = load_clip(entry.path());
    for (const char* terrain : {"flat", "stairs"}) {
      WalkSettings s;
      s.gait.duration_s = 5;
      WalkResult w;
      try {
        w = generate_walk(source.clip, source.rig, parse_terrain_spec(terrain), s);
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::process);
        EXPECT_NE(std::string(e.what()).find("rest pose does not stand"), std::string::npos) << e.what();
        ++refused;
        continue;
      }
      ++walked;
      const WalkMeasures m = measure_walk(w.clip, w.rig, w.terrain, w.contacts, s.limits);
      EXPECT_LT(m.max_stance_slide_mm, 0.5) << terrain;
      EXPECT_LE(m.max_penetration_mm, 2.0) << terrain;
      EXPECT_LT(w.max_ik_error_m, 0.001) << terrain;
      EXPECT_EQ(m.limit_violations, 0) << terrain;
      EXPECT_EQ(m.knee_flips, 0) << terrain;
    }
  }
  EXPECT_GE(walked, 10);
  std::printf("walk corpus: %d skeleton/terrain walks, %d refused (rest pose not standing)\n", walked, refused);
}

}  // namespace
}  // namespace footfix
