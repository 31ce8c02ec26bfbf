// Clip -> glTF: a patch of the source glTF, or a skeleton-only file (see gltf.h).
#include <cstring>

#include "core/json_text.h"
#include "footfix/core/conventions.h"
#include "footfix/core/end_site_joints.h"
#include "footfix/core/error.h"
#include "footfix/io/gltf.h"
#include "gltf_append.h"
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

void add_extras(Json& animation, const std::string& extras) {
  if (extras.empty()) return;
  if (!animation.contains("extras")) animation["extras"] = Json::object();
  if (!animation["extras"].is_object()) return;  // someone else's extras: kept as they are
  animation["extras"]["footfix"] = Json::parse(extras);
}

std::vector<float> key_times(const Clip& clip, double start) {
  std::vector<float> t(static_cast<size_t>(clip.frame_count));
  for (int f = 0; f < clip.frame_count; ++f) t[static_cast<size_t>(f)] = static_cast<float>(start + f / clip.fps);
  return t;
}

/// Points channel (node, path) of `animation` at a new LINEAR sampler of `input` and `output`,
/// adding the channel when the animation has none.
void retarget(Json& animation, int node, const char* path, size_t input, size_t output) {
  Json sampler = Json::object();
  sampler["input"] = input;
  sampler["interpolation"] = "LINEAR";
  sampler["output"] = output;
  animation["samplers"].push_back(sampler);
  const size_t index = animation["samplers"].size() - 1;
  for (Json& c : animation["channels"]) {
    const Json& target = c["target"];
    if (target.contains("node") && target["node"] == node && target.contains("path") && target["path"] == path) {
      c["sampler"] = index;
      return;
    }
  }
  Json channel = Json::object();
  channel["sampler"] = index;
  channel["target"] = Json::object({{"node", node}, {"path", path}});
  animation["channels"].push_back(channel);
}

void write_patch(const Clip& clip, const GltfSource& src, std::ostream& out, const std::string& extras) {
  const int joints = clip.joint_count();
  if (joints != static_cast<int>(src.nodes.size()) || clip.rotations.size() != src.rotations.size())
    fail(ErrorKind::write, clip.source_name + ": the clip no longer matches its glTF source (joints or frames changed)");
  const SourceFrame to_file = clip.values_to_file();
  std::vector<char> rot_changed(static_cast<size_t>(joints), 0), tr_changed(static_cast<size_t>(joints), 0);
  std::vector<Quat> rotations(clip.rotations.size());
  std::vector<Vec3> translations(clip.translations.size());
  for (size_t i = 0; i < clip.rotations.size(); ++i) {
    const size_t j = i % static_cast<size_t>(joints);
    rotations[i] = rotation_to_source(to_file, clip.rotations[i]);
    translations[i] = point_to_source(to_file, clip.translations[i]);
    if (rotations[i] != src.rotations[i]) rot_changed[j] = 1;
    if (translations[i] != src.translations[i]) tr_changed[j] = 1;
  }
  bool any = extras.size() > 0;
  for (int j = 0; j < joints; ++j) any = any || rot_changed[static_cast<size_t>(j)] || tr_changed[static_cast<size_t>(j)];
  if (!any) {
    out << src.original;
    return;
  }
  const gltf::Document& doc = src.document;
  Json json = doc.json;
  // Where new data go: a glb's BIN chunk (buffer 0), else a new buffer embedded as a data: URI
  // (external .bin files stay as they are).
  const bool into_bin = doc.container.binary && doc.container.has_bin && !doc.buffers.empty() &&
                        !json["buffers"][0].contains("uri");
  std::string bytes = into_bin ? doc.container.bin : std::string();
  if (into_bin) bytes.resize(doc.buffers[0].size());
  if (!json.contains("buffers")) json["buffers"] = Json::array();
  const size_t buffer = into_bin ? 0 : json["buffers"].size();
  if (!into_bin) json["buffers"].push_back(Json::object());
  gltf::Appender append(json, bytes, buffer);
  Json& animation = json["animations"][src.animation];
  if (!animation.contains("samplers")) animation["samplers"] = Json::array();
  if (!animation.contains("channels")) animation["channels"] = Json::array();
  size_t times = 0;
  bool have_times = false;
  for (int j = 0; j < joints; ++j) {
    if (!rot_changed[static_cast<size_t>(j)] && !tr_changed[static_cast<size_t>(j)]) continue;
    if (!have_times) times = append.times(key_times(clip, src.start_time_s));
    have_times = true;
    std::vector<Quat> r(static_cast<size_t>(clip.frame_count));
    std::vector<Vec3> t(static_cast<size_t>(clip.frame_count));
    for (int f = 0; f < clip.frame_count; ++f) {
      const size_t at = clip.index(f, j);
      r[static_cast<size_t>(f)] = rotations[at];
      t[static_cast<size_t>(f)] = translations[at] / src.parent_scales[at];
    }
    const int node = src.nodes[static_cast<size_t>(j)];
    if (rot_changed[static_cast<size_t>(j)]) retarget(animation, node, "rotation", times, append.quat(r));
    if (tr_changed[static_cast<size_t>(j)]) retarget(animation, node, "translation", times, append.vec3(t));
  }
  add_extras(animation, extras);
  json["buffers"][buffer]["byteLength"] = bytes.size();
  if (doc.container.binary) {
    const std::string glb = gltf::join_glb(json_text(json), bytes, into_bin || doc.container.has_bin);
    out << glb;
    return;
  }
  if (!bytes.empty()) json["buffers"][buffer]["uri"] = "data:application/octet-stream;base64," + gltf::base64(bytes);
  out << json_text(json, 2) << '\n';
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
  json["nodes"] = nodes;
  json["scenes"] = Json::array({Json::object({{"nodes", roots}})});
  json["scene"] = 0;
  Json animation = Json::object({{"name", "footfix"}, {"samplers", Json::array()}, {"channels", Json::array()}});
  if (clip.frame_count > 0) {
    const size_t times = append.times(key_times(clip, 0.0));
    for (int j = 0; j < joints; ++j) {
      std::vector<Quat> r(static_cast<size_t>(clip.frame_count));
      std::vector<Vec3> t(static_cast<size_t>(clip.frame_count));
      bool moves = clip.skeleton.parents[static_cast<size_t>(j)] < 0;
      for (int f = 0; f < clip.frame_count; ++f) {
        metric_frame(clip, f, j, r[static_cast<size_t>(f)], t[static_cast<size_t>(f)]);
        moves = moves || t[static_cast<size_t>(f)] != t[0];
      }
      retarget(animation, j, "rotation", times, append.quat(r));
      if (moves) retarget(animation, j, "translation", times, append.vec3(t));
    }
  }
  add_extras(animation, extras);
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

void write_gltf(const Clip& clip, std::ostream& out, bool binary, const std::string& extras) {
  if (clip.skeleton.end_site_joints > 0) return write_gltf(fold_end_site_joints(clip), out, binary, extras);
  if (const auto* src = dynamic_cast<const GltfSource*>(clip.source.get())) {
    write_patch(clip, *src, out, extras);
    return;
  }
  write_skeleton(clip, out, binary, extras);
}

}  // namespace footfix
