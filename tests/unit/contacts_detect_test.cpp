// detect_contacts on synthetic clips with known contacts (toe exactly still during stance).
#include <gtest/gtest.h>

#include "footfix/contacts/contact_eval.h"
#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/error.h"
#include "footfix/eval/sliding.h"
#include "unit/contacts_synthetic.h"

namespace footfix {
namespace {

using test::make_synthetic_walk;
using test::SyntheticGait;

/// Every expected interval is found once, with both boundaries within `tolerance` frames, and
/// nothing else is found.
void expect_intervals_match(const std::vector<std::uint8_t>& expected, const FootContacts& foot, int tolerance,
                            const std::string& what) {
  auto want = contact_runs(expected);
  ASSERT_EQ(foot.intervals.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_LE(std::abs(foot.intervals[i].first_frame - want[i].first_frame), tolerance)
        << what << " interval " << i << " starts at " << foot.intervals[i].first_frame << ", expected "
        << want[i].first_frame;
    EXPECT_LE(std::abs(foot.intervals[i].last_frame - want[i].last_frame), tolerance)
        << what << " interval " << i << " ends at " << foot.intervals[i].last_frame << ", expected "
        << want[i].last_frame;
  }
}

class ContactsAtRate : public ::testing::TestWithParam<double> {};

TEST_P(ContactsAtRate, WalkIntervalsMatchKnownContactsWithinOneFrame) {
  SyntheticGait g;
  g.fps = GetParam();
  auto s = make_synthetic_walk(g);
  ContactResult r = detect_contacts(s.clip, s.rig, ContactSettings{});
  for (int side = 0; side < 2; ++side) {
    expect_intervals_match(s.expected[side], r.feet[side], 1, "walk side " + std::to_string(side));
    EXPECT_EQ(r.feet[side].contact.size(), static_cast<size_t>(s.clip.frame_count));
    EXPECT_EQ(r.feet[side].joint, s.rig.legs[side].toe);
  }
  EXPECT_TRUE(r.warnings.empty());
}

TEST_P(ContactsAtRate, RunWithShortContactsMatchesWithinOneFrame) {
  SyntheticGait g;
  g.fps = GetParam();
  g.cycle_s = 0.7;
  g.stance_fraction = 0.32;  // 0.22 s contacts: 6-7 frames at 30 Hz
  g.speed_mps = 3.5;
  g.lift_m = 0.25;
  auto s = make_synthetic_walk(g);
  ContactResult r = detect_contacts(s.clip, s.rig, ContactSettings{});
  for (int side = 0; side < 2; ++side)
    expect_intervals_match(s.expected[side], r.feet[side], 1, "run side " + std::to_string(side));
}

TEST_P(ContactsAtRate, SlidingClipsAgreeWithTheUnscaledClip) {
  SyntheticGait g;
  g.fps = GetParam();
  auto s = make_synthetic_walk(g);
  ContactResult base = detect_contacts(s.clip, s.rig, ContactSettings{});
  for (double factor : {1.25, 0.75}) {
    Clip sliding = make_sliding(s.clip, s.rig, factor);
    ContactResult r = detect_contacts(sliding, s.rig, ContactSettings{});
    EXPECT_GE(contact_agreement(base, r), 0.97) << "factor " << factor;
  }
}

INSTANTIATE_TEST_SUITE_P(Rates, ContactsAtRate, ::testing::Values(30.0, 60.0, 100.0, 120.0));

TEST(Contacts, PlantedToeOfSlidingClipIsLostWithoutTheSlidingTolerances) {
  // Shows the body speed and ground velocity terms are what hold detection on sliding clips: the
  // planted toe of the x1.25 clip moves at 0.25 * 1.2 = 0.3 m/s, above the 0.25 m/s threshold.
  auto s = make_synthetic_walk(SyntheticGait{});
  ContactSettings plain;
  plain.body_speed_fraction = 0;
  plain.ground_velocity_window_s = 0;
  ContactResult base = detect_contacts(s.clip, s.rig, plain);
  s.clip = make_sliding(s.clip, s.rig, 1.25);
  ContactResult r = detect_contacts(s.clip, s.rig, plain);
  EXPECT_LT(contact_agreement(base, r), 0.6);
  EXPECT_EQ(r.warnings.size(), 2u);  // no contact on either foot
}

TEST(Contacts, InPlaceWalkGetsItsContactsFromTheGroundVelocity) {
  // Root motion removed: planted toes move backwards at 1.2 m/s, the pelvis stands still.
  auto s = make_synthetic_walk(SyntheticGait{});
  s.clip = make_sliding(s.clip, s.rig, 0.0);
  ContactResult r = detect_contacts(s.clip, s.rig, ContactSettings{});
  EXPECT_GE(test::frame_agreement(s.expected, {r.feet[0].contact, r.feet[1].contact}), 0.95);
  for (int side = 0; side < 2; ++side) EXPECT_GE(r.feet[side].intervals.size(), 4u);
  ContactSettings still_ground;
  still_ground.ground_velocity_window_s = 0;
  ContactResult without = detect_contacts(s.clip, s.rig, still_ground);
  EXPECT_TRUE(without.feet[0].intervals.empty());
  EXPECT_TRUE(without.feet[1].intervals.empty());
}

TEST(Contacts, ThirtyHertzWithoutUpsamplingStaysWithinOneFrame) {
  SyntheticGait g;
  g.fps = 30;
  auto s = make_synthetic_walk(g);
  ContactSettings no_upsampling;
  no_upsampling.upsample_low_fps = false;
  ContactResult r = detect_contacts(s.clip, s.rig, no_upsampling);
  for (int side = 0; side < 2; ++side) expect_intervals_match(s.expected[side], r.feet[side], 1, "30 Hz");
}

TEST(Contacts, IntervalsAlternateBetweenFeet) {
  auto s = make_synthetic_walk(SyntheticGait{});
  ContactResult r = detect_contacts(s.clip, s.rig, ContactSettings{});
  // Order the interval starts of both feet in time: sides must alternate (both feet stand at
  // frame 0, so contacts already running there are left out).
  std::vector<std::pair<int, int>> starts;
  for (int side = 0; side < 2; ++side)
    for (const auto& in : r.feet[side].intervals)
      if (in.first_frame > 0) starts.push_back({in.first_frame, side});
  std::sort(starts.begin(), starts.end());
  ASSERT_GE(starts.size(), 5u);
  for (size_t i = 1; i < starts.size(); ++i) EXPECT_NE(starts[i].second, starts[i - 1].second) << i;
}

TEST(Contacts, PlantedPositionAndHeightAreWhereTheToeStands) {
  auto s = make_synthetic_walk(SyntheticGait{});
  ContactResult r = detect_contacts(s.clip, s.rig, ContactSettings{});
  const auto& left = r.foot(Side::left);
  ASSERT_GE(left.intervals.size(), 3u);
  // Left stance c sits at z = c * stride (stride 1.2 m), x = 0.1, y = toe height 0.03.
  for (size_t i = 0; i < left.intervals.size(); ++i) {
    EXPECT_NEAR(left.intervals[i].planted_position_m.z, 1.2 * static_cast<double>(i), 1e-9);
    EXPECT_NEAR(left.intervals[i].planted_position_m.x, 0.1, 1e-9);
    EXPECT_NEAR(left.intervals[i].height_m, 0.03, 1e-9);
  }
  EXPECT_NEAR(r.ground_height_m, 0.03, 1e-6);
}

TEST(Contacts, StairsGiveEachContactItsOwnHeight) {
  SyntheticGait g;
  g.step_height_m = [](int c) { return 0.18 * c; };  // one step up per stride
  auto s = make_synthetic_walk(g);
  ContactResult r = detect_contacts(s.clip, s.rig, ContactSettings{});
  for (int side = 0; side < 2; ++side) {
    expect_intervals_match(s.expected[side], r.feet[side], 1, "stairs");
    for (const auto& in : r.feet[side].intervals) {
      double expected_height = 0.03 + 0.18 * std::round((in.planted_position_m.z - (side ? -0.6 : 0.0)) / 1.2);
      EXPECT_NEAR(in.height_m, expected_height, 1e-9);
    }
  }
}

TEST(Contacts, FootHeldStillInTheAirIsNoContact) {
  // Right foot planted throughout; left foot lifted to 0.4 m, held still there for 0.4 s, put down.
  SyntheticGait g;
  g.speed_mps = 0;
  auto s = make_synthetic_walk(g);
  Clip& clip = s.clip;
  const int upleg = s.rig.legs[0].hip;
  const Vec3 base = clip.translation(0, upleg);
  for (int f = 0; f < clip.frame_count; ++f) {
    double t = f / g.fps;  // ramp up 1.0-1.2 s, hold 1.2-1.6 s, ramp down 1.6-1.8 s
    double up = t < 1.0 ? 0 : t < 1.2 ? test::smoothstep((t - 1.0) / 0.2) : t < 1.6 ? 1 : t < 1.8 ? 1 - test::smoothstep((t - 1.6) / 0.2) : 0;
    clip.translation(f, upleg) = base + Vec3{0, 0.4 * up, 0};
    clip.translation(f, s.rig.legs[1].hip) = clip.translation(0, s.rig.legs[1].hip);
  }
  ContactResult r = detect_contacts(clip, s.rig, ContactSettings{});
  const auto& left = r.foot(Side::left);
  for (int f = static_cast<int>(1.2 * g.fps); f <= static_cast<int>(1.6 * g.fps); ++f)
    EXPECT_EQ(left.contact[f], 0) << "frame " << f << " height above ground " << left.height_above_ground_m[f];
  ASSERT_EQ(left.intervals.size(), 2u);  // before and after the lift
  EXPECT_EQ(left.intervals[0].first_frame, 0);
  EXPECT_EQ(left.intervals[1].last_frame, clip.frame_count - 1);
  ASSERT_EQ(r.foot(Side::right).intervals.size(), 1u);
}

TEST(Contacts, RigWithoutToesUsesTheHeel) {
  auto s = make_synthetic_walk(SyntheticGait{});
  s.rig.legs[0].toe = -1;
  ContactResult r = detect_contacts(s.clip, s.rig, ContactSettings{});
  EXPECT_EQ(r.foot(Side::left).joint, s.rig.legs[0].heel);
  expect_intervals_match(s.expected[0], r.foot(Side::left), 1, "heel");  // the heel moves with the toe
}

TEST(Contacts, BadInputsAreErrorsNotCrashes) {
  auto s = make_synthetic_walk(SyntheticGait{});
  Rig no_legs;
  EXPECT_THROW(detect_contacts(s.clip, no_legs, ContactSettings{}), Error);
  Clip nan_clip = s.clip;
  nan_clip.translation(10, 0).x = std::nan("");
  try {
    detect_contacts(nan_clip, s.rig, ContactSettings{});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::process);
    EXPECT_NE(std::string(e.what()).find("frame 10"), std::string::npos) << e.what();
  }
  Clip empty = s.clip;
  empty.resize(0);
  EXPECT_THROW(detect_contacts(empty, s.rig, ContactSettings{}), Error);
}

TEST(Contacts, SingleFrameClipIsHandled) {
  auto s = make_synthetic_walk(SyntheticGait{});
  s.clip.frame_count = 1;
  s.clip.rotations.resize(static_cast<size_t>(s.clip.joint_count()));
  s.clip.translations.resize(static_cast<size_t>(s.clip.joint_count()));
  ContactResult r = detect_contacts(s.clip, s.rig, ContactSettings{});
  EXPECT_EQ(r.foot(Side::left).contact.size(), 1u);
  EXPECT_EQ(r.foot(Side::left).contact[0], 1);  // a still toe on the ground
}

}  // namespace
}  // namespace footfix
