// A BVH or FBX clip handed over to be cleaned in place can still be read as it was:
// decode_source_frame gives the frames as loaded bit for bit, and the metrics taken frame by frame
// from it equal compare_clips on a kept copy of the source.
#include <gtest/gtest.h>

#include <cstring>

#include "footfix/eval/metrics.h"
#include "footfix/io/clip_io.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "support/paths.h"

namespace footfix {
namespace {

bool same_bits(const Clip& one_frame, const Clip& clip, int f) {
  const size_t first = clip.index(f, 0), joints = static_cast<size_t>(clip.joint_count());
  return std::memcmp(one_frame.rotations.data(), clip.rotations.data() + first, joints * sizeof(Quat)) == 0 &&
         std::memcmp(one_frame.translations.data(), clip.translations.data() + first, joints * sizeof(Vec3)) == 0;
}

Clip one_frame_of(const Clip& clip) {
  Clip one;
  one.skeleton = clip.skeleton;
  one.fps = clip.fps;
  one.resize(1);
  return one;
}

// Every figure of the metrics, in one list to compare exactly.
std::vector<double> figures(const ClipMetrics& m) {
  std::vector<double> out;
  for (const SlideStats& s : {m.source_slide, m.cleaned_slide})
    out.insert(out.end(), {static_cast<double>(s.samples), s.mean_mm_per_frame, s.p95_mm_per_frame, s.mean_cm_per_s,
                           s.p95_cm_per_s});
  out.insert(out.end(), {m.max_new_penetration_mm, m.mean_deviation_cm, m.max_deviation_cm, m.source_max_leg_accel,
                         m.cleaned_max_leg_accel, m.leg_accel_ratio, m.pop_ratio, static_cast<double>(m.pop_frame),
                         m.max_pelvis_drop_cm});
  return out;
}

// Cleans a copy of `loaded` in place and checks that every decoded source frame is the frame as
// loaded, bit for bit, while the cleaned frames mostly differ.
CleanResult clean_in_place_and_decode(const LoadedClip& loaded) {
  EXPECT_TRUE(has_source_frames(loaded.clip));
  Clip handed = loaded.clip;
  CleanResult result = clean_clip(std::move(handed), loaded.rig, CleanSettings{});
  Clip one = one_frame_of(loaded.clip);
  int cleaned_differs = 0;
  for (int f = 0; f < loaded.clip.frame_count; ++f) {
    decode_source_frame(result.cleaned, f, one);
    EXPECT_TRUE(same_bits(one, loaded.clip, f)) << "frame " << f;
    cleaned_differs += same_bits(one, result.cleaned, f) ? 0 : 1;
  }
  EXPECT_GT(cleaned_differs, loaded.clip.frame_count / 2);  // the decode does not read the cleaned poses
  return result;
}

// The metrics from the decoded source frames against compare_clips on the kept source.
ClipMetrics expect_streamed_metrics_as_kept(const LoadedClip& loaded, const CleanResult& result) {
  const ContactMask mask{result.contacts.feet[0].contact, result.contacts.feet[1].contact};
  const ClipMetrics kept = compare_clips(loaded.clip, result.cleaned, loaded.rig, mask);
  const Clip& cleaned = result.cleaned;
  const FrameSource decoded{&cleaned.skeleton, cleaned.fps, cleaned.frame_count,
                            [&cleaned](int f, Clip& into) { decode_source_frame(cleaned, f, into); }};
  const ClipMetrics streamed = compare_frames(decoded, frames_of(cleaned), loaded.rig, mask);
  EXPECT_EQ(figures(streamed), figures(kept));
  EXPECT_EQ(streamed.changed_non_leg_joints, kept.changed_non_leg_joints);
  return kept;
}

TEST(SourceFrames, DecodeTheBundledClipsAsLoadedAfterAnInPlaceClean) {
  for (const char* name : {"cmu_07_01_walk.bvh", "cmu3dsmax_131_03_start_hop_stop_meters.bvh"}) {
    SCOPED_TRACE(name);
    clean_in_place_and_decode(load_clip(test::data_clip(name)));
  }
}

TEST(SourceFrames, DecodeAnFbxClipAsLoadedAfterAnInPlaceClean) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  const LoadedClip loaded = load_clip(test::shared_clips_dir() / "mixamo_walking_rootmotion_bin7700.fbx");
  const CleanResult result = clean_in_place_and_decode(loaded);
  const ClipMetrics kept = expect_streamed_metrics_as_kept(loaded, result);
  EXPECT_GT(kept.max_deviation_cm, 0.0);
  Clip longer = loaded.clip;  // more frames than the file gave
  longer.resize(loaded.clip.frame_count + 1);
  EXPECT_FALSE(has_source_frames(longer));
}

TEST(SourceFrames, ClipsWithoutRawValuesHaveNone) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  Clip synthetic = loaded.clip;
  synthetic.source = nullptr;
  EXPECT_FALSE(has_source_frames(synthetic));
  Clip longer = loaded.clip;  // more frames than the file holds
  longer.resize(loaded.clip.frame_count + 1);
  EXPECT_FALSE(has_source_frames(longer));
}

TEST(SourceFrames, MetricsFromDecodedFramesEqualCompareClips) {
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  Clip handed = loaded.clip;
  const CleanResult result = clean_clip(std::move(handed), loaded.rig, CleanSettings{});
  const ClipMetrics kept = expect_streamed_metrics_as_kept(loaded, result);
  // Not trivially equal: the clean changed the clip.
  EXPECT_GT(kept.max_deviation_cm, 0.0);
  EXPECT_LT(kept.cleaned_slide.mean_mm_per_frame, kept.source_slide.mean_mm_per_frame);
}

}  // namespace
}  // namespace footfix
