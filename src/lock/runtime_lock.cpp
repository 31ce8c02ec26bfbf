#include "footfix/lock/runtime_lock.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

void RuntimeLockSettings::validate() const {
  lock.validate();
  contacts.validate();
  ik.validate();
  if (!std::isfinite(max_pelvis_drop_m) || max_pelvis_drop_m < 0 || max_pelvis_drop_m > 1)
    fail(ErrorKind::usage, "runtime lock: max_pelvis_drop_m must be in [0, 1], got " + std::to_string(max_pelvis_drop_m));
  if (!std::isfinite(pelvis_drop_time_s) || pelvis_drop_time_s <= 0 || pelvis_drop_time_s > 10)
    fail(ErrorKind::usage, "runtime lock: pelvis_drop_time_s must be in (0, 10], got " + std::to_string(pelvis_drop_time_s));
  if (!std::isfinite(pelvis_drop_lead_s) || pelvis_drop_lead_s < 0 || pelvis_drop_lead_s > 10)
    fail(ErrorKind::usage, "runtime lock: pelvis_drop_lead_s must be in [0, 10], got " + std::to_string(pelvis_drop_lead_s));
  if (!std::isfinite(heel_lift) || heel_lift < 0 || heel_lift > 1)
    fail(ErrorKind::usage, "runtime lock: heel_lift must be in [0, 1], got " + std::to_string(heel_lift));
  if (!std::isfinite(extension_slack_share) || extension_slack_share < 0 || extension_slack_share > 1)
    fail(ErrorKind::usage,
         "runtime lock: extension_slack_share must be in [0, 1], got " + std::to_string(extension_slack_share));
  if (!std::isfinite(release_miss_m) || release_miss_m <= 0)
    fail(ErrorKind::usage, "runtime lock: release_miss_m must be a finite value > 0, got " + std::to_string(release_miss_m));
  if (!std::isfinite(release_predicted_miss_m) || release_predicted_miss_m <= 0)
    fail(ErrorKind::usage, "runtime lock: release_predicted_miss_m must be a finite value > 0, got " +
                               std::to_string(release_predicted_miss_m));
  if (!std::isfinite(lift_release_height_m) || lift_release_height_m <= 0)
    fail(ErrorKind::usage, "runtime lock: lift_release_height_m must be a finite value > 0, got " +
                               std::to_string(lift_release_height_m));
  if (!std::isfinite(lift_release_speed_mps) || lift_release_speed_mps < 0)
    fail(ErrorKind::usage, "runtime lock: lift_release_speed_mps must be a finite value >= 0, got " +
                               std::to_string(lift_release_speed_mps));
  if (!std::isfinite(glitch_distance_m) || glitch_distance_m <= 0)
    fail(ErrorKind::usage, "runtime lock: glitch_distance_m must be a finite value > 0, got " +
                               std::to_string(glitch_distance_m));
  if (!std::isfinite(teleport_distance_m) || teleport_distance_m <= 0)
    fail(ErrorKind::usage,
         "runtime lock: teleport_distance_m must be a finite value > 0, got " + std::to_string(teleport_distance_m));
}

namespace {

// A pelvis drop the spring brings back under this (m) with nothing asking for one ends there.
constexpr double k_settled_drop_m = 1e-4;
// The most updates in a row a root glitch may last; a root still off its path after them has
// moved for real (the updates are no longer skipped).
constexpr int k_max_glitch_updates = 2;

// A locked toe farther than this (m) from its target is at the edge of the leg's reach (the leg
// solve's own residual on a reachable target is far smaller); only then is its next miss
// predicted (predicted_reach_miss): a toe within reach has a margin the prediction cannot see.
constexpr double k_reach_edge_m = 1e-4;

// Half the width (m) of the knee that rounds a toe target's floor (the contact joint's clamp;
// smooth_floor in ik/leg_ik.h). Clamped hard, a target that sinks below the floor at speed v
// stops within one update: at 120 Hz and 0.5 m/s, 60 m/s^2 in a single frame (a free foot whose
// input dips under the calibrated height). Over the knee the stop takes about 2 x this / v, its
// acceleration about v^2 / (2 x this); a toe exactly on the floor shows a quarter of it higher.
constexpr double k_toe_floor_knee_m = 0.005;

const Rig& checked_rig(const Rig& rig, const Skeleton& skeleton) {
  for (const LegChain& leg : rig.legs)
    if (!leg.valid() || leg.contact_joint() >= skeleton.joint_count() || leg.hip >= skeleton.joint_count())
      fail(ErrorKind::process, "runtime lock: the rig has no valid legs");
  return rig;
}

double checked_weight(double weight, const char* what) {
  if (!std::isfinite(weight) || weight < 0 || weight > 1)
    fail(ErrorKind::usage, std::string("runtime lock: ") + what + " must be in [0, 1], got " + std::to_string(weight));
  return weight;
}

}  // namespace

