#include "footfix/walk/leg_dls.h"

#include <algorithm>
#include <cmath>

#include "leg_dls_points.h"

namespace footfix {
namespace {


constexpr int k_n = 6;     // hip: 3 world axes; knee: its bend axis; ankle: its bend and bone axes
using Mat = std::array<double, k_n * k_n>;
using VecN = std::array<double, k_n>;

struct ChainPose {
  std::array<Transform, 3> world;  // hip, knee, ankle
  std::array<Vec3, 3> points;      // ankle, toe, side
};

ChainPose forward(const DlsLeg& leg, const Transform& parent, const std::array<Quat, 3>& local) {
  ChainPose p;
  Transform t = parent;
  for (int j = 0; j < 3; ++j) {
    t = t * Transform{local[j], leg.offsets[j]};
    p.world[j] = t;
  }
  p.points = dls_effector_points(leg, p.world[2]);
  return p;
}

double max_error(const std::array<Vec3, 3>& a, const std::array<Vec3, 3>& b, int count) {
  double e = 0;
  for (int i = 0; i < count; ++i) e = std::max(e, length(a[i] - b[i]));
  return e;
}

double squared_error(const std::array<Vec3, 3>& a, const std::array<Vec3, 3>& b, double w2) {
  return length_sq(a[0] - b[0]) + w2 * (length_sq(a[1] - b[1]) + length_sq(a[2] - b[2]));
}

/// Solves the SPD system a x = b in place (Cholesky); returns false if not positive definite.
bool cholesky_solve(Mat& a, VecN& b) {
  for (int j = 0; j < k_n; ++j) {
    double d = a[j * k_n + j];
    for (int k = 0; k < j; ++k) d -= a[j * k_n + k] * a[j * k_n + k];
    if (d <= 0) return false;
    const double l = std::sqrt(d);
    a[j * k_n + j] = l;
    for (int i = j + 1; i < k_n; ++i) {
      double s = a[i * k_n + j];
      for (int k = 0; k < j; ++k) s -= a[i * k_n + k] * a[j * k_n + k];
      a[i * k_n + j] = s / l;
    }
  }
  for (int i = 0; i < k_n; ++i) {
    double s = b[i];
    for (int k = 0; k < i; ++k) s -= a[i * k_n + k] * b[k];
    b[i] = s / a[i * k_n + i];
  }
  for (int i = k_n - 1; i >= 0; --i) {
    double s = b[i];
    for (int k = i + 1; k < k_n; ++k) s -= a[k * k_n + i] * b[k];
    b[i] = s / a[i * k_n + i];
  }
  return true;
}

Quat exp_map(Vec3 w) {
  const double angle = length(w);
  return angle > 1e-300 ? axis_angle(w / angle, angle) : Quat{};
}

}  // namespace

std::array<Vec3, 3> dls_effector_points(const DlsLeg& leg, const Transform& a) {
  return {a.translation, apply(a, leg.toe_ls), apply(a, leg.side_ls)};
}

namespace {

/// Damped-least-squares iterations with the toe and side points weighted by `w` (the ankle point
/// by 1) until `done(pose)`, no progress, or the iteration budget is spent.
template <typename Done>
void iterate(const DlsLeg& leg, const Transform& parent_world, std::array<Quat, 3>& local, ChainPose& pose,
             const std::array<Vec3, 3>& target, double w, const DlsSettings& settings, int& iterations, Done done) {
  const double w2 = w * w;
  const double lambda2 = settings.damping_m * settings.damping_m;
  double sse = squared_error(pose.points, target, w2);
  while (!done(pose) && iterations < settings.max_iterations) {
    ++iterations;
    // Jacobian: the motion of every point for a unit rotation about each free axis (world).
    const std::array<Vec3, k_n> axes = {Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1},
                                        rotate(pose.world[0].rotation, leg.frames[1].swing_x_axis),
                                        rotate(pose.world[1].rotation, leg.frames[2].swing_x_axis),
                                        rotate(pose.world[2].rotation, leg.frames[2].bone_axis)};
    constexpr int k_joint_of[k_n] = {0, 0, 0, 1, 2, 2};
    std::array<std::array<Vec3, k_n>, 3> jac{};  // [point][column]
    std::array<Vec3, 3> err{};
    for (int i = 0; i < 3; ++i) {
      const double weight = i == 0 ? 1.0 : w;
      err[i] = (target[i] - pose.points[i]) * weight;
      for (int c = 0; c < k_n; ++c) {
        const int j = k_joint_of[c];
        if (j == 2 && i == 0) continue;  // the ankle point does not move with the ankle's rotation
        jac[i][c] = cross(axes[c], pose.points[i] - pose.world[j].translation) * weight;
      }
    }
    Mat jtj{};
    VecN step{};
    for (int r = 0; r < k_n; ++r) {
      for (int c = 0; c <= r; ++c) {
        double v = 0;
        for (int i = 0; i < 3; ++i) v += dot(jac[i][r], jac[i][c]);
        jtj[r * k_n + c] = jtj[c * k_n + r] = v + (r == c ? lambda2 : 0.0);
      }
      for (int i = 0; i < 3; ++i) step[r] += dot(jac[i][r], err[i]);
    }
    if (!cholesky_solve(jtj, step)) return;
    // Cap the largest joint rotation of the iteration (scaling the whole step keeps its direction).
    const double hip = std::sqrt(step[0] * step[0] + step[1] * step[1] + step[2] * step[2]);
    const double ankle = std::sqrt(step[4] * step[4] + step[5] * step[5]);
    const double largest = std::max({hip, std::abs(step[3]), ankle});
    if (largest > settings.max_step_rad)
      for (double& v : step) v *= settings.max_step_rad / largest;
    // Apply with backtracking: accept the first (halved) step that lowers the error.
    bool improved = false;
    double scale = 1.0;
    for (int attempt = 0; attempt < 10 && !improved; ++attempt, scale *= 0.5) {
      std::array<Quat, 3> trial;
      const Quat parent_rot = parent_world.rotation;
      const Quat hip_delta = exp_map(Vec3{step[0], step[1], step[2]} * scale);
      trial[0] = inverse(parent_rot) * hip_delta * parent_rot * local[0];
      trial[1] = axis_angle(leg.frames[1].swing_x_axis, step[3] * scale) * local[1];
      trial[2] = axis_angle(leg.frames[2].swing_x_axis, step[4] * scale) * local[2] *
                 axis_angle(leg.frames[2].bone_axis, step[5] * scale);
      for (int j = 0; j < 3; ++j) trial[j] = clamp_to_limit(normalize(trial[j]), leg.limits[j], leg.frames[j]);
      const ChainPose trial_pose = forward(leg, parent_world, trial);
      const double e = squared_error(trial_pose.points, target, w2);
      if (e < sse) {
        improved = sse - e > 1e-14 * (1 + sse);
        local = trial;
        pose = trial_pose;
        sse = e;
        if (!improved) return;  // progress below numerical noise: stop
      }
    }
    if (!improved) return;
  }
}

}  // namespace

