// Procedural walk generation speed and acceptance figures. Prints, per terrain, the time to
// generate one minute of 60 fps walking (goal: under a second) with the IK convergence and the
// walk's measures (stance slide, penetration, limit violations, knee flips, alternation).
// Also counts the heap allocations of the leg IK solve (goal: none per call).
// Usage: bench_walk [SECONDS] [FPS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>

#include "bench_main.h"
#include "footfix/walk/humanoid.h"
#include "footfix/walk/walk.h"
#include "footfix/walk/walk_body.h"
#include "footfix/walk/walk_metrics.h"

namespace {
bool g_counting = false;
long g_allocations = 0;
}  // namespace

// Counting replacements of the global allocation functions (this benchmark only).
void* operator new(std::size_t n) {
  if (g_counting) ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

/// Heap allocations made by `calls` leg solves.
long ik_allocations(int calls) {
  using namespace footfix;
  const Clip clip = make_humanoid_clip();
  const Rig rig = detect_rig(clip);
  const WalkBody body = make_walk_body(clip.skeleton, rig, default_leg_limits());
  const Transform pelvis{Quat{}, {0, 0.95, 0}};
  const Transform target{axis_angle({1, 0, 0}, 0.2), {0.1, 0.2, 0.15}};
  g_allocations = 0;
  g_counting = true;
  for (int i = 0; i < calls; ++i) {
    std::array<Quat, 3> q{};
    solve_leg_dls(body.dls[0], pelvis, q, target, DlsSettings{}, i % 2 ? 1.0 : 0.1);
  }
  const long solves = g_allocations;
  std::vector<int> probe(4);  // the counter itself works: this allocates once
  g_counting = false;
  if (g_allocations != solves + 1 || probe.size() != 4) std::printf("allocation counter not working\n");
  return g_allocations == solves + 1 ? solves : -1;
}

}  // namespace

int run(int argc, char** argv) {
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
  const long allocations = ik_allocations(1000);
  std::printf("heap allocations in 1000 leg IK solves: %ld (goal 0)\n", allocations);
  if (allocations != 0) status = 1;
  return status;
}

int main(int argc, char** argv) { return footfix::bench::run_main(argc, argv, "[SECONDS] [FPS]", run); }
