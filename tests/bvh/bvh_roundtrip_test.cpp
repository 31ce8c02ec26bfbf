// BVH write -> read round trips: unchanged channels come back bit-identical, changed rotations
// come back in the joint's channel order, continuous, in the file's own units and axes.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <optional>
#include <sstream>

#include "bvh_test_text.h"
#include "footfix/core/error.h"
#include "footfix/core/euler.h"
#include "footfix/files/atomic_file.h"
#include "footfix/bvh/bvh.h"
#include "bvh/bvh_source.h"  // BvhSource: internal to bvh, not installed
#include "support/paths.h"

namespace footfix {
namespace {

const BvhSource& bvh_source_or_throw(const Clip& clip) {
  const auto* s = dynamic_cast<const BvhSource*>(clip.source.get());
  if (!s) throw std::runtime_error("clip has no BvhSource");
  return *s;
}

std::string written(const Clip& clip) {
  std::ostringstream out;
  write_bvh(clip, out);
  return out.str();
}

bool same_bits(double a, double b) { return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b); }

// Largest component difference between two rotations, sign-aligned (q and -q are equal).
double quat_difference(Quat a, Quat b) {
  if (dot(a, b) < 0) b = Quat{-b.w, -b.x, -b.y, -b.z};
  return std::max({std::abs(a.w - b.w), std::abs(a.x - b.x), std::abs(a.y - b.y), std::abs(a.z - b.z)});
}

// parse -> convert_to_internal(frame) -> write -> parse: every raw value, offset and the layout
// must come back bit-identical.
void expect_bit_identical_round_trip(const std::string& text, const std::string& name, const SourceFrame& frame) {
  Clip clip = parse_bvh(text, name);
  convert_to_internal(clip, frame);
  const std::string out = written(clip);
  Clip again = parse_bvh(out, name + " (written)");
  const BvhSource& a = bvh_source_or_throw(clip);
  const BvhSource& b = bvh_source_or_throw(again);
  ASSERT_EQ(again.skeleton.names, clip.skeleton.names) << name;
  ASSERT_EQ(again.skeleton.parents, clip.skeleton.parents) << name;
  ASSERT_EQ(a.values.size(), b.values.size()) << name;
  size_t differing = 0;
  for (size_t i = 0; i < a.values.size(); ++i) differing += same_bits(a.values[i], b.values[i]) ? 0 : 1;
  EXPECT_EQ(differing, 0u) << name << ": motion values not bit-identical";
  for (size_t j = 0; j < a.joints.size(); ++j) {
    EXPECT_EQ(a.joints[j].channels, b.joints[j].channels) << name << " joint " << j;
    EXPECT_EQ(a.raw_offsets[j], b.raw_offsets[j]) << name << " joint " << j;
    EXPECT_EQ(a.raw_end_sites[j], b.raw_end_sites[j]) << name << " joint " << j;
  }
  EXPECT_TRUE(same_bits(a.frame_time_s, b.frame_time_s)) << name;
  EXPECT_EQ(again.frame_count, clip.frame_count) << name;
  // Writing is deterministic and a second round changes nothing.
  convert_to_internal(again, frame);
  EXPECT_EQ(written(again), out) << name;
}

TEST(BvhRoundTrip, DataClipsAreBitIdentical) {
  for (const char* name : {"cmu_07_01_walk.bvh", "cmu3dsmax_131_01_start_walk_stop.bvh",
                           "cmu3dsmax_131_03_start_hop_stop_meters.bvh", "cmu_01_01_hops_turnaround.bvh"})
    expect_bit_identical_round_trip(read_file(test::data_clip(name)), name, {0.01, Axis::pos_y});
}

TEST(BvhRoundTrip, CorpusClipsAreBitIdentical) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::shared_clips_dir())) {
    if (entry.path().extension() != ".bvh") continue;
    const std::string text = read_file(entry.path());
    const std::string name = entry.path().filename().string();
    expect_bit_identical_round_trip(text, name, {0.01, Axis::pos_y});
    expect_bit_identical_round_trip(text, name, {0.056444, Axis::pos_z});
    ++count;
  }
  EXPECT_EQ(count, 13);
}