DlsResult solve_leg_dls(const DlsLeg& leg, const Transform& parent_world, std::array<Quat, 3>& local,
                        const Transform& ankle_target, const DlsSettings& settings, double orientation_weight) {
  const double w = std::clamp(orientation_weight, 0.0, 1.0);
  const std::array<Vec3, 3> target = dls_effector_points(leg, ankle_target);
  for (int j = 0; j < 3; ++j) local[j] = clamp_to_limit(local[j], leg.limits[j], leg.frames[j]);
  ChainPose pose = forward(leg, parent_world, local);
  DlsResult result;
  const double tol = settings.tolerance_m;
  auto all_reached = [&](const ChainPose& p) { return max_error(p.points, target, 3) <= tol; };
  auto ankle_reached = [&](const ChainPose& p) { return max_error(p.points, target, 1) <= tol; };
  if (w >= 1.0) {
    iterate(leg, parent_world, local, pose, target, 1.0, settings, result.iterations, all_reached);
  } else {
    // The orientation as well as the limits allow, then the ankle position exactly.
    iterate(leg, parent_world, local, pose, target, w, settings, result.iterations, all_reached);
    iterate(leg, parent_world, local, pose, target, 0.0, settings, result.iterations, ankle_reached);
  }
  result.error_m = max_error(pose.points, target, 3);
  result.foot_error_m = max_error(pose.points, target, w >= 1.0 ? 2 : 1);
  result.converged = result.foot_error_m <= tol;
  return result;
}

}  // namespace footfix
