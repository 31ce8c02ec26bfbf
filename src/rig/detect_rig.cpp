#include <algorithm>
#include <optional>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "footfix/rig/leg_rig.h"
#include "knee_axis.h"
#include "rig_geometry.h"
#include "side_names.h"

namespace footfix {
namespace {

using rig_detail::SampledPoses;

/// Most limbs of one joint considered as legs (real rigs have a handful).
constexpr size_t k_max_leg_candidates = 64;

// The chain below `start`: at each joint follow the child with the deepest subtree.
std::vector<int> limb_chain(const std::vector<std::vector<int>>& children,
                            const std::vector<int>& subtree_depth, int start) {
  std::vector<int> chain{start};
  for (int j = start; !children[j].empty();) {
    j = *std::max_element(children[j].begin(), children[j].end(),
                          [&](int a, int b) { return subtree_depth[a] < subtree_depth[b]; });
    chain.push_back(j);
  }
  return chain;
}

double bone_length(const Clip& clip, int child) { return length(clip.translation(0, child)); }

// Chooses hip/knee/heel as the start of the longest pair of consecutive bones.
LegChain leg_from_chain(const Clip& clip, const std::vector<int>& chain) {
  LegChain leg;
  double best = -1;
  for (size_t i = 0; i + 2 < chain.size(); ++i) {
    double l = bone_length(clip, chain[i + 1]) + bone_length(clip, chain[i + 2]);
    if (l > best) {
      best = l;
      leg.hip = chain[i];
      leg.knee = chain[i + 1];
      leg.heel = chain[i + 2];
      leg.toe = i + 3 < chain.size() ? chain[i + 3] : -1;
      leg.toe_end = i + 4 < chain.size() ? chain[i + 4] : -1;
    }
  }
  return leg;
}

// Length of a limb from its branch joint along its bones, pose-independent.
double chain_length(const Clip& clip, const std::vector<int>& chain) {
  double sum = 0;
  for (int j : chain) sum += bone_length(clip, j);
  return sum;
}

struct LegPair {
  int pelvis = -1;
  std::vector<int> chains[2];
};

// Legs: of all pairs of limb chains hanging from one joint with matching joint counts and
// lengths, the pair hanging from the joint nearest the root (legs hang from the pelvis, arms
// from the chest above it); among those, the longest pair.
LegPair find_leg_pair(const Clip& clip) {
  const Skeleton& sk = clip.skeleton;
  int n = sk.joint_count();
  std::vector<std::vector<int>> children(n);
  for (int j = 1; j < n; ++j)
    if (sk.parents[j] >= 0) children[sk.parents[j]].push_back(j);
  std::vector<int> depth(n, 1);
  for (int j = n - 1; j > 0; --j)
    if (sk.parents[j] >= 0) depth[sk.parents[j]] = std::max(depth[sk.parents[j]], depth[j] + 1);

  std::vector<int> root_depth(n, 0);
  for (int j = 1; j < n; ++j) root_depth[j] = sk.parents[j] >= 0 ? root_depth[sk.parents[j]] + 1 : 0;

  LegPair best;
  double best_score = 0;
  int best_depth = n + 1;
  struct Limb {
    std::vector<int> chain;
    double length = 0;
  };
  std::vector<Limb> limbs;
  for (int p = 0; p < n; ++p) {
    // Only limbs that can be legs (three joints or more, some length) are paired, and at most
    // k_max_leg_candidates of them per joint (the longest): a joint with tens of thousands of
    // children (hostile files) costs linear time, not quadratic.
    limbs.clear();
    for (int kid : children[p]) {
      std::vector<int> chain = limb_chain(children, depth, kid);
      if (chain.size() < 3) continue;
      double length = chain_length(clip, chain);
      if (length > 0) limbs.push_back({std::move(chain), length});
    }
    if (limbs.size() > k_max_leg_candidates) {
      std::vector<size_t> order(limbs.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return limbs[a].length > limbs[b].length; });
      order.resize(k_max_leg_candidates);
      std::sort(order.begin(), order.end());  // keep file order among the kept ones
      std::vector<Limb> kept;
      for (size_t i : order) kept.push_back(std::move(limbs[i]));
      limbs = std::move(kept);
    }
    for (size_t a = 0; a < limbs.size(); ++a) {
      for (size_t b = a + 1; b < limbs.size(); ++b) {
        const Limb& la = limbs[a];
        const Limb& lb = limbs[b];
        if (la.chain.size() != lb.chain.size()) continue;
        double da = la.length, db = lb.length;
        if (std::min(da, db) / std::max(da, db) < 0.75) continue;
        double score = 0.5 * (da + db);
        if (root_depth[p] < best_depth || (root_depth[p] == best_depth && score > best_score)) {
          best_depth = root_depth[p];
          best_score = score;
          best.pelvis = p;
          best.chains[0] = la.chain;
          best.chains[1] = lb.chain;
        }
      }
    }
  }
  return best;
}

std::optional<Side> chain_side_from_names(const Skeleton& sk, const std::vector<int>& chain) {
  int left = 0, right = 0;
  for (int j : chain) {
    auto s = rig_detail::side_from_name(sk.names[j]);
    if (s == Side::left) ++left;
    if (s == Side::right) ++right;
  }
  if (left > right) return Side::left;
  if (right > left) return Side::right;
  return std::nullopt;
}

// Character forward: toes point forward of heels (or knees forward of the hip-heel line).
Vec3 body_forward(const SampledPoses& poses, const std::array<LegChain, 2>& legs, Vec3 up) {
  Vec3 sum;
  for (const auto& w : poses.world) {
    for (const auto& leg : legs) {
      Vec3 v = leg.toe >= 0 ? w[leg.toe].translation - w[leg.heel].translation
                            : w[leg.knee].translation -
                                  (w[leg.hip].translation + w[leg.heel].translation) * 0.5;
      sum += rig_detail::horizontal(v, up);
    }
  }
  Vec3 fwd = normalize(sum);
  if (length(fwd) < 0.5) fwd = normalize(rig_detail::horizontal(Vec3{0, 0, 1}, up));
  return fwd;
}

// Poses sampled for the geometry of the rig (up, forward, sides): sampled when first needed.
class Poses {
 public:
  explicit Poses(const Clip& clip) : clip_(clip) {}
  const SampledPoses& get() {
    if (!poses_) poses_ = rig_detail::sample_poses(clip_, k_rig_pose_samples);
    return *poses_;
  }

