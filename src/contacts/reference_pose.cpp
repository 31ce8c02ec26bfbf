#include "footfix/contacts/reference_pose.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace footfix {
namespace {

/// The hip and knee joints of both legs of `rig` (ankles and toes are left out: mocap toes can
/// flip by 15 degrees in one frame).
std::vector<int> leg_joints(const Rig& rig) {
  std::vector<int> joints;
  for (const LegChain& leg : rig.legs)
    for (int j : {leg.hip, leg.knee})
      if (j >= 0) joints.push_back(j);
  return joints;
}

/// The largest turn (radians) of any of `joints` from frame a to frame b.
double largest_turn(const Clip& clip, const std::vector<int>& joints, int a, int b) {
  double turn = 0;
  for (int j : joints) turn = std::max(turn, angle_of(inverse(clip.rotation(a, j)) * clip.rotation(b, j)));
  return turn;
}

/// `v` with `value` put in front.
template <typename T>
std::vector<T> prepend(const std::vector<T>& v, T value) {
  std::vector<T> out;
  out.reserve(v.size() + 1);
  out.push_back(value);
  out.insert(out.end(), v.begin(), v.end());
  return out;
}

}  // namespace

bool starts_with_reference_pose(const Clip& clip, const Rig& rig) {
  if (clip.frame_count < 3) return false;
  const std::vector<int> joints = leg_joints(rig);
  if (joints.empty()) return false;
  const double jump = largest_turn(clip, joints, 0, 1);
  if (jump < k_reference_pose_min_jump_rad) return false;
  // The motion's typical turn per frame over the next second: the median, so that one fast
  // moment (a mocap spike, a quick step: turns a clean may well smooth away) does not hide the
  // jump, and the clip and its cleaned copy are judged alike.
  // At least the turn from frame 1 to 2 (frame_count >= 3), whatever rate the clip states.
  const int last = std::max(2, std::min(clip.frame_count - 1, 1 + static_cast<int>(std::lround(clip.fps))));
  std::vector<double> turns;
  for (int f = 1; f < last; ++f) turns.push_back(largest_turn(clip, joints, f, f + 1));
  const auto middle = turns.begin() + static_cast<std::ptrdiff_t>(turns.size() / 2);
  std::nth_element(turns.begin(), middle, turns.end());
  // A fast motion under way at frame 0 goes on into frame 2: a pose the legs jump from does not.
  const double next = largest_turn(clip, joints, 1, 2);
  return jump >= k_reference_pose_jump_ratio * next && jump >= k_reference_pose_jump_ratio * *middle;
}

std::string reference_pose_note(const std::string& what_was_done) {
  return "frame 0 is a rest or reference pose, not motion (the legs jump from it into frame 1): " +
         what_was_done;
}

Clip without_first_frame(const Clip& clip) {
  Clip out = clip;
  drop_first_frame(out);
  return out;
}

void drop_first_frame(Clip& clip) {
  const auto per_frame = static_cast<long>(clip.joint_count());
  clip.rotations.erase(clip.rotations.begin(), clip.rotations.begin() + per_frame);
  clip.translations.erase(clip.translations.begin(), clip.translations.begin() + per_frame);
  --clip.frame_count;
}

ContactResult with_reference_frame_prepended(const ContactResult& contacts) {
  ContactResult out = contacts;
  if (!out.ground_distance_m.empty()) out.ground_distance_m = prepend(out.ground_distance_m, 0.0);
  for (FootContacts& foot : out.feet) {
    foot.smoothed = prepend(foot.smoothed, 0.0);
    foot.contact = prepend<std::uint8_t>(foot.contact, 0);
    foot.speed_mps = prepend(foot.speed_mps, 0.0);
    foot.effective_speed_mps = prepend(foot.effective_speed_mps, 0.0);
    foot.height_above_ground_m = prepend(foot.height_above_ground_m, 0.0);
    for (ContactInterval& in : foot.intervals) {
      ++in.first_frame;
      ++in.last_frame;
    }
  }
  return out;
}

}  // namespace footfix
