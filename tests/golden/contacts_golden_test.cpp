// Contact annotation on real clips: bundled data/clips (core suite) and ../shared/data/clips
// (corpus, skipped when absent). Checks are physical: contacts of walks and runs alternate
// between the feet, a planted toe stays near its planted position, consecutive contacts of one
// foot are a stride apart, and the clip made to slide keeps >= 90% of its contacts (>= 97.5% for
// two-foot jumps, whose pelvis speeds up and slows down while both feet stand).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "footfix/contacts/contact_eval.h"
#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/error.h"
#include "footfix/eval/sliding.h"
#include "footfix/core/fk.h"
#include "footfix/pipeline/load_clip.h"
#include "support/paths.h"
#include "support/world_distance.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;

using test::horizontal_distance;

struct Locomotion {
  const char* file;
  int min_contacts_per_foot;
  /// Share of frames a foot stands: about 60% in a walk, 20-35% in a run.
  double min_fraction = 0.3, max_fraction = 0.8;
};

/// Walks and runs: every foot has contacts, the feet alternate, planted toes hold still (within
/// 10 cm of where they stand, a slide would be more), and one foot's consecutive contacts are a
/// stride (0.8-3 m) apart.
void check_locomotion(const fs::path& path, const Locomotion& spec) {
  SCOPED_TRACE(path.filename().string());
  LoadedClip loaded = load_clip(path);
  ContactResult r = detect_contacts(loaded.clip, loaded.rig, ContactSettings{});
  EXPECT_EQ(alternation_breaks(r), 0);
  for (const FootContacts& foot : r.feet) {
    SCOPED_TRACE(to_string(foot.side));
    ASSERT_GE(static_cast<int>(foot.intervals.size()), spec.min_contacts_per_foot);
    double fraction = contact_fraction(foot);
    EXPECT_GT(fraction, spec.min_fraction);
    EXPECT_LT(fraction, spec.max_fraction);
    for (size_t i = 0; i < foot.intervals.size(); ++i) {
      const ContactInterval& in = foot.intervals[i];
      for (int f = in.first_frame; f <= in.last_frame; ++f) {
        Vec3 p = joint_world(loaded.clip, f, foot.joint).translation;
        ASSERT_LT(horizontal_distance(p, in.planted_position_m), 0.10) << "frame " << f;
      }
      if (i > 0) {
        double stride = horizontal_distance(in.planted_position_m, foot.intervals[i - 1].planted_position_m);
        EXPECT_GT(stride, 0.8) << "interval " << i;
        EXPECT_LT(stride, 3.0) << "interval " << i;
      }
    }
  }
}

/// The clip made to slide (translation joint's horizontal motion x1.25 and x0.75 about frame 0)
/// keeps its contacts on >= min_agreement of (foot, frame) pairs.
void check_sliding(const fs::path& path, double min_agreement = 0.90) {
  SCOPED_TRACE(path.filename().string());
  LoadedClip loaded = load_clip(path);
  ContactResult base = detect_contacts(loaded.clip, loaded.rig, ContactSettings{});
  for (double factor : {1.25, 0.75}) {
    Clip sliding = make_sliding(loaded.clip, loaded.rig, factor);
    EXPECT_GE(contact_agreement(base, detect_contacts(sliding, loaded.rig, ContactSettings{})), min_agreement)
        << "factor " << factor;
  }
}

// Push-off and landing of a jump: the pelvis runs at 1-2 m/s for 0.2-0.3 s with both feet planted
// (the sliding clip's planted feet then move at 0.25-0.5 m/s). Before the body speed and ground
// velocity windows were shortened, 3-7% of the jump clips' (foot, frame) pairs changed.
TEST(ContactsGolden, BundledHopKeepsContactsAtPushOffAndLandingWhenMadeToSlide) {
  check_sliding(test::data_clip("cmu3dsmax_131_03_start_hop_stop_meters.bvh"), 0.975);
}

TEST(ContactsCorpus, TwoFootJumpKeepsContactsAtPushOffAndLandingWhenMadeToSlide) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  check_sliding(test::shared_clips_dir() / "sfu_0005_2FeetJump001_inches.bvh", 0.975);
}

TEST(ContactsCorpus, InPlaceWalkStandsOnTheMovingGround) {
  // In-place (treadmill) walk, 32 frames at 30 Hz: the planted foot moves backwards at walking
  // speed while the pelvis only sways. Each foot stands on >= 25% of the frames (the root-motion
  // version of the same walk: 44% each); reading the sway as travel loses the ground velocity
  // and leaves 19-28%.
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  LoadedClip loaded = load_clip(test::shared_clips_dir() / "mixamo_walking_inplace_bin7700.fbx");
  ContactResult r = detect_contacts(loaded.clip, loaded.rig, ContactSettings{});
  for (const FootContacts& foot : r.feet) EXPECT_GE(contact_fraction(foot), 0.25) << to_string(foot.side);
}

TEST(ContactsGolden, BundledWalkAlternatesAndHoldsStill) {
  check_locomotion(test::data_clip("cmu_07_01_walk.bvh"), {"cmu_07_01_walk.bvh", 2});
}

