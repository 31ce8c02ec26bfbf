#include "footfix/core/end_site_joints.h"

#include <cassert>

namespace footfix {
namespace {

/// The per-frame values of `from` (with `from_joints` joints per frame) for the first `keep`
/// joints, laid out for `to_joints` joints per frame; joints past `keep` get `fill`.
template <class T>
std::vector<T> relaid(const std::vector<T>& from, int frames, int from_joints, int keep, int to_joints,
                      const std::vector<T>& fill) {
  std::vector<T> out;
  out.reserve(static_cast<size_t>(frames) * static_cast<size_t>(to_joints));
  for (int f = 0; f < frames; ++f) {
    const auto row = from.begin() + static_cast<std::ptrdiff_t>(f) * from_joints;
    out.insert(out.end(), row, row + keep);
    out.insert(out.end(), fill.begin(), fill.end());
  }
  return out;
}

}  // namespace

std::string end_site_joint_name(const std::string& parent) { return parent + " End Site"; }

int add_end_site_joints(Clip& clip) {
  Skeleton& sk = clip.skeleton;
  assert(sk.end_site_joints == 0);
  const int joints = sk.joint_count();
  std::vector<bool> has_child(static_cast<size_t>(joints), false);
  for (int j = 0; j < joints; ++j)
    if (sk.parents[j] >= 0) has_child[static_cast<size_t>(sk.parents[j])] = true;
  std::vector<Vec3> offsets;
  for (int j = 0; j < joints; ++j) {
    const std::optional<Vec3> site = sk.end_sites[static_cast<size_t>(j)];
    if (!site || has_child[static_cast<size_t>(j)]) continue;
    offsets.push_back(*site);
    sk.end_sites[static_cast<size_t>(j)].reset();
    sk.add_joint(end_site_joint_name(sk.names[j]), j, *site);  // grows end_sites: no reference kept
  }
  const int added = static_cast<int>(offsets.size());
  if (added == 0) return 0;
  sk.end_site_joints = added;
  const int n = sk.joint_count();
  clip.rotations = relaid(clip.rotations, clip.frame_count, joints, joints, n, std::vector<Quat>(offsets.size()));
  clip.translations = relaid(clip.translations, clip.frame_count, joints, joints, n, offsets);
  return added;
}

Clip fold_end_site_joints(const Clip& clip) {
  const Skeleton& sk = clip.skeleton;
  const int joints = sk.joint_count(), kept = joints - sk.end_site_joints;
  Clip out = clip;  // every field; the skeleton and the per-frame values are replaced below
  Skeleton& folded = out.skeleton;
  folded.end_site_joints = 0;
  folded.names.resize(static_cast<size_t>(kept));
  folded.parents.resize(static_cast<size_t>(kept));
  folded.rest_offsets.resize(static_cast<size_t>(kept));
  folded.end_sites.resize(static_cast<size_t>(kept));
  for (int j = kept; j < joints; ++j) folded.end_sites[static_cast<size_t>(sk.parents[j])] = sk.rest_offsets[j];
  out.rotations = relaid(clip.rotations, clip.frame_count, joints, kept, kept, {});
  out.translations = relaid(clip.translations, clip.frame_count, joints, kept, kept, {});
  return out;
}

}  // namespace footfix
