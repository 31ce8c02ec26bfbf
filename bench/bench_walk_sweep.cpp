// The procedural walk over every offered terrain kind (the terrains the tests walk) at 0.5, 0.8,
// 1.3 and 2.0 m/s and 30, 60 and 120 Hz: per walk, the deepest sole point below the terrain (mm,
// goal 0.0), the IK's largest miss of its targets (mm) and the largest stance slide (mm/frame),
// as `walk_metrics.h` measures them on the clip, and the plan's warnings. Rows over the sole goal
// are marked; the last line counts them.
// Usage: bench_walk_sweep [SECONDS]   (default 8 s per walk, `footfix walk`'s default)
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "bench_main.h"
#include "footfix/walk/walk.h"
#include "footfix/walk/walk_metrics.h"

namespace {

/// Deepest sole penetration (mm) counted as none: the IK meets its targets within about this
/// (bench_walk_gait holds its terrains to the same).
constexpr double k_sole_goal_mm = 0.05;

constexpr const char* k_terrains[] = {"flat",           "slope:10",       "slope:-10",          "slope:20",
                                      "slope:-20",      "hills",          "stairs",             "stairs-down",
                                      "stairs:0.2:0.28", "stairs-down:0.2:0.28", "stairs:0.18:0.3", "stairs-down:0.18:0.3",
                                      "stairs:0.2:0.35", "stairs-down:0.2:0.35"};
constexpr double k_speeds_mps[] = {0.5, 0.8, 1.0, 1.3, 2.0};
constexpr double k_rates_hz[] = {30, 60, 120};
constexpr double k_durations_s[] = {8, 9, 10, 11};

}  // namespace

int run(int, char**) {
  using namespace footfix;
  std::printf("%-21s %5s %5s %9s %9s %10s %5s\n", "terrain", "m/s", "Hz", "sole_mm", "ik_mm", "slide_mm", "warn");
  int over = 0, rows = 0;
  double worst_sole = 0, worst_ik = 0, worst_slide = 0;
  for (const char* spec : k_terrains) {
    const Terrain terrain = parse_terrain_spec(spec);
    for (double speed : k_speeds_mps)
      for (double fps : k_rates_hz) {
        double sole = 0, ik = 0, slide = 0;
        size_t warnings = 0;
        for (double seconds : k_durations_s) {
          WalkSettings settings;
          settings.gait.speed_mps = speed;
          settings.gait.duration_s = seconds;
          settings.fps = fps;
          const WalkResult walk = generate_walk(terrain, settings);
          const WalkMeasures m = measure_walk(walk.clip, walk.rig, terrain, walk.contacts, settings.limits);
          sole = std::max(sole, m.max_sole_penetration_mm);
          ik = std::max(ik, walk.max_ik_error_m * 1000);
          slide = std::max(slide, m.max_stance_slide_mm);
          warnings = std::max(warnings, walk.plan.warnings.size());
        }
        const bool sinks = sole > k_sole_goal_mm;
        std::printf("%-21s %5.1f %5.0f %9.3f %9.3f %10.4f %5zu%s\n", spec, speed, fps, sole, ik, slide, warnings,
                    sinks ? "  SINKS" : "");
        over += sinks;
        ++rows;
        worst_sole = std::max(worst_sole, sole);
        worst_ik = std::max(worst_ik, ik);
        worst_slide = std::max(worst_slide, slide);
      }
  }
  std::printf("worst: sole %.3f mm, IK %.3f mm, slide %.4f mm/frame\n", worst_sole, worst_ik, worst_slide);
  std::printf("%d of %d rows sink a sole point more than %.3f mm\n", over, rows, k_sole_goal_mm);
  return 0;
}

int main(int argc, char** argv) { return footfix::bench::run_main(argc, argv, "", run); }
