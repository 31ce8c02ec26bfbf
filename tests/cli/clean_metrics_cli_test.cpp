// `footfix clean` hands a BVH clip over to be cleaned in place and measures it against its source
// frames decoded again from the file's values: the report's metrics must be those of
// compare_clips on a kept copy of the source, in world space and on a treadmill.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "footfix/eval/metrics.h"
#include "footfix/files/atomic_file.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "footfix/solve/treadmill.h"
#include "support/paths.h"
#include "support/run_cli.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::quoted;

void expect_slide(const json& j, const SlideStats& s) {
  EXPECT_EQ(j["contact_frame_pairs"].get<int>(), s.samples);
  EXPECT_EQ(j["mean_mm_per_frame"].get<double>(), s.mean_mm_per_frame);
  EXPECT_EQ(j["p95_mm_per_frame"].get<double>(), s.p95_mm_per_frame);
  EXPECT_EQ(j["p95_cm_per_s"].get<double>(), s.p95_cm_per_s);
}

void expect_metrics(const json& j, const ClipMetrics& m) {
  expect_slide(j["slide_source"], m.source_slide);
  expect_slide(j["slide_cleaned"], m.cleaned_slide);
  EXPECT_EQ(j["max_new_penetration_mm"].get<double>(), m.max_new_penetration_mm);
  EXPECT_EQ(j["mean_deviation_cm"].get<double>(), m.mean_deviation_cm);
  EXPECT_EQ(j["max_deviation_cm"].get<double>(), m.max_deviation_cm);
  EXPECT_EQ(j["source_max_leg_accel_mps2"].get<double>(), m.source_max_leg_accel);
  EXPECT_EQ(j["cleaned_max_leg_accel_mps2"].get<double>(), m.cleaned_max_leg_accel);
  EXPECT_EQ(j["pop_ratio"].get<double>(), m.pop_ratio);
  EXPECT_EQ(j["pop_frame"].get<int>(), m.pop_frame);
  EXPECT_EQ(j["max_pelvis_drop_cm"].get<double>(), m.max_pelvis_drop_cm);
  EXPECT_EQ(j["changed_non_leg_joints"].get<std::vector<std::string>>(), m.changed_non_leg_joints);
}

TEST(CleanMetricsCli, ReportMetricsAreThoseOfTheKeptSource) {
  const fs::path in = test::data_clip("cmu_07_01_walk.bvh");
  const fs::path dir = test::fresh_temp_dir("clean_metrics");
  const LoadedClip loaded = load_clip(in);
  for (const bool treadmill : {false, true}) {
    SCOPED_TRACE(treadmill ? "treadmill on" : "world space");
    auto r = test::run_footfix("clean " + quoted(in) + " -o " + quoted(dir / "out/") + " --report " +
                               quoted(dir / "report.json") + (treadmill ? " --treadmill on" : " --treadmill off"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const json report = json::parse(read_file(dir / "report.json"))["clips"][0];

    CleanSettings settings;
    settings.treadmill.mode = treadmill ? TreadmillMode::on : TreadmillMode::off;
    const CleanResult result = clean_clip(loaded.clip, loaded.rig, settings);
    ASSERT_EQ(result.treadmill, treadmill);
    const ContactMask mask{result.contacts.feet[0].contact, result.contacts.feet[1].contact};
    const int root = loaded.rig.translation_joint;
    const Vec3 g = result.ground_velocity_mps;
    const ClipMetrics m = treadmill ? compare_clips(shift_clip_by_ground(loaded.clip, root, g, -1),
                                                    shift_clip_by_ground(result.cleaned, root, g, -1), loaded.rig, mask)
                                    : compare_clips(loaded.clip, result.cleaned, loaded.rig, mask);
    EXPECT_GT(m.max_deviation_cm, 0.0);
    expect_metrics(report["metrics"], m);
  }
}

}  // namespace
}  // namespace footfix