 private:
  static constexpr int k_rig_pose_samples = 64;
  const Clip& clip_;
  std::optional<SampledPoses> poses_;
};

// Orders the two legs left, right: from names when both say opposite sides, else geometry
// (left = up x forward for a right-handed frame). Returns whether geometry decided.
bool assign_sides(const Clip& clip, Poses& sampled, int pelvis, std::array<LegChain, 2>& legs, const LegPair& pair) {
  auto s0 = chain_side_from_names(clip.skeleton, pair.chains[0]);
  auto s1 = chain_side_from_names(clip.skeleton, pair.chains[1]);
  if (s0 && s1 && *s0 != *s1) {
    if (*s0 == Side::right) std::swap(legs[0], legs[1]);
    return false;
  }
  const SampledPoses& poses = sampled.get();
  Vec3 up = rig_detail::dominant_up(poses, pelvis, legs[0].heel, legs[1].heel);
  Vec3 left = cross(up, body_forward(poses, legs, up));
  double side = 0;
  for (const auto& w : poses.world) side += dot(w[legs[0].hip].translation - w[legs[1].hip].translation, left);
  if (side < 0) std::swap(legs[0], legs[1]);
  return true;
}

// The joint carrying root motion: of the pelvis and its ancestors, the one whose local
// translation varies most over the clip.
int find_translation_joint(const Clip& clip, int pelvis) {
  int best = pelvis;
  double best_var = 1e-12;
  for (int j = pelvis; j >= 0; j = clip.skeleton.parents[j]) {
    Vec3 mean;
    for (int f = 0; f < clip.frame_count; ++f) mean += clip.translation(f, j);
    mean = mean / std::max(1, clip.frame_count);
    double var = 0;
    for (int f = 0; f < clip.frame_count; ++f) var += length_sq(clip.translation(f, j) - mean);
    if (var > best_var) {
      best_var = var;
      best = j;
    }
  }
  return best;
}

int joint_by_name(const Clip& clip, const std::string& name, const char* role) {
  if (name.empty()) return -1;
  int j = clip.skeleton.find(name);
  if (j < 0)
    fail(ErrorKind::process, clip.source_name + ": rig profile: " + std::string(role) + " joint '" + name +
                                 "' not in the skeleton");
  return j;
}

void apply_profile(const Clip& clip, const RigProfile& profile, Rig& rig) {
  if (int j = joint_by_name(clip, profile.pelvis, "pelvis"); j >= 0) rig.pelvis = j;
  if (int j = joint_by_name(clip, profile.translation_joint, "translation"); j >= 0) rig.translation_joint = j;
  for (int s = 0; s < 2; ++s) {
    const auto& p = profile.legs[s];
    LegChain& leg = rig.legs[s];
    if (int j = joint_by_name(clip, p.hip, "hip"); j >= 0) leg.hip = j;
    if (int j = joint_by_name(clip, p.knee, "knee"); j >= 0) leg.knee = j;
    if (int j = joint_by_name(clip, p.heel, "heel"); j >= 0) leg.heel = j;
    if (int j = joint_by_name(clip, p.toe, "toe"); j >= 0) leg.toe = j;
    if (int j = joint_by_name(clip, p.toe_end, "toe_end"); j >= 0) leg.toe_end = j;
  }
}

void check_chain(const Skeleton& sk, const LegChain& leg, Side side) {
  auto parent_ok = [&](int child, int parent) { return child < 0 || parent < 0 || sk.is_ancestor(parent, child); };
  if (!leg.valid() || !parent_ok(leg.knee, leg.hip) || !parent_ok(leg.heel, leg.knee) ||
      !parent_ok(leg.toe, leg.heel) || !parent_ok(leg.toe_end, leg.toe))
    fail(ErrorKind::process, std::string(to_string(side)) + " leg: joints do not form a hip-knee-ankle chain");
}

// One line for the legs whose contact joint is an End Site joint (find_legs_reaching_end_sites).
std::optional<std::string> end_site_contact_warning(const Skeleton& sk, const Rig& rig) {
  std::string sides, below;
  int legs = 0;
  bool no_foot = false;
  for (int s = 0; s < 2; ++s) {
    const LegChain& leg = rig.legs[s];
    if (!sk.is_end_site_joint(leg.contact_joint())) continue;
    sides += std::string(legs ? " and " : "") + to_string(static_cast<Side>(s));
    below += std::string(legs ? " and '" : "'") + sk.names[sk.parents[leg.contact_joint()]] + "'";
    no_foot = no_foot || leg.toe < 0;
    ++legs;
  }
  if (legs == 0) return std::nullopt;
  return sides + (legs == 1 ? " leg has" : " legs have") + " no toe joint" + (no_foot ? " (nor foot joint)" : "") +
         ": the End Site" + (legs == 1 ? "" : "s") + " below " + below + (legs == 1 ? " is its" : " are their") +
         " contact point" + (legs == 1 ? "" : "s");
}

// detect_rig's joints: the legs, their sides, the pelvis and the translation joint (the knee
// axes left at their default, no warnings). Sets `sides_guessed` when the geometry told the sides.
Rig find_leg_joints(const Clip& clip, const RigProfile* profile, Poses& poses, bool& sides_guessed) {
  if (clip.frame_count < 1) fail(ErrorKind::process, clip.source_name + ": clip has no frames");
  Rig rig;
  LegPair pair = find_leg_pair(clip);
  sides_guessed = false;
  if (pair.pelvis >= 0) {
    rig.pelvis = pair.pelvis;
    rig.legs = {leg_from_chain(clip, pair.chains[0]), leg_from_chain(clip, pair.chains[1])};
    sides_guessed = assign_sides(clip, poses, rig.pelvis, rig.legs, pair);
  }
  if (profile) apply_profile(clip, *profile, rig);
  if (rig.pelvis < 0 || !rig.legs[0].valid() || !rig.legs[1].valid())
    fail(ErrorKind::process, clip.source_name + ": no legs found (need two matching hip-knee-ankle chains)");
  for (int s = 0; s < 2; ++s) check_chain(clip.skeleton, rig.legs[s], static_cast<Side>(s));
  if (rig.translation_joint < 0) rig.translation_joint = find_translation_joint(clip, rig.pelvis);
  return rig;
}

}  // namespace

