#include "metrics_json.h"

namespace footfix::cli {
namespace {

nlohmann::json slide_json(const SlideStats& s) {
  return {{"contact_frame_pairs", s.samples},
          {"mean_mm_per_frame", s.mean_mm_per_frame},
          {"p95_mm_per_frame", s.p95_mm_per_frame},
          {"mean_cm_per_s", s.mean_cm_per_s},
          {"p95_cm_per_s", s.p95_cm_per_s}};
}

}  // namespace

nlohmann::json metrics_to_json(const ClipMetrics& m) {
  return {{"slide_source", slide_json(m.source_slide)},
          {"slide_cleaned", slide_json(m.cleaned_slide)},
          {"max_new_penetration_mm", m.max_new_penetration_mm},
          {"mean_deviation_cm", m.mean_deviation_cm},
          {"max_deviation_cm", m.max_deviation_cm},
          {"source_max_leg_accel_mps2", m.source_max_leg_accel},
          {"cleaned_max_leg_accel_mps2", m.cleaned_max_leg_accel},
          {"leg_accel_ratio", m.leg_accel_ratio},
          {"pop_ratio", m.pop_ratio},
          {"pop_frame", m.pop_frame},
          {"max_pelvis_drop_cm", m.max_pelvis_drop_cm},
          {"non_leg_joints_unchanged", m.non_leg_unchanged()},
          {"changed_non_leg_joints", m.changed_non_leg_joints}};
}

}  // namespace footfix::cli
