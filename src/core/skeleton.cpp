#include "footfix/core/skeleton.h"

#include <cassert>

namespace footfix {

int Skeleton::find(std::string_view name) const {
  for (int j = 0; j < joint_count(); ++j)
    if (names[j] == name) return j;
  return -1;
}

std::vector<int> Skeleton::children(int j) const {
  std::vector<int> out;
  for (int c = j + 1; c < joint_count(); ++c)
    if (parents[c] == j) out.push_back(c);
  return out;
}

int Skeleton::add_joint(std::string name, int parent, Vec3 rest_offset) {
  assert(parent >= -1 && parent < joint_count());
  assert(end_site_joints == 0);  // End Site joints stay last (add_end_site_joints adds them)
  names.push_back(std::move(name));
  parents.push_back(parent);
  rest_offsets.push_back(rest_offset);
  end_sites.emplace_back();
  return joint_count() - 1;
}

bool Skeleton::is_ancestor(int ancestor, int j) const {
  for (; j >= 0; j = parents[j])
    if (j == ancestor) return true;
  return false;
}

}  // namespace footfix