// Rotates `joint` by 10 degrees about internal +X at every frame, writes and re-reads.
struct EditedRoundTrip {
  Clip edited;   // internal frame, after the edit
  Clip reread;   // internal frame, read back from the written text
};

EditedRoundTrip rotate_joint_and_round_trip(const std::string& text, int joint, const SourceFrame& frame) {
  EditedRoundTrip r;
  r.edited = parse_bvh(text, "edit.bvh");
  convert_to_internal(r.edited, frame);
  const Quat tilt = axis_angle({1, 0, 0}, 10 * k_deg_to_rad);
  for (int f = 0; f < r.edited.frame_count; ++f)
    r.edited.rotation(f, joint) = r.edited.rotation(f, joint) * tilt;
  r.reread = parse_bvh(written(r.edited), "edit (written).bvh");
  convert_to_internal(r.reread, frame);
  return r;
}

TEST(BvhRoundTrip, ChangedRotationOnlyTouchesThatJoint) {
  const std::string text = read_file(test::data_clip("cmu_07_01_walk.bvh"));
  const Clip original = parse_bvh(text, "walk.bvh");
  const int knee = original.skeleton.find("LeftLeg");
  ASSERT_GT(knee, 0);
  EditedRoundTrip r = rotate_joint_and_round_trip(text, knee, {0.056444, Axis::pos_y});
  const BvhSource& before = bvh_source_or_throw(original);
  const BvhSource& after = bvh_source_or_throw(r.reread);
  const BvhJointLayout& layout = before.joints[knee];
  size_t changed_elsewhere = 0, changed_here = 0;
  for (int f = 0; f < original.frame_count; ++f) {
    for (int i = 0; i < before.values_per_frame; ++i) {
      const size_t k = static_cast<size_t>(f) * before.values_per_frame + i;
      const bool in_knee = i >= layout.first_value && i < layout.first_value + static_cast<int>(layout.channels.size());
      const bool same = same_bits(before.values[k], after.values[k]);
      (in_knee ? changed_here : changed_elsewhere) += same ? 0 : 1;
    }
    EXPECT_LT(quat_difference(r.reread.rotation(f, knee), r.edited.rotation(f, knee)), 1e-9) << "frame " << f;
  }
  EXPECT_EQ(changed_elsewhere, 0u);
  EXPECT_GT(changed_here, static_cast<size_t>(original.frame_count));  // the edit was really written
}

// A root plus a joint spinning three full turns about Y (channel order Y X Z) while nodding in X.
std::string spinning_clip_text(int frames) {
  std::string text =
      "HIERARCHY\nROOT Base\n{\n\tOFFSET 0 0 0\n\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
      "\tJOINT Spinner\n\t{\n\t\tOFFSET 0 10 0\n\t\tCHANNELS 3 Yrotation Xrotation Zrotation\n"
      "\t\tEnd Site\n\t\t{\n\t\t\tOFFSET 0 5 0\n\t\t}\n\t}\n}\nMOTION\nFrames: " +
      std::to_string(frames) + "\nFrame Time: 0.0333333\n";
  for (int f = 0; f < frames; ++f) {
    const double y = 1080.0 * f / (frames - 1);
    const double x = 30.0 * std::sin(f * 0.1);
    text += "0 0 0 0 0 0 " + std::to_string(y) + " " + std::to_string(x) + " 5\n";
  }
  return text;
}

