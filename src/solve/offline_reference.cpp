// The reference offline solve, literally (position-based sweeps). Particles start at the input,
// rest values are the input; each sweep visits frames in order and, per frame, the pelvis pair,
// then per leg the toe pair and the pelvis-toe distance. Plain Gauss-Seidel, deterministic.
#include <algorithm>

#include "footfix/solve/offline_solve.h"

namespace footfix {
namespace {

Vec3 with_min_height(Vec3 p, double min_y) {
  p.y = std::max(p.y, min_y);
  return p;
}

/// Soft rest-offset pull of a consecutive pair: each moves by `k` towards the position that
/// restores the input offset (targets computed from the values before the move).
void pull_pair(Vec3& prev, Vec3& cur, Vec3 rest_prev, Vec3 rest_cur, double k, double min_y) {
  Vec3 target_prev = with_min_height(cur + (rest_prev - rest_cur), min_y);
  Vec3 target_cur = with_min_height(prev + (rest_cur - rest_prev), min_y);
  prev += (target_prev - prev) * k;
  cur += (target_cur - cur) * k;
}

double max_distance(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i) m = std::max(m, length(a[i] - b[i]));
  return m;
}

}  // namespace

OfflineSolveResult solve_offline_reference(const OfflineSolveInput& in,
                                           const OfflineSolveSettings& s) {
  const int n = in.frame_count;
  OfflineSolveResult r;
  r.pelvis_ws = in.pelvis_ws;
  r.toe_ws = in.toe_ws;
  std::array<std::vector<double>, 2> rest_length;
  for (int leg = 0; leg < 2; ++leg) {
    rest_length[leg].resize(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) rest_length[leg][i] = length(in.pelvis_ws[i] - in.toe_ws[leg][i]);
  }
  const double soft = s.soft_factor, hard = s.hard_factor;
  const double no_floor = -1e300;

  OfflineSolveResult before_last;
  for (int it = 0; it < s.reference_iterations; ++it) {
    if (it == s.reference_iterations - 1) before_last = r;
    for (int i = 0; i < n; ++i) {
      if (i > 0)
        pull_pair(r.pelvis_ws[i - 1], r.pelvis_ws[i], in.pelvis_ws[i - 1], in.pelvis_ws[i], soft,
                  no_floor);
      Vec3& pelvis = r.pelvis_ws[i];
      for (int leg = 0; leg < 2; ++leg) {
        std::vector<Vec3>& toe = r.toe_ws[leg];
        if (i > 0) {
          const auto& c = in.contact[leg];
          if (c[i - 1] && c[i]) {
            Vec3 mid = (toe[i - 1] + toe[i]) * 0.5;
            mid.y = 0.5 * (in.contact_height_m[leg][i - 1] + in.contact_height_m[leg][i]);
            toe[i - 1] += (mid - toe[i - 1]) * hard;
            toe[i] += (mid - toe[i]) * hard;
          } else {
            pull_pair(toe[i - 1], toe[i], in.toe_ws[leg][i - 1], in.toe_ws[leg][i], soft,
                      in.toe_min_height_m[leg]);
          }
        }
        Vec3 dir = normalize(pelvis - toe[i]);
        Vec3 pelvis_target = toe[i] + dir * rest_length[leg][i];
        Vec3 toe_target = pelvis - dir * rest_length[leg][i];
        pelvis += (pelvis_target - pelvis) * soft;
        toe[i] += (toe_target - toe[i]) * soft;
      }
    }
  }
  r.iterations = s.reference_iterations;
  r.final_change_m = std::max({max_distance(r.pelvis_ws, before_last.pelvis_ws),
                               max_distance(r.toe_ws[0], before_last.toe_ws[0]),
                               max_distance(r.toe_ws[1], before_last.toe_ws[1])});
  r.converged = true;  // the reference is defined by its sweep count, not by convergence
  return r;
}

}  // namespace footfix
