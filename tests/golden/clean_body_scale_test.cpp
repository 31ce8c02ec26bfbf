// Unknown units (issue 30, section 2): the bundled walk written in a unit no common one explains
// (its 1.75 m body measures 3.8 file units) is read with the body setting the scale, so every
// threshold scales with the leg, and made to slide it cleans as the walk in a known unit does.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "footfix/eval/metrics.h"
#include "footfix/eval/sliding.h"
#include "footfix/bvh/bvh.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "support/paths.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;

TEST(CleanBodyScale, AClipInAnUnknownUnitCleansAsInAKnownOne) {
  const LoadedClip source = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  Clip written = source.clip;
  written.source = nullptr;  // the standard layout, from the transforms
  const double true_meters_per_unit = 1.75 / 3.8;
  written.source_frame = SourceFrame{true_meters_per_unit, Axis::pos_y};
  const fs::path path = fs::temp_directory_path() / ("footfix_body_scale_" + std::to_string(::getpid()) + ".bvh");
  {
    std::ofstream out(path);
    write_bvh(written, out);
  }
  const LoadedClip loaded = load_clip(path);
  fs::remove(path);
  // The assumed unit makes the leg an adult's 0.85 m, not the foot's child-sized 0.56 m.
  const double assumed = loaded.clip.source_frame.meters_per_unit;
  EXPECT_GT(assumed, 0.8 * true_meters_per_unit);
  EXPECT_LT(assumed, 1.2 * true_meters_per_unit);
  const ContactMask mask = contact_mask(detect_contacts(loaded.clip, loaded.rig, ContactSettings{}));
  for (double factor : k_slide_protocol_factors) {
    SCOPED_TRACE(factor);
    const Clip scaled = make_sliding(loaded.clip, loaded.rig, factor);
    const CleanResult r = clean_clip(scaled, loaded.rig, CleanSettings{});
    const ClipMetrics m = compare_clips(scaled, r.cleaned, loaded.rig, mask);
    EXPECT_LE(m.cleaned_slide.mean_mm_per_frame, 0.15 * m.source_slide.mean_mm_per_frame);
    EXPECT_LT(m.pop_ratio, 1.5);
    EXPECT_LE(m.max_pelvis_drop_cm * true_meters_per_unit / assumed, 2.0);
  }
}

}  // namespace
}  // namespace footfix