Rig find_legs(const Clip& clip, const RigProfile* profile) {
  Poses poses(clip);
  bool sides_guessed = false;
  return find_leg_joints(clip, profile, poses, sides_guessed);
}

Rig detect_rig(const Clip& clip, const RigProfile* profile) {
  Poses sampled(clip);
  bool sides_guessed = false;
  Rig rig = find_leg_joints(clip, profile, sampled, sides_guessed);
  const bool profile_names_hips = profile && !profile->legs[0].hip.empty() && !profile->legs[1].hip.empty();
  if (sides_guessed && !profile_names_hips)
    rig.warnings.push_back("left and right legs guessed from the pose (no joint name says a side): left is the "
                           "leg on the character's left when it faces where its toes point; pass --rig PROFILE "
                           "if the sides are swapped");
  // The body's left (up x forward), for a knee never clearly bent: found from the poses when needed.
  std::optional<Vec3> body_left;
  const auto left_ws = [&] {
    if (!body_left) {
      const SampledPoses& poses = sampled.get();
      const Vec3 up = rig_detail::dominant_up(poses, rig.pelvis, rig.legs[0].heel, rig.legs[1].heel);
      body_left = cross(up, body_forward(poses, rig.legs, up));
    }
    return *body_left;
  };
  for (int s = 0; s < 2; ++s) {
    LegChain& leg = rig.legs[s];
    const RigProfile::Leg* p = profile ? &profile->legs[s] : nullptr;
    if (p && p->knee_side_ls) {
      leg.knee_side_ls = normalize(*p->knee_side_ls);
    } else {
      auto axis = rig_detail::derive_knee_side(clip, leg, left_ws);
      leg.knee_side_ls = axis.knee_side_ls;
      if (!axis.from_bend)
        rig.warnings.push_back(std::string(to_string(static_cast<Side>(s))) +
                               " knee is never clearly bent: knee axis guessed from the body's sideways direction");
    }
    if (leg.toe < 0 && !clip.skeleton.is_end_site_joint(leg.heel))
      rig.warnings.push_back(std::string(to_string(static_cast<Side>(s))) + " leg has no toe joint ('" +
                             clip.skeleton.names[leg.heel] + "' is locked instead)");
  }
  if (auto w = end_site_contact_warning(clip.skeleton, rig)) rig.warnings.push_back(*w);
  return rig;
}

}  // namespace footfix