RuntimeLock::RuntimeLock(const Skeleton& skeleton, const Rig& rig, const std::array<LegHeights, 2>& heights,
                         const RuntimeLockSettings& settings, double fps)
    : rig_(checked_rig(rig, skeleton)),
      heights_(heights),
      settings_(settings),
      detector_(settings.contacts, fps),
      feet_{FootLock(settings.lock), FootLock(settings.lock)} {
  settings_.validate();
  pose_.skeleton = skeleton;
  pose_.fps = fps;
  pose_.resize(1);
  frame_.rotations = pose_.rotations;
  frame_.translations = pose_.translations;
}

void RuntimeLock::reset() {
  detector_.reset();
  for (auto& f : feet_) f.reset();
  drop_ = drop_velocity_ = 0;
  last_wanted_drop_ = 0;
  released_ = {};
  has_last_root_ = has_root_velocity_ = false;
  glitch_updates_ = 0;
  skipped_s_ = 0;
}

void RuntimeLock::set_ground_velocity(Vec3 velocity_mps) {
  if (!std::isfinite(velocity_mps.x) || !std::isfinite(velocity_mps.z))
    fail(ErrorKind::usage, "runtime lock: the ground velocity must be finite");
  ground_velocity_ = {velocity_mps.x, 0, velocity_mps.z};
}

void RuntimeLock::set_weight(double weight) { weight_ = checked_weight(weight, "the weight"); }

void RuntimeLock::set_foot_weight(Side side, double weight) {
  foot_weight_[static_cast<int>(side)] = checked_weight(weight, "a foot weight");
}

Vec3 RuntimeLock::root_position() const {
  const int root = rig_.translation_joint >= 0 ? rig_.translation_joint : std::max(rig_.pelvis, 0);
  return joint_world(pose_, 0, root).translation;
}

void RuntimeLock::lower_pelvis(Vec3 input_translation, double drop_m) {
  const int joint = rig_.translation_joint;
  if (joint < 0) return;
  const int parent = pose_.skeleton.parents[static_cast<size_t>(joint)];
  const Quat parent_rotation = parent >= 0 ? joint_world(pose_, 0, parent).rotation : Quat{};
  pose_.translation(0, joint) = input_translation - rotate(inverse(parent_rotation), Vec3{0, drop_m, 0});
}

double RuntimeLock::solve_legs(const std::array<FootLock::Step, 2>& steps, const std::array<double, 2>& max_extension,
                               std::array<double, 2>& miss_m) {
  double need = 0;
  for (int s = 0; s < 2; ++s) {
    const LegChain& leg = rig_.legs[s];
    const FootLock::Step& st = steps[s];
    miss_m[s] = 0;
    if (weight_ * foot_weight_[s] <= 0) continue;  // the input's leg, untouched
    // A toe out of the leg's reach may first lift its heel (the foot pitches about the toe, as in
    // a heel-off), on every frame alike so that no switch pops.
    LegIkHints hints;
    hints.foot_pitch = settings_.heel_lift;
    Vec3 target = st.position;
    target.y = smooth_floor(target.y, clamps_[s].toe_min_m, k_toe_floor_knee_m);
    miss_m[s] = solve_leg(pose_, 0, leg, target, clamps_[s], max_extension[s], settings_.ik, hints).miss_m;
    // A locked toe, or one an unlock is still blending away from its contact point, keeps the
    // pelvis down while it misses (raising it at the unlock would yank the toe off its path).
    if ((!st.locked && st.blend_weight >= 1) || miss_m[s] <= 0) continue;
    // Lowering the hip by d brings it about d x (its height over the target / their distance)
    // nearer the target (at least half of d: a leg that reaches far forward gains little).
    const Vec3 hip = joint_world(pose_, 0, leg.hip).translation;
    const double distance = length(hip - st.position);
    if (distance <= 0) continue;
    need = std::max(need, miss_m[s] / std::max(0.5, (hip.y - st.position.y) / distance));
  }
  return need;
}

void RuntimeLock::place_clamps(const std::array<FootLock::Step, 2>& steps) {
  clamps_ = heights_;
  if (!ground_) return;
  for (int s = 0; s < 2; ++s) {
    const LegChain& leg = rig_.legs[s];
    // The foot goes where its contact point is taken: its heel and tip are looked up there, moved
    // with it from the input pose (on hills the ground under the input's foot is not the ground
    // under the solved one).
    const Vec3 moved = steps[s].position - joint_world(pose_, 0, leg.contact_joint()).translation;
    const Vec3 heel = joint_world(pose_, 0, leg.heel).translation + moved, tip = foot_tip_world(pose_, 0, leg) + moved;
    clamps_[s].toe_min_m += ground_.at(steps[s].position.x, steps[s].position.z).height_m;
    clamps_[s].heel_min_m += ground_.at(heel.x, heel.z).height_m;
    clamps_[s].toe_end_min_m += ground_.at(tip.x, tip.z).height_m;
  }
}

