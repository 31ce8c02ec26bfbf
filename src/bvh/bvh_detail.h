// Internal to bvh/: what the BVH reader and writer share (channel names and kinds, the parsed
// hierarchy) beyond the text cursor in bvh_text.h.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "bvh_text.h"
#include "footfix/core/skeleton.h"
#include "bvh_source.h"

namespace footfix::bvh_detail {

constexpr int k_channel_kinds = 6;
/// Channel keywords indexed by BvhChannel.
constexpr const char* k_channel_names[k_channel_kinds] = {"Xposition", "Yposition", "Zposition",
                                                          "Xrotation", "Yrotation", "Zrotation"};

inline bool is_rotation(BvhChannel c) { return c >= BvhChannel::x_rotation; }
/// 0, 1, 2 for x, y, z.
inline int channel_axis(BvhChannel c) { return static_cast<int>(c) % 3; }

/// "joint 'Name'" for messages.
inline std::string joint_label(const std::string& name) { return "joint " + in_quotes(name); }

/// The HIERARCHY block as written in the file (its units and axes).
struct BvhHierarchy {
  Skeleton skeleton;                    ///< rest_offsets and end_sites raw
  std::vector<BvhJointLayout> layouts;  ///< per joint, first_value set
  int values_per_frame = 0;
  /// What the reader guessed or left out (several End Sites under one joint), one line each.
  std::vector<std::string> warnings;
};

/// A joint's rotation that the written file must state: more than this from the identity
/// (radians). Less is rounding, which a joint without rotation channels may keep.
constexpr double k_stated_rotation_rad = 1e-9;
/// How far a joint's translation may be from its OFFSET along an axis without a position channel
/// (file units): rounding, relative to the offset's length (at least one unit).
inline double unstated_translation_tolerance(const Vec3& offset) { return 1e-6 * std::max(1.0, length(offset)); }

/// Per joint of `clip` (read from `source`, End Site joints folded): whether it turns without
/// rotation channels, or moves along an axis without a position channel (no warnings).
BvhAddedChannels find_added_channels(const Clip& clip, const BvhSource& source);
/// Whether `added` is of `source`'s shape (an entry per joint).
bool fits(const BvhAddedChannels& added, const BvhSource& source);
/// Per joint of `source`, the channels its written file has: the source's own, with the missing
/// ones `added` names (Xposition Yposition Zposition first, Zrotation Yrotation Xrotation last).
/// `added` must fit `source`.
std::vector<BvhJointLayout> layouts_with_added(const BvhSource& source, const BvhAddedChannels& added);

/// Whether `clip`, just decoded from `source`, is a "positional" BVH (every OFFSET 0, three
/// position channels on every joint, every rotation 0, and bone lengths steadier read as world
/// positions than as parent-relative ones); if so, its translations are made parent-relative
/// (each joint's position less its parent's).
bool read_world_positions(Clip& clip, const BvhSource& source);

/// Reads from "HIERARCHY" through the "MOTION" keyword. Throws Error(read) with the line.
BvhHierarchy parse_bvh_hierarchy(BvhCursor& in);

}  // namespace footfix::bvh_detail
