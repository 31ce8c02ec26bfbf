// Offline foot locking: moves the pelvis and the two contact-joint
// targets over the whole clip so that toes stay put during contacts while pelvis and toe
// velocities follow the input elsewhere. A plain job on positions only: no clip, no file, no IK.
// The caller then moves the pelvis to result.pelvis_ws and solves each leg (ik/leg_ik.h)
// towards result.toe_ws.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "footfix/core/math.h"
#include "footfix/solve/offline_solve_settings.h"

namespace footfix {

/// World-space input trajectories (meters, Y up), one entry per frame. Legs indexed by Side
/// (0 left, 1 right).
struct OfflineSolveInput {
  int frame_count = 0;
  double fps = 30;
  std::vector<Vec3> pelvis_ws;                          ///< pelvis (translation joint) position
  std::array<std::vector<Vec3>, 2> toe_ws;              ///< contact-joint position (toe or heel)
  std::array<std::vector<uint8_t>, 2> contact;          ///< 1 where the foot is in contact, else 0
  std::array<std::vector<double>, 2> contact_height_m;  ///< planted height (read where contact = 1)
  std::array<double, 2> toe_min_height_m{-1e30, -1e30};  ///< floor for non-contact toe targets
  /// Optional leg reach, per leg and frame (fast solver only; empty: no reach limit). Within a
  /// frame the pelvis carries the hip and the toe target carries the heel rigidly, so the hip to
  /// heel-target vector is (pelvis - toe) + reach_offset_m (meters, world); its length is kept
  /// at most reach_m (meters) by a stiff one-sided term: the solved targets stay in the leg's
  /// reach, and the pelvis moves (not the lock) when a planted toe would be too far.
  std::array<std::vector<Vec3>, 2> reach_offset_m;
  std::array<std::vector<double>, 2> reach_m;
  /// Throws Error(process) naming the field when sizes disagree with frame_count or values are
  /// not finite.
  void validate() const;
};

struct OfflineSolveResult {
  std::vector<Vec3> pelvis_ws;              ///< solved pelvis positions (meters, world)
  std::array<std::vector<Vec3>, 2> toe_ws;  ///< solved contact-joint targets (meters, world)
  int iterations = 0;                       ///< reference sweeps or fast Newton steps performed
  /// Largest position change in the last sweep / step (meters). For the fast solver, a value
  /// above fast_tolerance_m means it stopped at fast_max_steps without converging (the result
  /// is still the best iterate; callers may warn). When its last Newton steps converge
  /// quadratically it stops one step early, once the next step's move is predicted under
  /// fast_tolerance_m: that predicted move.
  double final_change_m = 0;
  /// True when the last step moved nothing more than fast_tolerance_m (or the next is predicted
  /// to, see final_change_m) with a settled floor set (the reference solver: always true after
  /// its sweeps). False: stopped at fast_max_steps, or no further step lowered the energy; the
  /// result is the best iterate.
  bool converged = false;
};

/// Runs the selected solver. Validates settings (Error usage) and input (Error process).
/// The fast solver accepts a step only where it lowers the energy (backtracking line search;
/// Gauss-Newton when Newton's step is not a descent), and throws Error(process) when not even
/// its first step can be taken: the input is never handed back as a solution.
/// Deterministic: the same input and settings give the same bytes out. Memory O(frames) for both
/// solvers (the fast one stores a banded factor: peak about 1.7 KB per frame up to 100,000
/// frames; longer clips are solved by the fast solver in overlapping windows of a fixed size,
/// each starting from the previous one's solution, so beyond the input and the result its memory
/// stays about 70 MB (more while a contact longer than a window is solved); the result is the
/// whole-clip solve's within micrometers).
OfflineSolveResult solve_offline(const OfflineSolveInput& input,
                                 const OfflineSolveSettings& settings);

/// The two solvers, for tests and benchmarks; solve_offline picks one by settings.solver.
OfflineSolveResult solve_offline_reference(const OfflineSolveInput& input,
                                           const OfflineSolveSettings& settings);
OfflineSolveResult solve_offline_fast(const OfflineSolveInput& input,
                                      const OfflineSolveSettings& settings);

/// The fast solver's energy (the weighted least-squares sum it minimises) at the positions of
/// `result`, for tests: every accepted step lowers it. The below-only pelvis height acts on the
/// frames the solve's first step brings down and those below their input height in `result`.
double offline_fast_energy(const OfflineSolveInput& input, const OfflineSolveSettings& settings,
                           const OfflineSolveResult& result);

}  // namespace footfix