double RuntimeLock::predicted_reach_miss(int side, double miss_m, Vec3 target, double max_extension,
                                         double last_max_extension, double dt) const {
  if (miss_m <= k_reach_edge_m || !has_root_velocity_) return miss_m;
  const Vec3 hip = joint_world(pose_, 0, rig_.legs[side].hip).translation;
  // The hip moves with the root and comes down with the pelvis drop spring.
  const Vec3 hip_velocity = root_velocity_ - Vec3{0, drop_velocity_, 0};
  const double need_growth = length(hip + hip_velocity * dt - target) - length(hip - target);
  return miss_m + std::max(0.0, need_growth - (max_extension - last_max_extension));
}

void RuntimeLock::release_out_of_reach(const std::array<FootLock::Step, 2>& steps,
                                       const std::array<double, 2>& max_extension, double dt) {
  for (int s = 0; s < 2; ++s) {
    const double last_max_extension = last_max_extension_[s];
    last_max_extension_[s] = max_extension[s];
    if (!steps[s].locked || weight_ * foot_weight_[s] < 1) continue;
    // The reach miss: the solved contact joint against its target, the target no lower than the
    // joint's floor (as the leg solve takes it; a target under the floor is no reach failure).
    const Vec3 toe = joint_world(pose_, 0, rig_.legs[s].contact_joint()).translation;
    Vec3 target = steps[s].position;
    target.y = std::max(target.y, clamps_[s].toe_min_m);
    const double miss = length(toe - target);
    // The prediction only for a settled lock: one still blending in moves its own target.
    const bool settled = steps[s].blend_weight >= 1;
    if (miss <= settings_.release_miss_m &&
        (!settled || predicted_reach_miss(s, miss, target, max_extension[s], last_max_extension, dt) <=
                         std::max(settings_.release_predicted_miss_m, settings_.release_miss_m)))
      continue;
    released_[s] = true;
    const FootLock::Step let_go = feet_[s].release(ground_velocity_);
    frame_.feet[s].locked = let_go.locked;
    frame_.feet[s].blend_weight = let_go.blend_weight;
  }
}

const RuntimeFrame& RuntimeLock::update(const PoseView& pose, double dt) { return step(pose, dt, nullptr); }

const RuntimeFrame& RuntimeLock::update(const PoseView& pose, double dt, const std::array<GivenContact, 2>& contacts) {
  return step(pose, dt, &contacts);
}

