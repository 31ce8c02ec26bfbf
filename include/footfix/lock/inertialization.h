// Runtime foot locking, one foot: a streaming state that follows its
// input position, locks it to a contact point while the foot is planted, and hides every switch
// between the two with inertialization (the jump in position and velocity at a switch is an
// offset that decays to zero over the blend time, continuously in position and velocity): a
// cubic decay at a lock, a quintic one at an unlock (see BlendShape).
// Steps one frame at a time and never reads a future frame. Units: meters, seconds, internal
// frame (Y up). No allocation.
#pragma once

#include "footfix/core/math.h"

namespace footfix {

struct LockSettings {
  /// An unlocked foot locks only when its output is closer than this to its input (m).
  double lock_distance_m = 0.01;
  /// A locked foot unlocks when its input moves farther than this from the output (m); a foot
  /// whose unlock blend still runs locks again only within it. Held past 18 cm, a toe's unlock
  /// closes a gap too wide for its blend (on the shared clips made to slide: 2 more rows within
  /// 1.5 x the input's toe acceleration at every event than with 25 cm, and 2 more holding).
  double unlock_distance_m = 0.18;
  /// Time over which the offset of a transition decays to zero (s, > 0). The reference method
  /// uses 0.5 s; a lock keeps the foot's velocity and lets it coast about 0.15 x speed x blend
  /// time out and back before it settles, so on the shared clips made to slide (x1.25, x0.75)
  /// a short blend leaves less slide: with 0.15 s, 35% of no fix on average and 59% on the
  /// worst clip (a 30 Hz run whose contacts last five frames), against 59% and 119% with 0.5 s;
  /// the largest leg acceleration stays within 1.8 x the input's.
  double blend_time_s = 0.15;
  /// An unlock's blend lasts longer than blend_time_s where the jump it hides is large: long
  /// enough that the offset's largest acceleration (at most 5.77 x gap / T^2 + 3.94 x speed / T,
  /// the gap between the held contact point and the input, the speed the input already has)
  /// stays within this (m/s^2). Closing a 10-20 cm gap left by a body that ran ahead in 0.15 s
  /// reaches 30-70 m/s^2, several times the input's own toe-off. The output's acceleration is the
  /// input's plus the offset's: at a slow toe-off (the input's about 12 m/s^2) 6 keeps the sum
  /// within 1.5 x the input's (7 left the start-walk-stop clip's slowest at 1.54). A foot still
  /// catching up that locks is stopped within it too where a contact point up to a third of the
  /// blend ahead allows (a speed up to this x blend_time_s / 2).
  double unlock_max_accel_mps2 = 6;
  /// The longest an unlock's blend may last (s; below blend_time_s: blend_time_s). A foot whose
  /// unlock blend still runs when its next contact starts locks where it is (within
  /// unlock_distance_m of its input) rather than keep catching up across the planted phase.
  double max_unlock_blend_s = 0.45;
  /// Throws Error(usage) naming the bad field (non-finite, <= 0, or unlock < lock).
  void validate() const;
};

/// How an offset decays over its blend. Cubic: position and velocity continuous, its acceleration
/// largest at the start and stepping back to zero at the end; a lock's short blend settles the
/// foot soonest with it. Quintic: also its acceleration zero at both ends; an unlock's long blend
/// uses it, so that a foot catching up with its input neither jolts as it leaves nor as it
/// arrives (a cubic's end step, 6 x gap / T^2, landed on the next contact).
enum class BlendShape { cubic, quintic };

/// A decaying offset between what is shown and the current source.
struct Offset {
  Vec3 position;  ///< m
  Vec3 velocity;  ///< m/s
};

/// One foot's lock state.
class FootLock {
 public:
  /// Per-frame result.
  struct Step {
    Vec3 position;           ///< output (target of the leg solve), m
    Vec3 velocity;           ///< output velocity, m/s
    bool locked = false;
    /// Progress of the latest transition: 0 right at it, 1 once its blend time has passed.
    double blend_weight = 1;
    Vec3 contact_point;      ///< where the foot is (or was last) locked, m
  };

  explicit FootLock(const LockSettings& settings = {});
  /// Forgets everything: the next step starts unlocked, showing its input.
  void reset();
  /// Advances by dt (s, > 0) with the input position and whether the input says the foot is in
  /// contact; on locking, the contact point is the input with its height set to
  /// `contact_height_m`. While locked, the contact point moves with `ground_velocity` (m/s; zero:
  /// the ground stands still; a treadmill or a moving platform otherwise). The first step after
  /// reset() shows the input exactly.
  Step step(Vec3 input, bool contact, double contact_height_m, double dt, Vec3 ground_velocity = {});
  /// Lets a locked foot go at the step just taken, as if that step had unlocked it: the output
  /// there stays where it is (no jump) and blends to the input from the next step on, as any
  /// unlock (a quintic offset, unlock_max_accel_mps2). Returns that step as it now reads (not
  /// locked, blend weight 0); a foot not locked is left as it is. `ground_velocity` as given to
  /// step().
  Step release(Vec3 ground_velocity = {});

  bool locked() const { return locked_; }
  const Offset& offset() const { return offset_; }
  double time_since_transition_s() const { return time_; }

 private:
  /// Switches the source: the offset takes up the jump (the old offset still blending, read at
  /// its own blend time and shape) and decays with `shape`; the caller then sets the new blend
  /// time.
  void transition(Vec3 from_pos, Vec3 from_vel, Vec3 to_pos, Vec3 to_vel, BlendShape shape);
  /// An unlock's blend time for the current offset (LockSettings::unlock_max_accel_mps2).
  double unlock_blend_s() const;
  /// Switches to the input at the current step from `from_pos`, `from_vel` (the offset takes up
  /// the jump and decays as a quintic over unlock_blend_s()).
  void unlock(Vec3 from_pos, Vec3 from_vel);
  /// The current step's result.
  Step current_step() const;

  LockSettings settings_;
  bool started_ = false;
  bool locked_ = false;
  Vec3 position_, velocity_;
  Vec3 input_position_, input_velocity_;
  Offset offset_;
  double time_ = 0;
  double blend_s_ = 0;  ///< the latest transition's blend time (s)
  BlendShape shape_ = BlendShape::cubic;  ///< and its offset's shape
  Vec3 contact_point_;
};

}  // namespace footfix
