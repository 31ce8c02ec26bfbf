// Clip -> glTF: a patch of the source glTF, or a skeleton-only file (see gltf.h).
#include <sstream>

#include "core/json_text.h"
#include "footfix/core/conventions.h"
#include "footfix/core/end_site_joints.h"
#include "footfix/core/error.h"
#include "footfix/gltf/gltf.h"
#include "gltf_append.h"
#include "gltf_patch.h"
#include "gltf_source.h"

namespace footfix {
using gltf::Json;

namespace {

/// The clip's transforms in metres and Y up whatever space it is in (glTF's frame).
void metric_frame(const Clip& clip, int f, int j, Quat& r, Vec3& t) {
  r = clip.rotation(f, j);
  t = clip.translation(f, j);
  if (clip.space == ClipSpace::source) {
    r = rotation_to_internal(clip.source_frame, r);
    t = point_to_internal(clip.source_frame, t);
  }
}

/// Adds a channel (node, path) to `animation` driven by a new LINEAR sampler of `input` and `output`.
void add_sampled_channel(Json& animation, int node, const char* path, size_t input, size_t output) {
  animation["samplers"].push_back(Json::object({{"input", input}, {"interpolation", "LINEAR"}, {"output", output}}));
  Json channel = Json::object();
  channel["sampler"] = animation["samplers"].size() - 1;
  channel["target"] = Json::object({{"node", node}, {"path", path}});
  animation["channels"].push_back(channel);
}

void write_skeleton(const Clip& clip, std::ostream& out, bool binary, const std::string& extras) {
  const int joints = clip.joint_count();
  Json json = Json::object();
  json["asset"] = Json::object({{"version", "2.0"}, {"generator", "footfix"}});
  json["buffers"] = Json::array({Json::object()});
  std::string bytes;
  gltf::Appender append(json, bytes, 0);
  Json nodes = Json::array();
  Json roots = Json::array();
  for (int j = 0; j < joints; ++j) {
    Quat r;
    Vec3 t;
    metric_frame(clip, 0, j, r, t);
    Json node = Json::object();
    node["name"] = clip.skeleton.names[static_cast<size_t>(j)];
    node["rotation"] = Json::array({r.x, r.y, r.z, r.w});
    node["translation"] = Json::array({t.x, t.y, t.z});
    nodes.push_back(node);
    const int parent = clip.skeleton.parents[static_cast<size_t>(j)];
    if (parent < 0) roots.push_back(j);
    else {
      if (!nodes[static_cast<size_t>(parent)].contains("children")) nodes[static_cast<size_t>(parent)]["children"] = Json::array();
      nodes[static_cast<size_t>(parent)]["children"].push_back(j);
    }
  }
  // End Sites (BVH's toe and finger tips) as static leaf nodes named as footfix names End Site
  // joints ("<joint> End Site"); the reader takes them back as End Sites.
  for (int j = 0; j < joints && static_cast<size_t>(j) < clip.skeleton.end_sites.size(); ++j) {
    const auto& site = clip.skeleton.end_sites[static_cast<size_t>(j)];
    if (!site) continue;
    const Vec3 t = clip.space == ClipSpace::source ? point_to_internal(clip.source_frame, *site) : *site;
    nodes.push_back(Json::object({{"name", end_site_joint_name(clip.skeleton.names[static_cast<size_t>(j)])},
                                  {"translation", Json::array({t.x, t.y, t.z})}}));
    if (!nodes[static_cast<size_t>(j)].contains("children")) nodes[static_cast<size_t>(j)]["children"] = Json::array();
    nodes[static_cast<size_t>(j)]["children"].push_back(nodes.size() - 1);
  }
  json["nodes"] = nodes;
  json["scenes"] = Json::array({Json::object({{"nodes", roots}})});
  json["scene"] = 0;
  Json animation = Json::object({{"name", "footfix"}, {"samplers", Json::array()}, {"channels", Json::array()}});
  if (clip.frame_count > 0) {
    const size_t times = append.times(gltf::frame_times(clip, 0.0));
    for (int j = 0; j < joints; ++j) {
      std::vector<Quat> r(static_cast<size_t>(clip.frame_count));
      std::vector<Vec3> t(static_cast<size_t>(clip.frame_count));
      bool moves = clip.skeleton.parents[static_cast<size_t>(j)] < 0;
      for (int f = 0; f < clip.frame_count; ++f) {
        metric_frame(clip, f, j, r[static_cast<size_t>(f)], t[static_cast<size_t>(f)]);
        moves = moves || t[static_cast<size_t>(f)] != t[0];
      }
      add_sampled_channel(animation, j, "rotation", times, append.quat(r));
      if (moves) add_sampled_channel(animation, j, "translation", times, append.vec3(t));
    }
  }
  gltf::store_footfix_extras(animation, extras);
  json["animations"] = Json::array({animation});
  json["buffers"][0]["byteLength"] = bytes.size();
  if (binary) {
    out << gltf::join_glb(json_text(json), bytes, true);
    return;
  }
  json["buffers"][0]["uri"] = "data:application/octet-stream;base64," + gltf::base64(bytes);
  out << json_text(json, 2) << '\n';
}

}  // namespace

GltfOutput gltf_output(const Clip& clip, bool binary, const std::string& extras, const std::string& bin_uri) {
  if (clip.skeleton.end_site_joints > 0) return gltf_output(fold_end_site_joints(clip), binary, extras, bin_uri);
  if (const auto* src = dynamic_cast<const GltfSource*>(clip.source.get()))
    return gltf::patch_source(clip, *src, extras, bin_uri);
  std::ostringstream file;
  write_skeleton(clip, file, binary, extras);
  GltfOutput out;
  out.file = file.str();
  return out;
}

void write_gltf(const Clip& clip, std::ostream& out, bool binary, const std::string& extras) {
  out << gltf_output(clip, binary, extras, "").file;
}

}  // namespace footfix