const RuntimeFrame& RuntimeLock::step(const PoseView& pose, double dt, const std::array<GivenContact, 2>* given) {
  const auto joints = static_cast<size_t>(pose_.joint_count());
  if (pose.rotations.size() != joints || pose.translations.size() != joints)
    fail(ErrorKind::usage, "runtime lock: the pose has " + std::to_string(pose.rotations.size()) + " rotations and " +
                               std::to_string(pose.translations.size()) + " translations for " +
                               std::to_string(joints) + " joints");
  std::copy(pose.rotations.begin(), pose.rotations.end(), pose_.rotations.begin());
  std::copy(pose.translations.begin(), pose.translations.end(), pose_.translations.begin());

  // A root that jumps is a teleport or a cut: start again from this frame.
  const Vec3 root = root_position();
  frame_.teleported = has_last_root_ && length(root - last_root_) > settings_.teleport_distance_m;
  if (frame_.teleported) reset();
  // A root off its path (the last velocity carried on) for an update or two is a glitch in the
  // input: show the input and let the lock's state skip those updates, so that the detector and
  // the feet never see a jump the root takes back.
  const double elapsed = skipped_s_ + dt;
  if (has_root_velocity_ && glitch_updates_ < k_max_glitch_updates &&
      length(root - (last_root_ + root_velocity_ * elapsed)) > settings_.glitch_distance_m) {
    ++glitch_updates_;
    skipped_s_ = elapsed;
    frame_.glitch = true;
    return frame_;
  }
  frame_.glitch = false;
  has_root_velocity_ = has_last_root_;
  root_velocity_ = has_last_root_ ? (root - last_root_) / elapsed : Vec3{};
  has_last_root_ = true;
  last_root_ = root;
  glitch_updates_ = 0;
  skipped_s_ = 0;
  dt = elapsed;  // the skipped updates' time passes now

  // Inputs of both legs before either is solved.
  std::array<Vec3, 2> contact_ws;
  std::array<double, 2> max_extension;
  for (int s = 0; s < 2; ++s) {
    const LegChain& leg = rig_.legs[s];
    contact_ws[s] = joint_world(pose_, 0, leg.contact_joint()).translation;
    const Vec3 hip = joint_world(pose_, 0, leg.hip).translation, knee = joint_world(pose_, 0, leg.knee).translation,
               heel = joint_world(pose_, 0, leg.heel).translation;
    const double posed = length(heel - hip), straight = length(knee - hip) + length(heel - knee);
    max_extension[s] = posed + settings_.extension_slack_share * std::max(0.0, straight - posed);
  }
  const int pelvis = rig_.pelvis >= 0 ? rig_.pelvis : std::max(rig_.translation_joint, 0);
  // Where each contact joint rests on the queried ground under it.
  std::array<double, 2> resting{};
  if (ground_)
    for (int s = 0; s < 2; ++s)
      resting[s] = ground_.at(contact_ws[s].x, contact_ws[s].z).height_m + heights_[s].toe_min_m;
  const auto& detected = detector_.update(contact_ws, joint_world(pose_, 0, pelvis).translation, dt, ground_velocity_,
                                          ground_ ? &resting : nullptr);

  std::array<FootLock::Step, 2> steps;
  for (int s = 0; s < 2; ++s) {
    RuntimeFootState& out = frame_.feet[s];
    if (given) {
      out.contact = (*given)[s].contact;
      out.contact_signal = out.contact ? 1.0 : 0.0;
    } else {
      out.contact = detected[s].contact;
      out.contact_signal = detected[s].signal;
    }
    if (!out.contact) released_[s] = false;
    // A locked toe whose input lifts off its contact point is let go now, not when the
    // detector's window ends the contact.
    const double rise_mps = has_root_velocity_ ? (contact_ws[s].y - last_contact_y_[s]) / dt : 0.0;
    last_contact_y_[s] = contact_ws[s].y;
    if (out.contact && feet_[s].locked() && rise_mps > settings_.lift_release_speed_mps &&
        contact_ws[s].y - out.contact_point_m.y > settings_.lift_release_height_m)
      released_[s] = true;
    // A contact point below the contact joint's clamp could never be reached: lock on the clamp.
    const double height =
        ground_ ? resting[s] : std::max(given ? (*given)[s].height_m : contact_ws[s].y, heights_[s].toe_min_m);
    steps[s] = feet_[s].step(contact_ws[s], out.contact && !released_[s], height, dt, ground_velocity_);
    out.locked = steps[s].locked;
    out.blend_weight = steps[s].blend_weight;
    out.contact_point_m = steps[s].contact_point;
    // The weight blends the leg's target between the input and the lock.
    const double weight = weight_ * foot_weight_[s];
    steps[s].position = contact_ws[s] + (steps[s].position - contact_ws[s]) * weight;
    out.target_m = steps[s].position;
  }

  // The pelvis drop the locked toes need, read on the input pose, then followed by the spring
  // (a drop that starts or ends at once would pop the whole body).
  const Vec3 input_translation =
      rig_.translation_joint >= 0 ? pose_.translation(0, rig_.translation_joint) : Vec3{};
  const double max_drop = settings_.max_pelvis_drop_m;
  std::array<double, 2> miss_m{};
  place_clamps(steps);
  const double wanted = solve_legs(steps, max_extension, miss_m);
  // While a settled lock holds its toe, the spring follows the need ahead by its growth over
  // pelvis_drop_lead_s: a need that grows steadily (the body running ahead) is met on time, not
  // about 2 x pelvis_drop_time_s late with the toe already let go.
  const double growth_mps = std::max(0.0, (wanted - last_wanted_drop_) / dt);
  last_wanted_drop_ = wanted;
  bool holding = false;
  for (const FootLock::Step& st : steps) holding = holding || (st.locked && st.blend_weight >= 1);
  const double lead = wanted > 0 && holding ? settings_.pelvis_drop_lead_s * growth_mps : 0.0;
  const double target = std::min(wanted + lead, max_drop), w = 1 / settings_.pelvis_drop_time_s;
  drop_velocity_ += (w * w * (target - drop_) - 2 * w * drop_velocity_) * dt;
  drop_ += drop_velocity_ * dt;
  const bool settled = target == 0 && drop_ < k_settled_drop_m;
  if (settled || drop_ <= 0 || drop_ >= max_drop) {
    drop_ = settled ? 0 : std::clamp(drop_, 0.0, max_drop);
    drop_velocity_ = 0;
  }
  if (drop_ > 0) {
    std::copy(pose.rotations.begin(), pose.rotations.end(), pose_.rotations.begin());
    lower_pelvis(input_translation, drop_);
    solve_legs(steps, max_extension, miss_m);
  }
  frame_.pelvis_drop_m = drop_;
  release_out_of_reach(steps, max_extension, dt);
  return frame_;
}

}  // namespace footfix
