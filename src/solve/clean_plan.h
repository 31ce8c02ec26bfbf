// The clean's plan: which frame the one solve of a clip runs in, decided before it runs. A clip
// may be moved onto the ground (CleanSettings::ground), have a rest or reference pose set aside
// as frame 0 (contacts/reference_pose.h), be wrapped around its seam as a cycle (solve/loop.h),
// have a pinned root carried by its planted feet (solve/pinned_root.h), or be seen from a
// treadmill's moving ground (solve/treadmill.h). plan_clean decides these in that order, each
// on the clip as the steps before it left it, and applies each to the clip as it decides it;
// clean_in_solve_frame (clean_pass.h) then cleans the clip once, and leave_solve_frame undoes
// the steps in reverse order on the result. For the clean; not installed. Internal frame
// (meters, Y up).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"
#include "footfix/core/math.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/solve/clean.h"
#include "clean_pass.h"
#include "guard_pops.h"

namespace footfix {

/// The whole clip moved down by ground_m (m) so its planted feet stand at 0.
struct GroundStep {
  double ground_m = 0;
};

/// Frame 0 (a rest or reference pose) set aside: it goes back in front as it was, with no
/// contact, and the pops are then guarded over the whole clip with `pops` and what the guard
/// needs of the clip as it was (`pop_source`); frames 1.. are cleaned with the guard off.
struct ReferenceFrameStep {
  std::vector<Quat> rotations;     ///< frame 0's local rotations
  std::vector<Vec3> translations;  ///< frame 0's local translations
  int frame_count = 0;             ///< the clip's frames, frame 0 included
  PopGuardSettings pops;
  PopGuardSource pop_source;
};

/// A cycle wrapped with `pad` frames around each end; cut back to its `frame_count` frames, its
/// last frame's legs and root height set to its first's (the root rising by source_rise_m over
/// the cycle, as in the source).
struct LoopStep {
  int frame_count = 0;
  int pad = 0;
  double source_rise_m = 0;
  std::shared_ptr<const SourceData> source;  ///< what the clip was read from (the wrap drops it)
};

/// A pinned root given the travel its planted feet imply; farthest_m: the farthest it went (m,
/// horizontal), for the warning.
struct CarryStep {
  double farthest_m = 0;
};

/// The clip seen from a ground moving at ground_velocity_mps (m/s, horizontal): its body moved
/// by -g t (t = frame / fps), and the result moved back by +g t.
struct TreadmillStep {
  Vec3 ground_velocity_mps;
  double fps = 0;
};

using CleanStep = std::variant<GroundStep, ReferenceFrameStep, LoopStep, CarryStep, TreadmillStep>;

/// A clip moved into the frame its solve runs in, with the steps that moved it.
class CleanPlan {
 public:
  /// `input`: the caller's clip; `owned` (= &input, handed over, or null): the steps and the
  /// clean then change it in place instead of a copy. `contacts`: the caller's, or null.
  CleanPlan(const Clip& input, Clip* owned, const CleanSettings& settings, const ContactResult* contacts);

  /// The steps taken, in the order they were applied to the clip.
  std::vector<CleanStep> steps;
  /// The settings of the solve's frame (each step switches off its own mode and sets what its
  /// frame needs: the pop guard off behind a set-aside frame 0, the treadmill's anchors).
  CleanSettings settings;
  /// The analysis of the clip in the solve's frame (clean_in_solve_frame's input).
  CleanAnalysis analysis;

  /// The clip as the steps have left it so far.
  const Clip& clip() const { return work_ ? *work_ : *input_; }
  /// The clip to change in place: the caller's when handed over, else a copy made on first use.
  Clip& take_clip();
  /// The clip the clean may make its output from in place (null: it copies clip()).
  Clip* owned_clip() { return work_ ? &*work_ : owned_; }
  /// The contacts to lock instead of detecting them (the caller's, moved with the clip), or null.
  const ContactResult* contacts() const { return moved_contacts_ ? &*moved_contacts_ : caller_contacts_; }
  /// The caller's contacts as the ground step moves them.
  void move_contacts_down(double ground_m);

 private:
  const Clip* input_;
  Clip* owned_;
  std::optional<Clip> work_;
  const ContactResult* caller_contacts_;
  std::optional<ContactResult> moved_contacts_;
};

/// The plan for `plan.clip()` (see the file comment), its steps applied; plan.analysis is made
/// of the clip as they leave it.
void plan_clean(CleanPlan& plan, const Rig& rig);

/// Undoes `steps` on `result` (the clean of the planned clip), last step first.
void leave_solve_frame(const std::vector<CleanStep>& steps, const Rig& rig, CleanResult& result);

}  // namespace footfix