TEST(ContactsGolden, BundledClipsKeepContactsWhenMadeToSlide) {
  for (const char* name : {"cmu_07_01_walk.bvh", "cmu3dsmax_131_01_start_walk_stop.bvh",
                           "cmu3dsmax_131_03_start_hop_stop_meters.bvh", "cmu_01_01_hops_turnaround.bvh"})
    check_sliding(test::data_clip(name));
}

/// Every k-th frame of `clip`: the same motion at fps / k.
Clip every_kth_frame(const Clip& clip, int k) {
  Clip out = clip;
  int frames = (clip.frame_count + k - 1) / k;
  out.fps = clip.fps / k;
  out.resize(frames);
  for (int f = 0; f < frames; ++f)
    for (int j = 0; j < clip.joint_count(); ++j) {
      out.rotation(f, j) = clip.rotation(f * k, j);
      out.translation(f, j) = clip.translation(f * k, j);
    }
  return out;
}

TEST(ContactsGolden, SameMotionAtLowerRatesGivesTheSameContacts) {
  // Windows are in seconds: the 120 Hz walk at 60, 30 and 24 Hz (30 and 24 Hz are upsampled)
  // is in contact on the same frames, >= 90% of (foot, frame) pairs.
  for (const char* name : {"cmu_07_01_walk.bvh", "cmu3dsmax_131_01_start_walk_stop.bvh"}) {
    LoadedClip loaded = load_clip(test::data_clip(name));
    ContactResult full = detect_contacts(loaded.clip, loaded.rig, ContactSettings{});
    for (int k : {2, 4, 5}) {
      Clip low = every_kth_frame(loaded.clip, k);
      ContactResult r = detect_contacts(low, loaded.rig, ContactSettings{});
      size_t same = 0, total = 0;
      for (int s = 0; s < 2; ++s)
        for (int f = 0; f < low.frame_count; ++f, ++total) same += r.feet[s].contact[f] == full.feet[s].contact[f * k];
      EXPECT_GE(static_cast<double>(same) / static_cast<double>(total), 0.90) << name << " at " << low.fps << " Hz";
    }
  }
}

TEST(ContactsGolden, BundledStartWalkStopHasFlatGroundContacts) {
  // Flat studio floor: no contact is below the clip's floor level (2 cm of noise allowed) or more
  // than the height gate above it, and both feet stand still at the end (the clip ends in an
  // idle pose; it starts with a glide).
  LoadedClip loaded = load_clip(test::data_clip("cmu3dsmax_131_01_start_walk_stop.bvh"));
  ContactResult r = detect_contacts(loaded.clip, loaded.rig, ContactSettings{});
  for (const FootContacts& foot : r.feet) {
    ASSERT_GE(foot.intervals.size(), 5u);
    for (const auto& in : foot.intervals) {
      EXPECT_GT(in.height_m, r.ground_height_m - 0.02);
      EXPECT_LT(in.height_m, r.ground_height_m + ContactSettings{}.height_threshold_m);
    }
    EXPECT_EQ(foot.contact.back(), 1);
  }
}

TEST(ContactsCorpus, LocomotionClipsAlternate) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  const Locomotion clips[] = {
      {"cmu_07_01_walk.bvh", 2},
      {"xia_neutral_01_000_walk.bvh", 2},
      {"bandai1_walk_normal_001.bvh", 5},
      {"bandai1_walk-back_active_001.bvh", 5},
      {"bandai2_walk-turn-right_normal_001.bvh", 3},
      {"bandai1_run_active_001.bvh", 2, 0.1, 0.45},
  };
  for (const auto& c : clips) check_locomotion(test::shared_clips_dir() / c.file, c);
}

// Every corpus clip, BVH and FBX, is checked: it loads and keeps its contacts when made to
// slide, or it is one of the clips named here that must be refused, with the error kind named.
TEST(ContactsCorpus, EveryClipLoadsAndKeepsContactsWhenMadeToSlide) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  struct Refused {
    const char* file;
    ErrorKind kind;
  };
  // A Blender armature that is not a biped (no leg with foot joints): a process error.
  const Refused refused[] = {{"assimp_animation_with_skeleton_bin7400.fbx", ErrorKind::process}};
  int checked = 0, refusals = 0, clips = 0;
  for (const auto& entry : fs::directory_iterator(test::shared_clips_dir())) {
    if (!is_clip_path(entry.path())) continue;
    ++clips;
    const std::string name = entry.path().filename().string();
    const Refused* expected = nullptr;
    for (const Refused& r : refused)
      if (name == r.file) expected = &r;
    if (expected) {
      try {
        load_clip(entry.path());
        ADD_FAILURE() << name << " loaded; it should be refused";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), expected->kind) << name << ": " << e.what();
        ++refusals;
      }
      continue;
    }
    try {
      load_clip(entry.path());
    } catch (const Error& e) {
      ADD_FAILURE() << name << " does not load: " << e.what();
      continue;
    }
    check_sliding(entry.path());
    ++checked;
  }
  EXPECT_EQ(refusals, static_cast<int>(std::size(refused)));
  EXPECT_EQ(checked, clips - refusals);
  EXPECT_GE(checked, 17);  // 13 BVH and 4 Mixamo FBX clips
}

}  // namespace
}  // namespace footfix
