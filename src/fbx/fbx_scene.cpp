#include "fbx_scene.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace footfix::fbx {
namespace {

constexpr const char* k_helper_tag = "_$AssimpFbx$_";

template <typename Key>
std::pair<unsigned, float> bracket(const Key* keys, unsigned count, double t) {
  if (count == 1 || t <= keys[0].mTime) return {0, 0.0f};
  if (t >= keys[count - 1].mTime) return {count - 1, 0.0f};
  const Key* hi = std::upper_bound(keys, keys + count, t, [](double v, const Key& k) { return v < k.mTime; });
  auto i = static_cast<unsigned>(hi - keys - 1);
  double span = keys[i + 1].mTime - keys[i].mTime;
  return {i, span > 0 ? static_cast<float>((t - keys[i].mTime) / span) : 0.0f};
}

aiVector3D sample(const aiVectorKey* keys, unsigned count, double t, aiVector3D fallback) {
  if (count == 0) return fallback;
  auto [i, f] = bracket(keys, count, t);
  if (f == 0.0f) return keys[i].mValue;
  return keys[i].mValue + (keys[i + 1].mValue - keys[i].mValue) * f;
}

aiQuaternion sample(const aiQuatKey* keys, unsigned count, double t, aiQuaternion fallback) {
  if (count == 0) return fallback;
  auto [i, f] = bracket(keys, count, t);
  if (f == 0.0f) return keys[i].mValue;
  aiQuaternion out;
  aiQuaternion::Interpolate(out, keys[i].mValue, keys[i + 1].mValue, f);
  return out.Normalize();
}

}  // namespace

aiMatrix4x4 sample_keys(const aiVectorKey* positions, unsigned position_count, const aiQuatKey* rotations,
                        unsigned rotation_count, const aiVectorKey* scalings, unsigned scaling_count,
                        const aiMatrix4x4& fallback, double tick) {
  aiVector3D s, p;
  aiQuaternion q;
  fallback.Decompose(s, q, p);
  return aiMatrix4x4(sample(scalings, scaling_count, tick, s), sample(rotations, rotation_count, tick, q),
                     sample(positions, position_count, tick, p));
}

SceneGraph::SceneGraph(const ImportedScene& scene, const ImportedTake* take) {
  nodes.reserve(scene.nodes.size());
  for (const ImportedNode& in : scene.nodes) {
    SceneNode& s = nodes.emplace_back();
    s.name = in.name;
    s.parent = in.parent;
    s.static_local = in.transform;
    s.has_meshes = in.has_meshes;
    const std::size_t tag = s.name.find(k_helper_tag);
    s.helper = tag != std::string::npos;
    s.owner = s.helper ? s.name.substr(0, tag) : s.name;
  }
  std::unordered_map<std::string, int> by_name;
  for (int i = 0; i < static_cast<int>(nodes.size()); ++i) by_name.emplace(nodes[i].name, i);
  if (take)
    for (const ImportedChannel& channel : take->channels) {
      auto it = by_name.find(channel.node);
      if (it != by_name.end()) nodes[it->second].channel = &channel;
    }
  for (auto& n : nodes) {
    n.base = n.parent;
    if (n.helper || !n.channel) continue;
    while (n.base > 0 && nodes[n.base].helper && nodes[n.base].owner == n.name) n.base = nodes[n.base].parent;
  }
}

void SceneGraph::evaluate(double tick, bool animated, std::vector<aiMatrix4x4>& world) const {
  world.resize(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const SceneNode& n = nodes[i];
    aiMatrix4x4 local = n.static_local;
    if (animated && n.sampler) local = n.sampler->local(tick);
    else if (animated && n.channel)
      local = sample_keys(*n.channel, n.static_local, tick);
    // At rest, a joint whose channel bypasses its helpers still composes them: the static
    // transforms of helpers and joint together are the rest pose.
    int base = animated ? n.base : n.parent;
    world[i] = base < 0 ? local : world[static_cast<std::size_t>(base)] * local;
  }
}

aiMatrix4x4 sample_keys(const ImportedChannel& channel, const aiMatrix4x4& fallback, double tick) {
  return sample_keys(channel.positions.data(), static_cast<unsigned>(channel.positions.size()),
                     channel.rotations.data(), static_cast<unsigned>(channel.rotations.size()),
                     channel.scalings.data(), static_cast<unsigned>(channel.scalings.size()), fallback, tick);
}

void key_range(const ImportedTake& take, double& first, double& last) {
  first = std::numeric_limits<double>::infinity();
  last = -first;
  auto visit = [&](const auto& keys) {
    if (keys.empty()) return;
    first = std::min(first, keys.front().mTime);
    last = std::max(last, keys.back().mTime);
  };
  for (const ImportedChannel& ch : take.channels) {
    visit(ch.positions);
    visit(ch.rotations);
    visit(ch.scalings);
  }
}

}  // namespace footfix::fbx