TEST(BvhRoundTrip, ChangedSpinningJointStaysContinuous) {
  const int frames = 240;
  const std::string text = spinning_clip_text(frames);
  EditedRoundTrip r = rotate_joint_and_round_trip(text, 1, {0.01, Axis::pos_y});
  const BvhSource& out = bvh_source_or_throw(r.reread);
  const int first = out.joints[1].first_value;
  double max_step = 0;
  for (int f = 0; f < frames; ++f) {
    EXPECT_LT(quat_difference(r.reread.rotation(f, 1), r.edited.rotation(f, 1)), 1e-9) << "frame " << f;
    if (f == 0) continue;
    for (int n = 0; n < 3; ++n) {
      const double step = out.values[f * out.values_per_frame + first + n] -
                          out.values[(f - 1) * out.values_per_frame + first + n];
      max_step = std::max(max_step, std::abs(step));
    }
  }
  EXPECT_LT(max_step, 180.0);
  // The spin keeps its unwrapped total: the last Y angle stays near 1080, not folded into +-180.
  EXPECT_NEAR(out.values[(frames - 1) * out.values_per_frame + first], 1080.0, 30.0);
  // The root was not touched: its values are bit-identical.
  const Clip original = parse_bvh(text, "spin.bvh");
  const BvhSource& in = bvh_source_or_throw(original);
  for (int f = 0; f < frames; ++f)
    for (int i = 0; i < 6; ++i)
      EXPECT_TRUE(same_bits(in.values[f * 9 + i], out.values[f * 9 + i]))
          << "frame " << f << " value " << i << ": " << in.values[f * 9 + i] << " vs " << out.values[f * 9 + i];
}

TEST(BvhRoundTrip, SpinningJointWithoutSourceStaysContinuous) {
  const int frames = 240;
  Clip clip = parse_bvh(spinning_clip_text(frames), "spin.bvh");
  convert_to_internal(clip, {0.01, Axis::pos_y});
  clip.source = nullptr;  // standard layout: Z Y X rotation channels, unwrapped from zero
  Clip again = parse_bvh(written(clip), "spin (standard).bvh");
  convert_to_internal(again, {0.01, Axis::pos_y});
  const BvhSource& out = bvh_source_or_throw(again);
  ASSERT_EQ(out.joints[1].channels.size(), 3u);
  const int first = out.joints[1].first_value;
  double max_step = 0, max_y = 0;
  for (int f = 0; f < frames; ++f) {
    EXPECT_LT(quat_difference(again.rotation(f, 1), clip.rotation(f, 1)), 1e-9) << "frame " << f;
    for (int n = 0; n < 3; ++n) {
      const double v = out.values[f * out.values_per_frame + first + n];
      max_y = std::max(max_y, std::abs(v));
      if (f > 0) max_step = std::max(max_step, std::abs(v - out.values[(f - 1) * out.values_per_frame + first + n]));
    }
  }
  EXPECT_LT(max_step, 180.0);
  EXPECT_GT(max_y, 900.0);  // three turns written as growing angles, not wrapped
}

TEST(BvhRoundTrip, FewerAndMoreFramesThanTheSource) {
  const std::string text = read_file(test::data_clip("cmu_07_01_walk.bvh"));
  Clip clip = parse_bvh(text, "walk.bvh");
  convert_to_internal(clip, {0.056444, Axis::pos_y});
  const int joints = clip.joint_count();
  const int kept = 100;
  // Keep 100 frames, then append 20 copies of frame 99 (no raw values exist for those).
  clip.frame_count = kept + 20;
  clip.rotations.resize(static_cast<size_t>(kept) * joints);
  clip.translations.resize(static_cast<size_t>(kept) * joints);
  for (int f = kept; f < kept + 20; ++f)
    for (int j = 0; j < joints; ++j) {
      clip.rotations.push_back(clip.rotation(kept - 1, j));
      clip.translations.push_back(clip.translation(kept - 1, j));
    }
  Clip again = parse_bvh(written(clip), "walk (written).bvh");
  const BvhSource& a = bvh_source_or_throw(clip);
  const BvhSource& b = bvh_source_or_throw(again);
  ASSERT_EQ(again.frame_count, kept + 20);
  const size_t vpf = static_cast<size_t>(a.values_per_frame);
  for (size_t i = 0; i < kept * vpf; ++i) ASSERT_TRUE(same_bits(a.values[i], b.values[i])) << i;
  convert_to_internal(again, {0.056444, Axis::pos_y});
  for (int f = kept; f < kept + 20; ++f)
    for (int j = 0; j < joints; ++j) {
      EXPECT_LT(quat_difference(again.rotation(f, j), clip.rotation(f, j)), 1e-9);
      EXPECT_LT(length(again.translation(f, j) - clip.translation(f, j)), 1e-12);
    }
  // The appended frames continue frame 99's angles (no 360-degree jumps).
  for (size_t i = 0; i < vpf; ++i) EXPECT_NEAR(b.values[kept * vpf + i], b.values[(kept - 1) * vpf + i], 1e-6) << i;
}

