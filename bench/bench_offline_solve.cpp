// Offline solve: reference (PBD, 25000 sweeps) vs fast (Gauss-Newton + banded
// Cholesky) on a synthetic sliding walk. Prints median times, the speed ratio, the toe target
// difference and the residual contact slide of both.
// Usage: bench_offline_solve [frames=2752] [reference_runs=3] [fast_runs=21] [iterations=25000]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "bench_main.h"
#include "../tests/support/synthetic_walk.h"
#include "footfix/solve/offline_solve.h"
#include "bench_timing.h"

using namespace footfix;

namespace {

double median_seconds(int runs, const std::function<void()>& f) { return bench::median_ms(runs, f) / 1000.0; }

struct Slide {
  double max_m = 0, mean_m = 0;
};
/// Residual slide per contact interval (max distance from the interval's first frame).
Slide residual_slide(const OfflineSolveInput& in, const std::array<std::vector<Vec3>, 2>& toe) {
  Slide s;
  int count = 0;
  for (int leg = 0; leg < 2; ++leg) {
    for (auto [a, b] : test::contact_intervals(in.contact[leg])) {
      double m = 0;
      for (int i = a; i <= b; ++i) m = std::max(m, length(toe[leg][i] - toe[leg][a]));
      s.max_m = std::max(s.max_m, m);
      s.mean_m += m;
      ++count;
    }
  }
  if (count) s.mean_m /= count;
  return s;
}

}  // namespace

int run(int argc, char** argv) {
  test::SyntheticWalk walk;
  walk.frames = argc > 1 ? std::atoi(argv[1]) : 2752;
  const int reference_runs = argc > 2 ? std::atoi(argv[2]) : 3;
  const int fast_runs = argc > 3 ? std::atoi(argv[3]) : 21;
  OfflineSolveSettings ref_settings;
  ref_settings.solver = OfflineSolver::reference;
  ref_settings.reference_iterations = argc > 4 ? std::atoi(argv[4]) : 25000;
  OfflineSolveSettings fast_settings;
  if (argc > 5) fast_settings.fast_anchor = std::atof(argv[5]);
  if (argc > 6) fast_settings.fast_hard_scale = std::atof(argv[6]);
  const OfflineSolveInput in = walk.make();

  OfflineSolveResult ref, fast;
  const double t_ref =
      median_seconds(reference_runs, [&] { ref = solve_offline(in, ref_settings); });
  const double t_fast = median_seconds(fast_runs, [&] { fast = solve_offline(in, fast_settings); });

  double max_diff = 0, sum_diff = 0, max_pelvis_diff = 0;
  for (int leg = 0; leg < 2; ++leg) {
    for (int i = 0; i < in.frame_count; ++i) {
      double d = length(ref.toe_ws[leg][i] - fast.toe_ws[leg][i]);
      max_diff = std::max(max_diff, d);
      sum_diff += d;
    }
  }
  // Away from the clip ends, where the reference's slow global drift has not arrived yet.
  const int margin = std::min(120, in.frame_count / 4);
  double max_interior = 0;
  for (int leg = 0; leg < 2; ++leg)
    for (int i = margin; i < in.frame_count - margin; ++i)
      max_interior = std::max(max_interior, length(ref.toe_ws[leg][i] - fast.toe_ws[leg][i]));
  for (int i = 0; i < in.frame_count; ++i)
    max_pelvis_diff = std::max(max_pelvis_diff, length(ref.pelvis_ws[i] - fast.pelvis_ws[i]));
  const Slide s_in = residual_slide(in, in.toe_ws), s_ref = residual_slide(in, ref.toe_ws),
              s_fast = residual_slide(in, fast.toe_ws);

  std::printf("synthetic sliding walk: %d frames at %.0f fps, pelvis x%.2f\n", in.frame_count,
              in.fps, walk.slide_scale);
  std::printf("reference: %d sweeps, median %.3f s over %d runs (last sweep moved %.3g m)\n",
              ref.iterations, t_ref, reference_runs, ref.final_change_m);
  std::printf("fast:      %d Newton steps, median %.3f ms over %d runs (last step moved %.3g m)\n",
              fast.iterations, t_fast * 1e3, fast_runs, fast.final_change_m);
  std::printf("speed ratio reference / fast: %.0fx\n", t_ref / t_fast);
  std::printf(
      "toe target difference fast vs reference: max %.2f mm, mean %.2f mm; pelvis max %.2f mm\n",
      max_diff * 1e3, sum_diff / (2.0 * in.frame_count) * 1e3, max_pelvis_diff * 1e3);
  std::printf("toe target difference more than %d frames from the clip ends: max %.2f mm\n", margin,
              max_interior * 1e3);
  std::printf(
      "contact slide (max / mean per interval): input %.1f / %.1f mm, reference %.2f / %.2f mm, "
      "fast %.2f / %.2f mm\n",
      s_in.max_m * 1e3, s_in.mean_m * 1e3, s_ref.max_m * 1e3, s_ref.mean_m * 1e3,
      s_fast.max_m * 1e3, s_fast.mean_m * 1e3);

  // Scaling: the fast solver on a clip ten times longer.
  test::SyntheticWalk long_walk = walk;
  long_walk.frames = 10 * walk.frames;
  const OfflineSolveInput long_in = long_walk.make();
  const double t_long = median_seconds(std::max(1, fast_runs / 4),
                                       [&] { fast = solve_offline(long_in, fast_settings); });
  std::printf(
      "fast on %d frames: median %.1f ms (%.1f us per frame here, %.1f us per frame at %d "
      "frames)\n",
      long_in.frame_count, t_long * 1e3, t_long / long_in.frame_count * 1e6,
      t_fast / in.frame_count * 1e6, in.frame_count);
  return 0;
}

int main(int argc, char** argv) { return footfix::bench::run_main(argc, argv, "[frames=2752] [reference_runs=3] [fast_runs=21] [iterations=25000]", run); }
