// A fixed-seed fuzz of the glTF reader and patcher (part of footfix_tests; fuzz_gltf is the
// libFuzzer target): a short skeleton-only .glb made from the bundled walk, and a hand-made
// .gltf, then byte flips, truncations and edits of its JSON numbers. Every case must end in the
// file refused with footfix::Error or read, patched and read back where the edit put the joints
// (gltf_pipeline.h).
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "footfix/bvh/bvh.h"
#include "gltf_pipeline.h"
#include "gltf/gltf_test_file.h"
#include "support/paths.h"

namespace footfix {
namespace {

/// The walk's first 12 frames as a skeleton-only .glb.
std::string short_walk_glb() {
  Clip clip = read_bvh_file(test::data_clip("cmu_07_01_walk.bvh"), "walk.bvh");
  clip.frame_count = 12;
  clip.rotations.resize(static_cast<size_t>(12 * clip.joint_count()));
  clip.translations.resize(static_cast<size_t>(12 * clip.joint_count()));
  std::ostringstream out;
  write_gltf(clip, out, true);
  return out.str();
}

std::string hand_made_gltf() {
  test::GltfFile f = test::two_joint_rig();
  test::animate(f, 1, "translation", {0, 0.5f, 1}, {0, 1, 0, 0.2f, 1, 0, 0.4f, 1, 0});
  test::animate(f, 2, "rotation", {0, 1}, {0, 0, 0, 1, 0.3826834f, 0, 0, 0.9238795f}, "STEP");
  return f.gltf_text();
}

void run_case(const std::string& bytes, const std::string& what, int (&outcomes)[3]) {
  try {
    outcomes[static_cast<int>(fuzz::run_gltf_edit_round_trip(bytes, ReadLimits{}))]++;
  } catch (const fuzz::PipelineFinding& e) {
    ADD_FAILURE() << what << ": " << e.what();
  } catch (const Error& e) {
    ADD_FAILURE() << what << ": footfix::Error escaped the pipeline: " << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": " << e.what();
  }
}

TEST(GltfMutation, EveryMutationIsRefusedOrRoundTrips) {
  int outcomes[3] = {0, 0, 0};
  std::mt19937 rng(35);
  for (const std::string& seed : {short_walk_glb(), hand_made_gltf()}) {
    EXPECT_EQ(fuzz::run_gltf_edit_round_trip(seed, ReadLimits{}), fuzz::GltfOutcome::round_tripped);
    for (int i = 0; i < 150; ++i) {
      std::string bytes = seed;
      const int flips = 1 + static_cast<int>(rng() % 4);
      for (int k = 0; k < flips; ++k) bytes[rng() % bytes.size()] = static_cast<char>(rng() % 256);
      run_case(bytes, "flip case " + std::to_string(i), outcomes);
      run_case(seed.substr(0, rng() % seed.size()), "truncation " + std::to_string(i), outcomes);
      // A digit of the JSON changed: counts, offsets, indices and lengths go out of range.
      std::string digits = seed;
      const size_t at = digits.find_first_of("0123456789", rng() % std::min<size_t>(digits.size(), 4000));
      if (at != std::string::npos) digits[at] = static_cast<char>('0' + rng() % 10);
      run_case(digits, "digit case " + std::to_string(i), outcomes);
    }
  }
  EXPECT_GT(outcomes[0], 0);  // the mutations reach the refusals
  EXPECT_GT(outcomes[2], 2);  // and some mutated files still read and patch
}

}  // namespace
}  // namespace footfix
