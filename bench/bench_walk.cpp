// Procedural walk generation speed and acceptance figures. Prints, per terrain, the time to
// generate one minute of 60 fps walking (goal: under a second) with the IK convergence and the
// walk's measures (stance slide, penetration, limit violations, knee flips, alternation).
// Usage: bench_walk [SECONDS] [FPS]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "footfix/walk/walk.h"
#include "footfix/walk/walk_metrics.h"

int main(int argc, char** argv) {
  using namespace footfix;
  const double seconds = argc > 1 ? std::atof(argv[1]) : 60.0;
  const double fps = argc > 2 ? std::atof(argv[2]) : 60.0;
  const char* specs[] = {"flat", "slope:10", "hills", "stairs"};
  std::printf("%-9s %7s %9s %8s %7s %7s %9s %9s %6s %5s %5s\n", "terrain", "frames", "gen_s", "ik_mm", "it_avg",
              "it_max", "slide_mm", "pen_mm", "limits", "flips", "alt");
  int status = 0;
  for (const char* spec : specs) {
    WalkSettings settings;
    settings.gait.duration_s = seconds;
    settings.fps = fps;
    const Terrain terrain = parse_terrain_spec(spec);
    const auto t0 = std::chrono::steady_clock::now();
    const WalkResult walk = generate_walk(terrain, settings);
    const double gen = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const WalkMeasures m = measure_walk(walk.clip, walk.rig, terrain, walk.contacts, settings.limits);
    std::printf("%-9s %7d %9.3f %8.4f %7.2f %7d %9.4f %9.3f %6d %5d %5d\n", spec, walk.clip.frame_count, gen,
                walk.max_ik_error_m * 1000, walk.mean_ik_iterations, walk.max_ik_iterations, m.max_stance_slide_mm,
                m.max_penetration_mm, m.limit_violations, m.knee_flips, walk.plan.alternation_breaks());
    if (gen >= 1.0 && seconds <= 60 && fps <= 60) status = 1;
  }
  std::printf("goal: one minute of 60 fps walking in under 1 s per terrain\n");
  return status;
}
