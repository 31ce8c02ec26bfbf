// A rest or reference pose kept as frame 0: detected on the bundled CMU hops and walk clips (their
// frame 0 is the exporter's zero pose, the legs jump from it into frame 1) and on a walk given a
// T-pose frame 0; not on clips that start with their motion. Contacts skip that frame and clean leaves
// it exactly as it is.
#include <gtest/gtest.h>

#include <string>

#include "footfix/contacts/reference_pose.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "support/locomotion_clips.h"
#include "support/paths.h"

namespace footfix {
namespace {

/// The bundled walk with frame 0's leg joints at their identity rotations (a T-pose frame).
LoadedClip walk_with_t_pose_frame() {
  LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  for (const LegChain& leg : loaded.rig.legs)
    for (int j : {leg.hip, leg.knee, leg.heel, leg.toe})
      if (j >= 0) loaded.clip.rotation(0, j) = Quat{};
  return loaded;
}

bool has_note_about_frame_0(const std::vector<std::string>& notes) {
  for (const std::string& w : notes)
    if (w.find("frame 0 is a rest or reference pose") != std::string::npos) return true;
  return false;
}

TEST(ReferencePose, CmuHopsFrame0IsItsExportersZeroPose) {
  const LoadedClip hops = load_clip(test::data_clip("cmu_01_01_hops_turnaround.bvh"));
  ASSERT_TRUE(starts_with_reference_pose(hops.clip, hops.rig));
  const ContactResult contacts = detect_contacts(hops.clip, hops.rig, ContactSettings{});
  EXPECT_TRUE(has_note_about_frame_0(contacts.notes));
  for (const FootContacts& foot : contacts.feet) {
    ASSERT_EQ(static_cast<int>(foot.contact.size()), hops.clip.frame_count);
    EXPECT_EQ(foot.contact[0], 0);
    EXPECT_EQ(foot.contact[1], 1);  // the motion starts standing
    ASSERT_FALSE(foot.intervals.empty());
    EXPECT_EQ(foot.intervals.front().first_frame, 1);
  }
}

// Issue 34: the bundled walk's frame 0 is its exporter's rest pose (the hips and knees jump 39
// degrees into frame 1, then turn about 1 degree a frame), but its motion turns the legs by 8
// degrees in one frame soon after, which the clean smooths: judged by that largest turn, the clip
// was taken for motion and its cleaned copy was not. The median turn judges both alike.
TEST(ReferencePose, BundledWalkFrame0IsItsRestPoseBeforeAndAfterCleaning) {
  const LoadedClip walk = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  ASSERT_TRUE(starts_with_reference_pose(walk.clip, walk.rig));
  const CleanResult r = clean_clip(walk.clip, walk.rig, CleanSettings{});
  EXPECT_TRUE(has_note_about_frame_0(r.contacts.notes));
  EXPECT_TRUE(starts_with_reference_pose(r.cleaned, walk.rig));
}

TEST(ReferencePose, ClipsThatStartWithTheirMotionAreNotCut) {
  for (const char* name : {"cmu3dsmax_131_01_start_walk_stop.bvh", "cmu3dsmax_131_03_start_hop_stop_meters.bvh"}) {
    const LoadedClip loaded = load_clip(test::data_clip(name));
    EXPECT_FALSE(starts_with_reference_pose(loaded.clip, loaded.rig)) << name;
  }
  // Frame 0 a copy of frame 1 (a held first pose), or 5 degrees off it: no jump.
  LoadedClip held = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  for (int j = 0; j < held.clip.joint_count(); ++j) held.clip.rotation(0, j) = held.clip.rotation(1, j);
  EXPECT_FALSE(starts_with_reference_pose(held.clip, held.rig));
  const int thigh = held.rig.legs[0].hip;
  held.clip.rotation(0, thigh) = held.clip.rotation(1, thigh) * axis_angle({1, 0, 0}, 5 * 3.14159265358979 / 180);
  EXPECT_FALSE(starts_with_reference_pose(held.clip, held.rig));
}

TEST(ReferencePose, SharedCorpusClipsStartWithTheirMotion) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  for (const char* name : test::k_locomotion_clips) {
    // The two that have one.
    if (std::string(name) == "cmu_01_01_hops_turnaround.bvh" || std::string(name) == "cmu_07_01_walk.bvh") continue;
    const LoadedClip loaded = load_clip(test::shared_clips_dir() / name);
    EXPECT_FALSE(starts_with_reference_pose(loaded.clip, loaded.rig)) << name;
  }
}

TEST(ReferencePose, CleanLeavesATPoseFrameAsItIsAndCleansTheMotion) {
  const LoadedClip walk = walk_with_t_pose_frame();
  ASSERT_TRUE(starts_with_reference_pose(walk.clip, walk.rig));
  const CleanResult r = clean_clip(walk.clip, walk.rig, CleanSettings{});
  EXPECT_TRUE(has_note_about_frame_0(r.contacts.notes));
  ASSERT_EQ(r.cleaned.frame_count, walk.clip.frame_count);
  for (int j = 0; j < walk.clip.joint_count(); ++j) {
    EXPECT_EQ(r.cleaned.rotation(0, j), walk.clip.rotation(0, j)) << j;
    EXPECT_EQ(r.cleaned.translation(0, j), walk.clip.translation(0, j)) << j;
  }
  // Frames 1.. are the clean of the motion alone, and the contacts are its contacts one frame on.
  const CleanResult motion = clean_clip(without_first_frame(walk.clip), walk.rig, CleanSettings{});
  for (int f = 1; f < walk.clip.frame_count; ++f)
    for (int j = 0; j < walk.clip.joint_count(); ++j) ASSERT_EQ(r.cleaned.rotation(f, j), motion.cleaned.rotation(f - 1, j));
  for (int side = 0; side < 2; ++side) {
    EXPECT_EQ(r.contacts.feet[side].contact[0], 0);
    ASSERT_EQ(r.contacts.feet[side].intervals.size(), motion.contacts.feet[side].intervals.size());
    for (size_t k = 0; k < motion.contacts.feet[side].intervals.size(); ++k)
      EXPECT_EQ(r.contacts.feet[side].intervals[k].first_frame, motion.contacts.feet[side].intervals[k].first_frame + 1);
  }
  // The motion itself is cleaned: the clip's frames 1.. are the bundled walk's.
  const LoadedClip original = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  int changed = 0;
  for (int f = 1; f < walk.clip.frame_count; ++f) changed += !(r.cleaned.rotation(f, walk.rig.legs[0].knee) == original.clip.rotation(f, walk.rig.legs[0].knee));
  EXPECT_GT(changed, walk.clip.frame_count / 2);
}

}  // namespace
}  // namespace footfix
