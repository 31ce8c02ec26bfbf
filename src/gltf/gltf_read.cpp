// glTF -> Clip (see gltf.h).
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

#include "footfix/core/end_site_joints.h"
#include "footfix/core/error.h"
#include "footfix/core/read_file.h"
#include "footfix/gltf/gltf.h"
#include "gltf_accessor.h"
#include "gltf_nodes.h"
#include "gltf_sampler.h"
#include "gltf_source.h"

namespace footfix {
namespace fs = std::filesystem;
using gltf::fail_at;
using gltf::Json;

namespace {

/// The fastest key rate taken as the clip's rate; key intervals shorter than this are merged.
constexpr double k_max_fps = 1000.0;

enum class Path { translation, rotation, scale };

struct Channel {
  int node = 0;
  Path path = Path::translation;
  gltf::Sampler sampler;
};

size_t select_animation(const Json& animations, const std::string& wanted, const std::string& name) {
  if (animations.empty()) fail(ErrorKind::read, name + ": no animation in the file");
  if (wanted.empty()) return 0;
  for (size_t i = 0; i < animations.size(); ++i)
    if (animations[i].is_object() && animations[i].contains("name") && animations[i]["name"] == wanted) return i;
  if (std::all_of(wanted.begin(), wanted.end(), [](unsigned char c) { return std::isdigit(c); }) && wanted.size() < 9) {
    const size_t i = std::stoul(wanted);
    if (i < animations.size()) return i;
  }
  fail(ErrorKind::read, name + ": no animation '" + wanted + "' (" + std::to_string(animations.size()) +
                            " animations; `footfix inspect` lists them)");
}

gltf::Sampler read_sampler(const gltf::Document& doc, const Json& sampler, const std::string& where, Path path,
                           const ReadLimits& limits) {
  gltf::Sampler s;
  const std::string interp = sampler.contains("interpolation") && sampler["interpolation"].is_string()
                                 ? sampler["interpolation"].get<std::string>()
                                 : "LINEAR";
  if (!gltf::parse_interpolation(interp, s.interpolation))
    fail_at(doc.name, where + ".interpolation", "unknown interpolation '" + interp + "'");
  const auto input = gltf::index_member(sampler, "input", where, doc.name, UINT64_MAX, -2);
  const auto output = gltf::index_member(sampler, "output", where, doc.name, UINT64_MAX, -2);
  gltf::AccessorData times = gltf::read_accessor(doc, input, where + ".input", {1}, limits);
  gltf::AccessorData values =
      gltf::read_accessor(doc, output, where + ".output", {path == Path::rotation ? 4 : 3}, limits);
  if (times.count == 0) fail_at(doc.name, where + ".input", "no keys");
  const std::uint64_t per_key = s.interpolation == gltf::Interpolation::cubic ? 3 : 1;
  if (values.count != times.count * per_key)
    fail_at(doc.name, where, "output has " + std::to_string(values.count) + " elements for " +
                                 std::to_string(times.count) + " key times (" + std::to_string(per_key) +
                                 " per key expected)");
  for (size_t k = 0; k < times.values.size(); ++k) {
    if (!std::isfinite(times.values[k]) || (k > 0 && times.values[k] < times.values[k - 1]))
      fail_at(doc.name, where + ".input", "key time " + std::to_string(k) + " is not finite or goes back in time");
  }
  for (float v : values.values)
    if (!std::isfinite(v)) fail_at(doc.name, where + ".output", "a value is not a finite number");
  s.components = values.components;
  s.times = std::move(times.values);
  s.values = std::move(values.values);
  return s;
}

std::vector<Channel> read_channels(const gltf::Document& doc, const Json& animation, const std::string& where,
                                   const std::vector<gltf::Node>& nodes, std::vector<std::string>& warnings,
                                   const ReadLimits& limits) {
  const Json& samplers = gltf::array_member(animation, "samplers", doc.name);
  const Json& channels = gltf::array_member(animation, "channels", doc.name);
  std::vector<Channel> out;
  std::vector<size_t> first_channel_of;  // per channel read, its index in `channels`
  bool warned_weights = false;
  for (size_t i = 0; i < channels.size(); ++i) {
    const std::string at = where + ".channels[" + std::to_string(i) + "]";
    const Json& c = channels[i];
    const auto sampler = gltf::index_member(c, "sampler", at, doc.name, samplers.size(), -2);
    if (!c.contains("target") || !c["target"].is_object()) fail_at(doc.name, at + ".target", "missing");
    const Json& target = c["target"];
    if (!target.contains("node")) continue;  // targets only an extension (KHR_animation_pointer)
    const auto node = gltf::index_member(target, "node", at + ".target", doc.name, nodes.size(), -2);
    const std::string path = target.contains("path") && target["path"].is_string() ? target["path"].get<std::string>() : "";
    Channel ch;
    ch.node = static_cast<int>(node);
    if (path == "translation") ch.path = Path::translation;
    else if (path == "rotation") ch.path = Path::rotation;
    else if (path == "scale") ch.path = Path::scale;
    else {
      if (path == "weights" && !warned_weights) warnings.push_back(doc.name + ": morph target weights are not read (kept on write)");
      warned_weights = true;
      continue;
    }
    if (nodes[node].has_matrix)
      fail_at(doc.name, at, "animates node " + std::to_string(node) + ", which has a matrix (a matrix node cannot be animated)");
    // The specification allows one channel per node and path in an animation: with two, which
    // one a reader follows is undefined, and a patch of one would leave the other in charge.
    for (size_t k = 0; k < out.size(); ++k)
      if (out[k].node == ch.node && out[k].path == ch.path)
        fail_at(doc.name, at + ".target",
                "node " + std::to_string(node) + "'s " + path + " is animated by " + where + ".channels[" +
                    std::to_string(first_channel_of[k]) + "] too (a target may have one channel per animation)");
    first_channel_of.push_back(i);
    ch.sampler = read_sampler(doc, samplers[sampler], where + ".samplers[" + std::to_string(sampler) + "]", ch.path, limits);
    out.push_back(std::move(ch));
  }
  if (out.empty()) fail_at(doc.name, where, "no node is animated");
  return out;
}

/// The joints: animated and skin nodes with their ancestors and their mesh-less descendants
/// (end joints, as FBX reads them), parents before children (depth first from each root, in
/// node order).
std::vector<int> joint_nodes(const gltf::Document& doc, const std::vector<gltf::Node>& nodes,
                             const std::vector<Channel>& channels) {
  std::vector<char> wanted(nodes.size(), 0);
  auto mark = [&](int n) {
    for (; n >= 0 && !wanted[static_cast<size_t>(n)]; n = nodes[static_cast<size_t>(n)].parent) wanted[static_cast<size_t>(n)] = 1;
  };
  for (const Channel& c : channels) mark(c.node);
  const Json& skins = gltf::array_member(doc.json, "skins", doc.name);
  for (size_t s = 0; s < skins.size(); ++s) {
    const std::string where = "skins[" + std::to_string(s) + "]";
    const Json& joints = gltf::array_member(skins[s], "joints", doc.name);
    for (size_t k = 0; k < joints.size(); ++k) {
      if (!joints[k].is_number_unsigned() || joints[k].get<std::uint64_t>() >= nodes.size())
        fail_at(doc.name, where + ".joints[" + std::to_string(k) + "]", "not a node index");
      mark(joints[k].get<int>());
    }
  }
  const Json& list = gltf::array_member(doc.json, "nodes", doc.name);
  auto has_mesh = [&](int n) { return list[static_cast<size_t>(n)].contains("mesh"); };
  std::vector<int> order;
  std::vector<int> stack;
  for (size_t r = nodes.size(); r-- > 0;)
    if (nodes[r].parent < 0 && wanted[r]) stack.push_back(static_cast<int>(r));
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    order.push_back(n);
    const auto& children = nodes[static_cast<size_t>(n)].children;
    for (auto it = children.rbegin(); it != children.rend(); ++it)
      if (wanted[static_cast<size_t>(*it)] || !has_mesh(*it)) stack.push_back(*it);
  }
  return order;
}

double mean(Vec3 s) { return (s.x + s.y + s.z) / 3.0; }

/// True for a node that footfix's skeleton-only writer made of an End Site: a leaf without mesh,
/// named "<its parent's name> End Site", that no channel animates and no skin names.
bool is_end_site_node(const gltf::Document& doc, const std::vector<gltf::Node>& nodes,
                      const std::vector<Channel>& channels, int n) {
  const gltf::Node& node = nodes[static_cast<size_t>(n)];
  if (node.parent < 0 || !node.children.empty() || node.name != end_site_joint_name(nodes[static_cast<size_t>(node.parent)].name))
    return false;
  if (gltf::array_member(doc.json, "nodes", doc.name)[static_cast<size_t>(n)].contains("mesh")) return false;
  for (const Channel& c : channels)
    if (c.node == n) return false;
  for (const Json& skin : gltf::array_member(doc.json, "skins", doc.name))
    for (const Json& joint : gltf::array_member(skin, "joints", doc.name))
      if (joint == n) return false;
  return true;
}

/// The product of the uniform scales of node n's ancestors (what its translation is multiplied by).
double ancestors_scale(const std::vector<gltf::Node>& nodes, int n) {
  double scale = 1.0;
  for (int p = nodes[static_cast<size_t>(n)].parent; p >= 0; p = nodes[static_cast<size_t>(p)].parent)
    scale *= mean(nodes[static_cast<size_t>(p)].scale);
  return scale;
}

/// The rate of the shortest key interval, rounded to a whole rate where it is one within 0.1%.
/// Where that interval is the one of evenly spaced keys (a channel keyed every frame, as
/// exporters and `footfix convert` write them), the rate is that channel's key count over its
/// span instead: precise enough for the frames to fall on its float32 key times however long the
/// clip (a BVH's 0.0083333 s frames are 120.0005 fps, not 120), rounded only within float
/// round-off.
double key_rate(const std::vector<Channel>& channels) {
  double shortest = 0;
  const Channel* densest = nullptr;
  for (const Channel& c : channels) {
    if (!densest || c.sampler.times.size() > densest->sampler.times.size()) densest = &c;
    for (size_t k = 1; k < c.sampler.times.size(); ++k) {
      const double dt = static_cast<double>(c.sampler.times[k]) - c.sampler.times[k - 1];
      if (dt > 1.0 / k_max_fps * 0.999 && (shortest == 0 || dt < shortest)) shortest = dt;
    }
  }
  if (shortest == 0) return 30.0;
  // `fps` as the whole rate it is within `tolerance` (a fraction) of, else as it is.
  auto rounded = [](double fps, double tolerance) {
    const double whole = std::round(fps);
    return std::abs(fps - whole) <= tolerance * whole ? whole : fps;
  };
  const std::vector<float>& times = densest->sampler.times;
  const double span = static_cast<double>(times.back()) - times.front();
  const double even = span / static_cast<double>(times.size() - 1);
  if (times.size() > 2 && std::abs(even - shortest) <= 1e-3 * shortest) return rounded(1.0 / even, 1e-6);
  return rounded(1.0 / shortest, 1e-3);
}

Clip read_document(const fs::path& path, std::string bytes, const std::string& wanted,
                   std::vector<std::string>* warnings_out, const ReadLimits& limits) {
  auto source = std::make_shared<GltfSource>();
  source->document = gltf::load_document(path, bytes, limits);
  source->original = std::move(bytes);
  const gltf::Document& doc = source->document;
  std::vector<std::string> warnings;
  const Json& animations = gltf::array_member(doc.json, "animations", doc.name);
  for (size_t i = 0; i < animations.size(); ++i)
    source->animations.push_back(animations[i].is_object() && animations[i].contains("name") &&
                                         animations[i]["name"].is_string()
                                     ? animations[i]["name"].get<std::string>()
                                     : "");
  source->animation = select_animation(animations, wanted, doc.name);
  const std::vector<gltf::Node> nodes = gltf::read_nodes(doc);
  const std::string where = "animations[" + std::to_string(source->animation) + "]";
  const std::vector<Channel> channels =
      read_channels(doc, animations[source->animation], where, nodes, warnings, limits);

  double t0 = INFINITY, t1 = -INFINITY;
  for (const Channel& c : channels) {
    t0 = std::min<double>(t0, c.sampler.times.front());
    t1 = std::max<double>(t1, c.sampler.times.back());
  }
  if (t1 - t0 > limits.max_duration_s) fail_over_duration(doc.name + ": " + where, "lasts", t1 - t0, limits);
  Clip clip;
  clip.fps = key_rate(channels);
  // Key times are float32: the last key may fall a little short of its frame.
  const double frames = std::floor((t1 - t0) * clip.fps + 0.05) + 1;
  std::vector<int> joints = joint_nodes(doc, nodes, channels);
  std::vector<int> end_site_nodes;
  joints.erase(std::remove_if(joints.begin(), joints.end(),
                              [&](int n) {
                                if (!is_end_site_node(doc, nodes, channels, n)) return false;
                                end_site_nodes.push_back(n);
                                return true;
                              }),
               joints.end());
  check_clip_memory(limits, static_cast<std::uint64_t>(frames), joints.size(), doc.name);

  std::vector<int> joint_of(nodes.size(), -1);
  std::set<std::string> names;
  for (size_t j = 0; j < joints.size(); ++j) {
    const gltf::Node& n = nodes[static_cast<size_t>(joints[j])];
    joint_of[static_cast<size_t>(joints[j])] = static_cast<int>(j);
    std::string name = n.name;
    if (!names.insert(name).second) name += "_node" + std::to_string(joints[j]);
    names.insert(name);
    const int parent = n.parent >= 0 ? joint_of[static_cast<size_t>(n.parent)] : -1;
    clip.skeleton.add_joint(name, parent, n.translation * ancestors_scale(nodes, joints[j]));
  }
  clip.skeleton.end_sites.resize(joints.size());
  for (int n : end_site_nodes)
    clip.skeleton.end_sites[static_cast<size_t>(joint_of[static_cast<size_t>(nodes[static_cast<size_t>(n)].parent)])] =
        nodes[static_cast<size_t>(n)].translation * ancestors_scale(nodes, n);
  clip.frame_count = static_cast<int>(frames);
  clip.resize(clip.frame_count);
  source->parent_scales.assign(clip.rotations.size(), 1.0);
  std::vector<std::vector<const Channel*>> by_joint(joints.size());
  for (const Channel& c : channels)
    if (joint_of[static_cast<size_t>(c.node)] >= 0) by_joint[static_cast<size_t>(joint_of[static_cast<size_t>(c.node)])].push_back(&c);

  bool non_uniform = false;
  std::vector<double> scale(joints.size());
  for (int f = 0; f < clip.frame_count; ++f) {
    const double t = t0 + f / clip.fps;
    for (size_t j = 0; j < joints.size(); ++j) {
      const gltf::Node& n = nodes[static_cast<size_t>(joints[j])];
      Vec3 tr = n.translation, sc = n.scale;
      Quat rot = n.rotation;
      for (const Channel* c : by_joint[j]) {
        if (c->path == Path::translation) tr = c->sampler.vec3_at(t);
        else if (c->path == Path::rotation) rot = c->sampler.quat_at(t);
        else sc = c->sampler.vec3_at(t);
      }
      if (std::abs(sc.x - sc.y) > 1e-6 * std::abs(sc.x) || std::abs(sc.x - sc.z) > 1e-6 * std::abs(sc.x)) non_uniform = true;
      // Ancestors outside the joints (none: every ancestor is a joint) and joints' own scales.
      const int parent = clip.skeleton.parents[j];
      const double parent_scale = parent >= 0 ? scale[static_cast<size_t>(parent)] : 1.0;
      scale[j] = parent_scale * mean(sc);
      const size_t at = clip.index(f, static_cast<int>(j));
      source->parent_scales[at] = parent_scale;
      clip.rotations[at] = rot;
      clip.translations[at] = tr * parent_scale;
    }
  }
  if (non_uniform) warnings.push_back(doc.name + ": non-uniform node scales are read as their mean (joint positions approximate)");
  clip.space = ClipSpace::source;
  clip.source_frame = SourceFrame{1.0, Axis::pos_y};
  clip.source_frame_declared = true;
  clip.source_name = path.string();
  source->start_time_s = t0;
  source->nodes = joints;
  source->rotations = clip.rotations;
  source->translations = clip.translations;
  clip.source = source;
  if (warnings_out) warnings_out->insert(warnings_out->end(), warnings.begin(), warnings.end());
  return clip;
}

}  // namespace

Clip read_gltf(const fs::path& path, const std::string& animation, std::vector<std::string>* warnings,
               const ReadLimits& limits) {
  return read_document(path, read_file(path, limits.max_input_bytes), animation, warnings, limits);
}

Clip read_gltf_bytes(const std::string& bytes, const fs::path& path, const std::string& animation,
                     std::vector<std::string>* warnings, const ReadLimits& limits) {
  if (bytes.size() > limits.max_input_bytes) fail(ErrorKind::read, path.string() + ": over the input size limit (--max-input-size)");
  return read_document(path, bytes, animation, warnings, limits);
}

std::vector<std::string> gltf_animation_names(const Clip& clip) {
  const auto* source = dynamic_cast<const GltfSource*>(clip.source.get());
  return source ? source->animations : std::vector<std::string>{};
}

}  // namespace footfix
