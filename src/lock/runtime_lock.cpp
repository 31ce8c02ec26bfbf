#include "footfix/lock/runtime_lock.h"

#include <algorithm>
#include <string>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"

namespace footfix {

void RuntimeLockSettings::validate() const {
  lock.validate();
  contacts.validate();
  ik.validate();
}

namespace {

const Rig& checked_rig(const Rig& rig, const Skeleton& skeleton) {
  for (const LegChain& leg : rig.legs)
    if (!leg.valid() || leg.contact_joint() >= skeleton.joint_count() || leg.hip >= skeleton.joint_count())
      fail(ErrorKind::process, "runtime lock: the rig has no valid legs");
  return rig;
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

  // Inputs of both legs before either is solved.
  std::array<Vec3, 2> contact_ws;
  std::array<double, 2> max_extension;
  for (int s = 0; s < 2; ++s) {
    const LegChain& leg = rig_.legs[s];
    contact_ws[s] = joint_world(pose_, 0, leg.contact_joint()).translation;
    max_extension[s] =
        length(joint_world(pose_, 0, leg.heel).translation - joint_world(pose_, 0, leg.hip).translation);
  }
  const int pelvis = rig_.pelvis >= 0 ? rig_.pelvis : std::max(rig_.translation_joint, 0);
  const auto& detected = detector_.update(contact_ws, joint_world(pose_, 0, pelvis).translation, dt);

  for (int s = 0; s < 2; ++s) {
    RuntimeFootState& out = frame_.feet[s];
    if (given) {
      out.contact = (*given)[s].contact;
      out.contact_signal = out.contact ? 1.0 : 0.0;
    } else {
      out.contact = detected[s].contact;
      out.contact_signal = detected[s].signal;
    }
    const double height = given ? (*given)[s].height_m : contact_ws[s].y;
    const FootLock::Step st = feet_[s].step(contact_ws[s], out.contact, height, dt);
    out.locked = st.locked;
    out.blend_weight = st.blend_weight;
    out.target_m = st.position;
    out.contact_point_m = st.contact_point;
    solve_leg(pose_, 0, rig_.legs[s], st.position, heights_[s], max_extension[s], settings_.ik);
  }
  return frame_;
}

}  // namespace footfix
