// Damped-least-squares Jacobian IK over one leg chain (hip, knee, ankle), with the joints'
// swing-twist limits applied every iteration. The target is a world transform of the ankle
// joint; the solve matches three points rigidly attached to it (the ankle, the toe joint and a
// point beside the ankle), so it places the foot's position and orientation together.
//
// Degrees of freedom: the hip turns freely (3), the knee about its bend axis (1), the ankle about
// its bend axis and its bone axis (2: flexion and inversion/eversion); six for the foot's six,
// so the leg cannot drift into a twisted solution frame after frame. Each iteration: the 9x6
// Jacobian J of the three points, dtheta = (J^T J + damping^2 I)^-1 J^T e, each joint's
// increment capped, local rotations clamped to their swing-twist limits, and the step halved
// until the error decreases. When no
// halving helps the solve stops: an unreachable target is approached and then held, never
// oscillated around. Allocates nothing.
#pragma once

#include <array>

#include "footfix/core/math.h"
#include "footfix/walk/joint_limits.h"

namespace footfix {

/// A leg chain prepared for the solve. Offsets and points in meters.
struct DlsLeg {
  /// Joint origins: hip in its parent's space, knee in the hip's, ankle in the knee's.
  std::array<Vec3, 3> offsets;
  std::array<LimitFrame, 3> frames;  ///< limit frames of hip, knee, ankle
  std::array<JointLimit, 3> limits;  ///< side-corrected (mirrored for the right leg)
  Vec3 toe_ls;   ///< toe joint origin in the ankle's local space
  Vec3 side_ls;  ///< helper point beside the ankle, in the ankle's local space
};

struct DlsSettings {
  int max_iterations = 100;
  double tolerance_m = 1e-5;   ///< converged when every point is this close
  double damping_m = 0.01;     ///< lambda of the damped least squares
  double max_step_rad = 0.3;   ///< largest rotation of one joint in one iteration
};

struct DlsResult {
  double error_m = 0;        ///< largest distance of the three points to their targets
  /// Target error: the largest distance of the ankle and toe joints to their targets, or of the
  /// ankle alone when the orientation is only preferred (orientation_weight < 1).
  double foot_error_m = 0;
  int iterations = 0;
  bool converged = false;    ///< foot_error_m <= tolerance_m
};

/// Solves `local` (hip, knee, ankle local rotations, in/out, also the starting pose) so the
/// ankle's world transform approaches `ankle_target`. `parent_world` is the hip's parent's world
/// transform. The result stays within the limits. `orientation_weight` 1 makes the foot's
/// orientation a hard target; below 1 (a swinging foot) the ankle position is the target and the
/// orientation is matched as well as the limits allow, weighted by it.
DlsResult solve_leg_dls(const DlsLeg& leg, const Transform& parent_world, std::array<Quat, 3>& local,
                        const Transform& ankle_target, const DlsSettings& settings = {}, double orientation_weight = 1.0);

}  // namespace footfix
