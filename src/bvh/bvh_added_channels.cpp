// The channels a cleaned clip needs beyond those of the BVH file it was read from: a joint the
// file gives no rotation channels (a Kinect recorder's foot, "CHANNELS 0") that the clean turns,
// a root without position channels that the clean moves. write_bvh gives them channels instead
// of refusing the clip.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "bvh_detail.h"
#include "footfix/core/conventions.h"
#include "footfix/core/end_site_joints.h"

namespace footfix {
namespace bvh_detail {
namespace {

bool has_axis_position(const BvhJointLayout& layout, int axis) {
  return std::any_of(layout.channels.begin(), layout.channels.end(),
                     [axis](BvhChannel c) { return !is_rotation(c) && channel_axis(c) == axis; });
}

bool rotates(const BvhJointLayout& layout) { return std::any_of(layout.channels.begin(), layout.channels.end(), is_rotation); }

// Checks the watched joints' values at frame f for a motion their file cannot say: a joint
// found to have one is set in `found` and no longer watched. `value(f, joint)` is the value,
// `unsaid(watch, value)` whether the file cannot say it. A value equal to the last one checked
// is not checked again: a joint at rest keeps one, checked (and converted) once.
template <class Watch, class Value, class Unsaid>
void check_frame(int f, std::vector<Watch>& watched, std::vector<bool>& found, Value value, Unsaid unsaid) {
  for (size_t i = 0; i < watched.size();) {
    Watch& w = watched[i];
    const auto v = value(f, w.joint);
    if (f > 0 && v == w.last) {
      ++i;
      continue;
    }
    w.last = v;
    if (unsaid(w, v)) {
      found[static_cast<size_t>(w.joint)] = true;
      w = watched.back();
      watched.pop_back();
    } else {
      ++i;
    }
  }
}

}  // namespace

BvhAddedChannels find_added_channels(const Clip& clip, const BvhSource& source) {
  struct Moves {  // a joint with an axis without a position channel
    int joint;
    Vec3 offset;
    std::array<bool, 3> stated;  // a position channel sets the axis
    double tolerance;
    Vec3 last;  // the translation last checked
  };
  struct Turns {  // a joint without rotation channels
    int joint;
    Quat last;  // the rotation last checked
  };
  std::vector<Moves> moves;
  std::vector<Turns> turns;
  for (size_t j = 0; j < source.joints.size() && j < static_cast<size_t>(clip.joint_count()); ++j) {
    const BvhJointLayout& layout = source.joints[j];
    const int joint = static_cast<int>(j);
    if (!rotates(layout)) turns.push_back({joint, Quat{}});
    const std::array<bool, 3> stated{has_axis_position(layout, 0), has_axis_position(layout, 1), has_axis_position(layout, 2)};
    if (stated[0] && stated[1] && stated[2]) continue;
    const Vec3 offset = source.raw_offsets[j];
    moves.push_back({joint, offset, stated, unstated_translation_tolerance(offset), Vec3{}});
  }
  BvhAddedChannels added;
  added.position.assign(source.joints.size(), false);
  added.rotation.assign(source.joints.size(), false);
  const SourceFrame to_file = clip.values_to_file();
  // One pass over the frames in memory order: a pass per joint would stride across the whole
  // clip once for each.
  for (int f = 0; f < clip.frame_count && !(moves.empty() && turns.empty()); ++f) {
    check_frame(f, moves, added.position, [&clip](int g, int j) { return clip.translation(g, j); },
                [&to_file](const Moves& m, const Vec3& t) {
                  const Vec3 file_t = point_to_source(to_file, t);
                  for (int axis = 0; axis < 3; ++axis)
                    if (!m.stated[axis] && !(std::abs(at(file_t, axis) - at(m.offset, axis)) <= m.tolerance)) return true;
                  return false;
                });
    check_frame(f, turns, added.rotation, [&clip](int g, int j) { return clip.rotation(g, j); },
                [&to_file](const Turns&, const Quat& q) { return angle_of(rotation_to_source(to_file, q)) > k_stated_rotation_rad; });
  }
  return added;
}

std::vector<BvhJointLayout> layouts_with_added(const BvhSource& source, const BvhAddedChannels& added) {
  using C = BvhChannel;
  std::vector<BvhJointLayout> layouts = source.joints;
  for (size_t j = 0; j < layouts.size(); ++j) {
    BvhJointLayout& layout = layouts[j];
    if (added.position[j]) {
      std::erase_if(layout.channels, [](C c) { return !is_rotation(c); });
      layout.channels.insert(layout.channels.begin(), {C::x_position, C::y_position, C::z_position});
    }
    if (added.rotation[j]) layout.channels.insert(layout.channels.end(), {C::z_rotation, C::y_rotation, C::x_rotation});
  }
  return layouts;
}

bool fits(const BvhAddedChannels& added, const BvhSource& source) {
  return added.position.size() == source.joints.size() && added.rotation.size() == source.joints.size();
}

}  // namespace bvh_detail

BvhAddedChannels bvh_added_channels(const Clip& clip) {
  if (clip.skeleton.end_site_joints > 0) return bvh_added_channels(fold_end_site_joints(clip));
  const auto* source = dynamic_cast<const BvhSource*>(clip.source.get());
  if (source == nullptr || source->joints.size() != static_cast<size_t>(clip.joint_count())) return {};
  BvhAddedChannels added = bvh_detail::find_added_channels(clip, *source);
  const std::vector<BvhJointLayout> layouts = bvh_detail::layouts_with_added(*source, added);
  std::string joints;
  int count = 0;
  for (size_t j = 0; j < layouts.size(); ++j) {
    if (!added.position[j] && !added.rotation[j]) continue;
    std::string channels;
    for (BvhChannel c : layouts[j].channels) channels += std::string(channels.empty() ? "" : " ") + bvh_detail::k_channel_names[static_cast<int>(c)];
    joints += (count++ ? ", " : "") + bvh_detail::in_quotes(clip.skeleton.names[j]) + " (" + channels + ")";
  }
  if (count > 0)
    added.warnings.push_back("the written motion moves " + std::to_string(count) +
                             " joint(s) where the file gives them no channel; the written file gives them channels: " + joints);
  return added;
}

}  // namespace footfix