// A Z-up BVH in centimeters: the legs hang along -Z and the root moves along +X at 50 cm height.
const std::string k_z_up_bvh =
    "HIERARCHY\nROOT Pelvis\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Xrotation Yrotation Zrotation\n"
    "  JOINT Thigh\n  {\n    OFFSET 10 0 -5\n    CHANNELS 3 Xrotation Yrotation Zrotation\n"
    "    JOINT Shin\n    {\n      OFFSET 0 0 -40\n      CHANNELS 3 Xrotation Yrotation Zrotation\n"
    "      End Site\n      {\n        OFFSET 0 0 -45\n      }\n    }\n  }\n}\n"
    "MOTION\nFrames: 3\nFrame Time: 0.04\n"
    "0 0 50 0 0 0 10 0 0 20 0 0\n"
    "5 0 50 0 0 90 15 0 0 25 0 0\n"
    "10 0 50 0 0 90 20 0 0 30 0 0\n";

TEST(BvhRoundTrip, ZUpClipWritesBackInZUp) {
  const SourceFrame z_up{0.01, Axis::pos_z};
  Clip clip = parse_bvh(k_z_up_bvh, "zup.bvh");
  convert_to_internal(clip, z_up);
  // Internally the shin hangs down -Y and the root is 0.5 m up.
  EXPECT_NEAR(clip.skeleton.rest_offsets[2].y, -0.40, 1e-12);
  EXPECT_NEAR(clip.translation(0, 0).y, 0.50, 1e-12);
  // Raise the root by 0.1 m (internal +Y) in frame 1 and bend the knee in frame 2.
  clip.translation(1, 0).y += 0.1;
  clip.rotation(2, 2) = clip.rotation(2, 2) * axis_angle({1, 0, 0}, 0.5);
  const std::string text = written(clip);
  Clip again = parse_bvh(text, "zup (written).bvh");
  const BvhSource& out = bvh_source_or_throw(again);
  // Offsets are written raw, in Z-up centimeters.
  EXPECT_EQ(again.skeleton.rest_offsets[1], (Vec3{10, 0, -5}));
  EXPECT_EQ(*again.skeleton.end_sites[2], (Vec3{0, 0, -45}));
  // The raised root is 10 cm higher along source +Z, nothing else moved.
  EXPECT_NEAR(out.values[12 + 0], 5.0, 1e-9);
  EXPECT_NEAR(out.values[12 + 1], 0.0, 1e-9);
  EXPECT_NEAR(out.values[12 + 2], 60.0, 1e-9);
  EXPECT_EQ(out.values[12 + 5], 90.0);  // frame 1 root rotation unchanged: raw value
  // The knee bend reads back as the same internal rotation.
  convert_to_internal(again, z_up);
  EXPECT_LT(quat_difference(again.rotation(2, 2), clip.rotation(2, 2)), 1e-9);
  EXPECT_EQ(out.values[24 + 6], 20.0);  // thigh untouched
}

TEST(BvhRoundTrip, ClipWithoutSourceGetsStandardLayout) {
  const SourceFrame z_up{0.01, Axis::pos_z};
  Clip clip = parse_bvh(k_z_up_bvh, "zup.bvh");
  convert_to_internal(clip, z_up);
  clip.source = nullptr;
  clip.translation(1, 2).y -= 0.02;  // the shin stretches by 2 cm in frame 1
  Clip again = parse_bvh(written(clip), "standard.bvh");
  const BvhSource& out = bvh_source_or_throw(again);
  using C = BvhChannel;
  const std::vector<C> zyx{C::z_rotation, C::y_rotation, C::x_rotation};
  const std::vector<C> pos_zyx{C::x_position, C::y_position, C::z_position, C::z_rotation, C::y_rotation, C::x_rotation};
  EXPECT_EQ(out.joints[0].channels, pos_zyx);
  EXPECT_EQ(out.joints[1].channels, zyx);
  EXPECT_EQ(out.joints[2].channels, pos_zyx);  // its translation changes in some frame
  // Offsets come back in Z-up centimeters (converted, so within rounding).
  EXPECT_NEAR(again.skeleton.rest_offsets[1].x, 10, 1e-9);
  EXPECT_NEAR(again.skeleton.rest_offsets[1].z, -5, 1e-9);
  EXPECT_NEAR(again.skeleton.end_sites[2]->z, -45, 1e-9);
  EXPECT_NEAR(out.frame_time_s, 0.04, 1e-15);
  convert_to_internal(again, z_up);
  for (int f = 0; f < clip.frame_count; ++f) {
    for (int j = 0; j < clip.joint_count(); ++j) {
      EXPECT_LT(quat_difference(again.rotation(f, j), clip.rotation(f, j)), 1e-9);
      EXPECT_LT(length(again.translation(f, j) - clip.translation(f, j)), 1e-12);
    }
  }
  EXPECT_NEAR(again.translation(1, 2).y, -0.42, 1e-12);
}

