#include "footfix/lock/lock_clip.h"

#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "footfix/lock/stance_heights.h"

namespace footfix {
namespace {

void size_tracks(FootLockTrack& t, int frames) {
  const auto n = static_cast<size_t>(frames);
  t.contact.assign(n, 0);
  t.locked.assign(n, 0);
  t.blend_weight.assign(n, 1.0);
  t.contact_point_m.assign(n, Vec3{});
  t.has_contact_point.assign(n, 0);
}

/// Per frame, the height of the contact interval covering it (0 outside contacts).
std::vector<double> interval_heights(const FootContacts& foot, int frames) {
  std::vector<double> h(static_cast<size_t>(frames), 0.0);
  for (const auto& in : foot.intervals)
    for (int f = in.first_frame; f <= in.last_frame && f < frames; ++f) h[f] = in.height_m;
  return h;
}

}  // namespace

LockClipResult lock_clip(const Clip& clip, const Rig& rig, const RuntimeLockSettings& settings,
                         const ContactResult* contacts, std::optional<Vec3> ground_velocity_mps,
                         GroundQuery ground) {
  settings.validate();
  if (clip.frame_count < 1) fail(ErrorKind::process, clip.source_name + ": clip has no frames");
  for (const LegChain& leg : rig.legs)
    if (!leg.valid()) fail(ErrorKind::process, clip.source_name + ": lock: the rig has no valid legs");
  if (contacts)
    for (const auto& foot : contacts->feet)
      if (foot.contact.size() != static_cast<size_t>(clip.frame_count))
        fail(ErrorKind::process, clip.source_name + ": lock: the given contacts have " +
                                     std::to_string(foot.contact.size()) + " frames, the clip " +
                                     std::to_string(clip.frame_count));

  LockClipResult result;
  result.locked = clip;
  result.offline_contacts = contacts != nullptr;
  for (auto& t : result.feet) size_tracks(t, clip.frame_count);
  RuntimeLock runtime(clip.skeleton, rig, opening_leg_heights(clip, rig, k_calibration_s, ground), settings, clip.fps);
  runtime.set_ground(ground);
  if (!ground_velocity_mps && contacts) ground_velocity_mps = contacts->ground_velocity_mps;
  if (ground_velocity_mps) runtime.set_ground_velocity(*ground_velocity_mps);
  result.onset_delay_frames = runtime.detector().onset_delay_frames(clip.fps);
  result.release_delay_frames = runtime.detector().release_delay_frames(clip.fps);
  if (clip.frame_count < 2) {
    result.warnings.push_back("one frame: nothing to lock, the clip is left unchanged");
    return result;
  }
  std::array<std::vector<double>, 2> heights;
  if (contacts)
    for (int s = 0; s < 2; ++s) heights[s] = interval_heights(contacts->feet[s], clip.frame_count);

  const auto joints = static_cast<size_t>(clip.joint_count());
  const double dt = clip.frame_time();
  for (int f = 0; f < clip.frame_count; ++f) {
    const size_t first = clip.index(f, 0);
    PoseView pose{{clip.rotations.data() + first, joints}, {clip.translations.data() + first, joints}};
    const RuntimeFrame* out;
    if (contacts) {
      std::array<GivenContact, 2> given;
      for (int s = 0; s < 2; ++s) given[s] = {contacts->feet[s].contact[f] != 0, heights[s][f]};
      out = &runtime.update(pose, dt, given);
    } else {
      out = &runtime.update(pose, dt);
    }
    std::copy(out->rotations.begin(), out->rotations.end(), result.locked.rotations.begin() + static_cast<long>(first));
    std::copy(out->translations.begin(), out->translations.end(),
              result.locked.translations.begin() + static_cast<long>(first));
    for (int s = 0; s < 2; ++s) {
      const RuntimeFootState& st = out->feet[s];
      FootLockTrack& t = result.feet[s];
      t.contact[f] = st.contact ? 1 : 0;
      t.locked[f] = st.locked ? 1 : 0;
      t.blend_weight[f] = st.blend_weight;
      t.has_contact_point[f] = st.locked || (f > 0 && t.has_contact_point[f - 1]) ? 1 : 0;
      t.contact_point_m[f] = st.contact_point_m;
    }
  }
  if (clip.frame_count * clip.frame_time() >= k_lock_expected_within_s && count_locks(result) == 0)
    result.warnings.push_back(ground_velocity_mps
                                  ? "no foot was locked on the given ground velocity"
                                  : "no foot was locked: if the clip plays in place, give the ground's velocity "
                                    "(footfix lock --ground-velocity X,Z)");
  return result;
}

int count_locks(const LockClipResult& result) {
  int locks = 0;
  for (const FootLockTrack& t : result.feet)
    for (size_t f = 0; f < t.locked.size(); ++f) locks += t.locked[f] && (f == 0 || !t.locked[f - 1]) ? 1 : 0;
  return locks;
}

double locked_share_of_contacts(const LockClipResult& result) {
  long contact = 0, locked = 0;
  for (const FootLockTrack& t : result.feet)
    for (size_t f = 0; f < t.contact.size(); ++f) {
      contact += t.contact[f];
      locked += t.contact[f] && t.locked[f] ? 1 : 0;
    }
  return contact > 0 ? static_cast<double>(locked) / static_cast<double>(contact) : 0.0;
}

LockHold lock_hold(const LockClipResult& result, const Rig& rig) {
  LockHold hold;
  const Clip& clip = result.locked;
  std::vector<Vec3> contact(static_cast<size_t>(clip.frame_count));
  for (int s = 0; s < 2; ++s) {
    const FootLockTrack& t = result.feet[s];
    joint_trajectory(clip, rig.legs[s].contact_joint(), contact);
    for (int f = 0; f < clip.frame_count; ++f) {
      if (!t.locked[f] || t.blend_weight[f] < 1.0) continue;
      const double miss = length(contact[static_cast<size_t>(f)] - t.contact_point_m[f]);
      ++hold.settled_frames;
      hold.held_frames += miss <= k_lock_hold_tolerance_m ? 1 : 0;
      hold.max_miss_m = std::max(hold.max_miss_m, miss);
    }
  }
  return hold;
}

}  // namespace footfix
