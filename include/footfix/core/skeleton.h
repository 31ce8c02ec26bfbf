// A skeleton as flat arrays: joint j's parent is parents[j] < j (the root's is -1), so a single
// forward loop visits parents before children.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "footfix/core/math.h"

namespace footfix {

struct Skeleton {
  std::vector<std::string> names;
  std::vector<int> parents;       ///< parents[j] < j; -1 for the root
  std::vector<Vec3> rest_offsets; ///< joint origin in its parent's space, meters (internal frame)
  /// Tip of a leaf joint ("End Site" in BVH) in that joint's own space, meters; empty if none.
  std::vector<std::optional<Vec3>> end_sites;
  /// How many of the last joints are End Sites made joints (core/end_site_joints.h): channel-less
  /// leaves at their parent's End Site offset, which writers write back as End Sites. 0 for
  /// skeletons as read.
  int end_site_joints = 0;

  int joint_count() const { return static_cast<int>(names.size()); }
  /// True if joint j is an End Site made a joint (see end_site_joints).
  bool is_end_site_joint(int j) const { return j >= joint_count() - end_site_joints; }
  /// Index of the joint named exactly `name`, or -1.
  int find(std::string_view name) const;
  /// Direct children of joint j, in index order.
  std::vector<int> children(int j) const;
  /// Appends a joint and returns its index. `parent` must be -1 or an existing joint, and the
  /// skeleton must have no End Site joints yet (they stay last).
  int add_joint(std::string name, int parent, Vec3 rest_offset);
  /// True if `ancestor` is j or one of j's ancestors.
  bool is_ancestor(int ancestor, int j) const;
};

}  // namespace footfix
