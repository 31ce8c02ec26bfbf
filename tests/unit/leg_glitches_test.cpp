// Tracking glitches in the legs (solve/leg_glitches.h): a joint that turns far away and straight
// back within a frame or two is found and bridged; real motion, even a run's knee at 20 Hz, is not.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "footfix/contacts/leg_glitches.h"
#include "footfix/core/math.h"
#include "footfix/eval/sliding.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "support/capture_noise.h"
#include "support/paths.h"

namespace footfix {
namespace {

/// `clip` with `joint` turned by `angle_rad` about X at frames [first, last].
Clip with_glitch(Clip clip, int joint, int first, int last, double angle_rad) {
  for (int f = first; f <= last; ++f) clip.rotation(f, joint) = clip.rotation(f, joint) * axis_angle(Vec3{1, 0, 0}, angle_rad);
  return clip;
}

TEST(LegGlitches, RealMotionHasNone) {
  // The bundled clips at their own rates and at 20 Hz, where a knee turns up to 35 degrees a frame
  // at the top of a swing (and slows into it), with and without light jitter.
  for (const char* name : {"cmu_07_01_walk.bvh", "cmu_01_01_hops_turnaround.bvh", "cmu3dsmax_131_01_start_walk_stop.bvh",
                           "cmu3dsmax_131_03_start_hop_stop_meters.bvh"}) {
    const LoadedClip loaded = load_clip(test::data_clip(name));
    for (double fps : {0.0, 30.0, 20.0}) {
      Clip clip = fps > 0 ? test::resampled(loaded.clip, fps) : loaded.clip;
      EXPECT_TRUE(find_leg_glitches(clip, loaded.rig).empty()) << name << " at " << clip.fps << " Hz";
      test::add_capture_noise(clip, loaded.rig.translation_joint, 31, 0.01, 0.3, 0.6);
      EXPECT_TRUE(find_leg_glitches(clip, loaded.rig).empty()) << name << " at " << clip.fps << " Hz, jittered";
    }
  }
}

/// The middle frame of foot `side`'s `index`th contact in `clip`.
int mid_stance(const Clip& clip, const Rig& rig, int side, size_t index) {
  const ContactInterval iv = detect_contacts(clip, rig, ContactSettings{}).feet[side].intervals.at(index);
  return (iv.first_frame + iv.last_frame) / 2;
}

TEST(LegGlitches, AJointTurnedAwayAndBackIsFoundAndBridged) {
  // A heel off for one frame, a knee for two, both in stance.
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip clean = test::resampled(loaded.clip, 30);
  const int heel = loaded.rig.legs[0].heel, knee = loaded.rig.legs[1].knee;
  const int heel_frame = mid_stance(clean, loaded.rig, 0, 1), knee_frame = mid_stance(clean, loaded.rig, 1, 1);
  Clip glitched = with_glitch(with_glitch(clean, heel, heel_frame, heel_frame, 0.8), knee, knee_frame, knee_frame + 1, -0.6);
  const std::vector<LegGlitch> found = find_leg_glitches(glitched, loaded.rig);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].joint, heel);
  EXPECT_EQ(found[0].first, heel_frame);
  EXPECT_EQ(found[0].last, heel_frame);
  EXPECT_EQ(found[1].joint, knee);
  EXPECT_EQ(found[1].first, knee_frame);
  EXPECT_EQ(found[1].last, knee_frame + 1);
  bridge_leg_glitches(glitched, found);
  // Bridged from the frames around, the rotations are within a few degrees of the clean clip's.
  for (const auto& [joint, frame] : {std::pair{heel, heel_frame}, std::pair{knee, knee_frame}, std::pair{knee, knee_frame + 1}})
    EXPECT_LT(angle_of(conjugate(clean.rotation(frame, joint)) * glitched.rotation(frame, joint)), 3 * M_PI / 180)
        << "joint " << joint << " frame " << frame;
  EXPECT_FALSE(describe_leg_glitches(found, glitched).empty());
}

TEST(LegGlitches, APlantedFootThatLosesTrackingComesOutStill) {
  // A jittered walk at 30 Hz whose heels glitch by 46 degrees for a frame, twice in stance: the
  // IK reproduced each glitch as a jump of the planted toe (planted p95 142 cm/s). Bridged, the
  // planted feet are still, and one warning names the glitches.
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  Clip input = test::resampled(loaded.clip, 30);
  test::add_capture_noise(input, loaded.rig.translation_joint, 31, 0.01, 0.3, 0.6);
  for (int s = 0; s < 2; ++s) {
    const int f = mid_stance(test::resampled(loaded.clip, 30), loaded.rig, s, 1);
    input = with_glitch(input, loaded.rig.legs[s].heel, f, f, 0.8);
  }
  const CleanResult r = clean_clip(input, loaded.rig, CleanSettings{});
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings.front().find("2 tracking glitches"), std::string::npos) << r.warnings.front();
  EXPECT_LT(contact_slide(r.cleaned, loaded.rig, contact_mask(r.contacts)).p95_cm_per_s, 1.0);
}

}  // namespace
}  // namespace footfix
