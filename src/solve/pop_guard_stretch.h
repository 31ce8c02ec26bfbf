// The pop guard's unit of work (guard_pops, solve/pop_guard.cpp): one stretch of frames, its
// corrections against the source smoothed pass by pass. Internal to solve/.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"
#include "footfix/ik/leg_ik.h"
#include "footfix/rig/leg_rig.h"
#include "guard_pops.h"

namespace footfix {

/// One stretch of frames the pop guard works on: the corrections and tracked positions of
/// [first, last], smoothed pass by pass where a joint is over its limit. The stretch's own end
/// frames are never changed (they hold the smoothing in place). Frames are read from the clip
/// only when a pass first needs them (most of a stretch is margin that is never touched).
class PopGuardStretch {
 public:
  /// `contacts` (may be null): the clean's contacts, for hold_planted_root().
  PopGuardStretch(Clip& cleaned, const Rig& rig, const PopGuardSource& source, int first, int last, const ContactResult* contacts);

  /// Checks the stretch frames `frames` (each in 1 .. size - 2) and marks, per leg, the frames
  /// around each one over the limit (clearing earlier marks); returns how many (joint, frame)
  /// pairs are over. worst_excess(): the largest acceleration found, as a multiple of its limit.
  int mark(const std::vector<int>& frames);

  /// One smoothing pass ([1 2 1] / 4) of the corrections at the marked frames (never the
  /// stretch's ends); returns the frames whose accelerations it may have changed (the changed
  /// frames and their neighbours, each in 1 .. size - 2, sorted), the next pass's to check.
  /// `shrink` (<= 1) scales the legs' smoothed corrections at the marked frames: below 1 they
  /// also ease towards none (the source's pose) there.
  std::vector<int> smooth(double shrink = 1.0);

  double worst_excess() const { return worst_excess_; }

  /// The largest acceleration anywhere in the stretch (its ends excepted), as a multiple of its
  /// limit; marks the frames over it, as mark().
  double worst_excess_anywhere();

  /// While on (and contacts were given), smooth() leaves the root's correction as it is at
  /// frames where a leg is planted and not itself over its limit (see smooth()).
  void hold_planted_root(bool on) { hold_planted_root_ = on; }

  /// While on (and contacts were given), smooth() leaves each leg's correction as it is at frames
  /// where that leg is planted, and the root's wherever a leg is planted: only the frames around
  /// a lock are smoothed, so every planted foot keeps its place.
  void hold_planted_legs(bool on) { hold_planted_legs_ = on; }

  /// While on, a smoothing step that puts a foot joint below the lowest the source puts it is
  /// taken with the root raised at that frame by as much (straight up in world space), rather
  /// than halved or dropped (see smooth()): a foot that rests on the source's floor at a pop
  /// would otherwise keep every step that smooths it from being taken.
  void lift_sunk_feet(bool on) { lift_sunk_feet_ = on; }

  /// True when the last smooth() halved or dropped a step because it put a foot joint below the
  /// source's lowest.
  bool floor_held_a_step() const { return floor_held_a_step_; }

  /// While on (and contacts were given), smooth() puts each planted leg's contact joint back
  /// where it was before any pass, by the leg's IK, at every frame it changes: the root and the
  /// legs' corrections are smoothed, and a planted leg then reaches its planted toe from the
  /// smoothed pelvis (see repin()). `keep_bend`: the root is moved along the planted legs so
  /// each keeps the knee bend the smoothing gave it; else only where a leg would have to reach
  /// farther than before the guard. Turned on before the passes read any frame.
  void repin_planted(bool on, bool keep_bend);

  /// Frames any pass has changed so far.
  int changed_frames() const { return static_cast<int>(std::count(ever_changed_.begin(), ever_changed_.end(), 1)); }

  /// Per stretch frame, how far (meters) the passes have moved leg s's contact joint where
  /// `contact` (per clip frame) says it is planted; 0 elsewhere.
  std::vector<double> planted_shifts_m(int s, const std::vector<std::uint8_t>& contact) const;

  /// The farthest of those (meters).
  double planted_shift_m(int s, const std::vector<std::uint8_t>& contact) const;

 private:
  // True when, at stretch frame f, some leg is planted (contacts_) and not marked for smoothing
  // (or held, hold_planted_legs()).
  bool holds_a_planted_leg(int f) const;

  // True when a foot joint (heel, toe, tip: every track but the knee) of stretch frame f is
  // below the lowest the source puts it.
  bool below_source(int f) const;

  // How far (m) the deepest foot joint of stretch frame f is below the lowest the source puts
  // it; 0 if none is.
  double depth_below_source(int f) const;

  // Raises the root's correction at stretch frame f (straight up in world space) by how far its
  // deepest foot joint is below the source's lowest (depth_below_source), and applies the frame
  // again.
  void lift_above_source(int f);

  // Reads stretch frame f's corrections and tracked positions from the clip, once.
  void read(int f);

  // Reads leg s's correction at stretch frame f from the clip.
  void read_leg_correction(int s, int f);

  // Writes stretch frame f's corrections into the clip, puts its planted contact joints back
  // (repin_planted()) and measures it.
  void apply(int f);

  // Solves each leg planted at stretch frame f so its contact joint is where it was before any
  // pass (the leg reaches it from where the smoothed root and hip now are, its knee bending in
  // the plane the smoothed correction gives), and takes the solved rotations (and the root's
  // move) as the corrections there.
  void repin(int f);

  // Writes the corrections of stretch frame f into the clip.
  void write(int f);

  // The contact joint's index in tracks_[s] (toe, else heel: see pop_tracked_joints).
  size_t contact_track(int s) const { return rig_->legs[s].toe >= 0 ? 2 : 1; }

  void measure(int f);

  // Pointers, not references: a stretch is copied and assigned to try passes and take them back.
  Clip* clip_;
  const Rig* rig_;
  const PopGuardSource* source_;
  const ContactResult* contacts_;
  int first_, size_;
  bool hold_planted_root_ = false;
  bool hold_planted_legs_ = false;
  bool repin_planted_ = false;
  bool lift_sunk_feet_ = false;
  bool floor_held_a_step_ = false;
  bool repin_keeps_bend_ = true;
  std::array<LegHeights, 2> heights_;  // the floors repin() keeps the feet above: the source's lowest
  LegIkSettings ik_;
  std::array<std::vector<std::vector<Vec3>>, 2> correction_;  // [leg][joint][frame] rotation vectors
  std::vector<Vec3> root_correction_;
  std::array<std::vector<int>, 2> tracks_;
  std::array<std::vector<std::vector<Vec3>>, 2> positions_;  // [leg][track][frame]
  std::array<std::vector<std::uint8_t>, 2> marked_;
  std::vector<std::uint8_t> read_, ever_changed_;
  double worst_excess_ = 0;
  std::array<std::vector<Vec3>, 2> contact_before_;  // [leg][frame]: the contact joint before any pass
  std::array<std::vector<double>, 2> extension_before_;  // [leg][frame]: |hip - heel| before any pass
};

}  // namespace footfix