TEST(BvhRoundTrip, AMoveAlongAnAxisWithoutAChannelIsWrittenWithPositionChannels) {
  Clip clip = parse_bvh(test::k_small_bvh, "small.bvh");
  convert_to_internal(clip, {0.01, Axis::pos_y});
  const Vec3 moved = clip.translation(0, 1) + Vec3{0.5, 0, 0};  // Leg has no position channels
  const Vec3 kept = clip.translation(1, 1);
  clip.translation(0, 1) = moved;
  const std::string text = written(clip);
  // The hierarchy is written anew (tabs): Leg's position channels first, its rotations as read.
  EXPECT_NE(text.find("\tJOINT Leg\n\t{\n\t\tOFFSET 1 -2 0\n\t\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"),
            std::string::npos) << text;
  Clip back = parse_bvh(text, "back.bvh");
  convert_to_internal(back, {0.01, Axis::pos_y});
  for (int axis = 0; axis < 3; ++axis) {
    EXPECT_NEAR(at(back.translation(0, 1), axis), at(moved, axis), 1e-12);
    EXPECT_NEAR(at(back.translation(1, 1), axis), at(kept, axis), 1e-12);
  }
  EXPECT_LT(quat_difference(back.rotation(1, 1), clip.rotation(1, 1)), 1e-12);
}

TEST(BvhRoundTrip, AddedChannelsFoundBeforeAreWhatTheWriterUses) {
  Clip clip = parse_bvh(test::k_small_bvh, "small.bvh");
  convert_to_internal(clip, {0.01, Axis::pos_y});
  const BvhAddedChannels before_the_move = bvh_added_channels(clip);
  clip.translation(0, 1) = clip.translation(0, 1) + Vec3{0.5, 0, 0};  // Leg has no position channels
  const BvhAddedChannels found = bvh_added_channels(clip);
  EXPECT_EQ(found.position, (std::vector<bool>{false, true}));
  EXPECT_EQ(found.rotation, (std::vector<bool>{false, false}));
  ASSERT_EQ(found.warnings.size(), 1u);
  EXPECT_NE(found.warnings[0].find("'Leg' (Xposition Yposition Zposition Zrotation Xrotation Yrotation)"), std::string::npos)
      << found.warnings[0];
  const std::string own = written(clip);
  const auto written_with = [&clip](std::optional<BvhAddedChannels> added) {
    std::ostringstream out;
    BvhWriteOptions options;
    options.added = std::move(added);
    write_bvh(clip, out, options);
    return out.str();
  };
  EXPECT_EQ(written_with(found), own);
  // A result of another shape is not used: the writer finds the channels itself.
  EXPECT_EQ(written_with(BvhAddedChannels{}), own);
  // One found for the clip before it changed is used as given: the move it does not cover is a
  // write error, not a file that says another motion.
  EXPECT_THROW(written_with(before_the_move), Error);
}

TEST(BvhRoundTrip, ASkeletonThatIsNotTheSourcesIsAWriteError) {
  Clip other = parse_bvh(test::k_small_bvh, "small.bvh");
  other.skeleton.add_joint("Extra", 0, {});
  EXPECT_THROW(written(other), Error);
}

}  // namespace
}  // namespace footfix
