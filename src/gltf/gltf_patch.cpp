#include "gltf_patch.h"

#include <algorithm>
#include <optional>

#include "core/json_text.h"
#include "footfix/core/conventions.h"
#include "footfix/core/error.h"
#include "gltf_append.h"
#include "gltf_freed.h"

namespace footfix::gltf {
namespace {

/// One channel the patch points at new data: the joint and "rotation" or "translation".
struct NewChannel {
  int joint;
  const char* path;
};

std::optional<size_t> find_channel(const Json& animation, int node, const char* path) {
  const Json& channels = animation["channels"];
  for (size_t c = 0; c < channels.size(); ++c) {
    const Json& ch = channels[c];
    if (!ch.is_object() || !ch.contains("target") || !ch["target"].is_object()) continue;
    const Json& target = ch["target"];
    if (target.contains("node") && target["node"] == node && target.contains("path") && target["path"] == path) return c;
  }
  return std::nullopt;
}

/// The index member `key` of `j` when it is a valid index below `size`.
std::optional<size_t> index_in(const Json& j, const char* key, size_t size) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number_unsigned()) return std::nullopt;
  const auto v = j[key].get<std::uint64_t>();
  return v < size ? std::optional<size_t>(static_cast<size_t>(v)) : std::nullopt;
}

/// The buffer that holds the animation's key times: that of its first sampler whose input
/// accessor has a buffer view.
std::optional<size_t> animation_buffer(const Json& json, const Json& animation) {
  static const Json none = Json::array();
  const Json& accessors = json.contains("accessors") && json["accessors"].is_array() ? json["accessors"] : none;
  const Json& views = json.contains("bufferViews") && json["bufferViews"].is_array() ? json["bufferViews"] : none;
  const size_t buffers = json.contains("buffers") && json["buffers"].is_array() ? json["buffers"].size() : 0;
  for (const Json& sampler : animation["samplers"]) {
    const auto a = index_in(sampler, "input", accessors.size());
    const auto v = a ? index_in(accessors[*a], "bufferView", views.size()) : std::nullopt;
    if (const auto b = v ? index_in(views[*v], "buffer", buffers) : std::nullopt) return b;
  }
  return std::nullopt;
}

/// Points channel (node, path) at a new LINEAR sampler of `input` and `output`: in the slot of
/// its old sampler when that one is in `free_samplers` (taken from it), else a new sampler;
/// adds the channel when the animation has none.
void point_channel(Json& animation, int node, const char* path, size_t input, size_t output,
                   std::vector<size_t>& free_samplers) {
  Json sampler = Json::object();
  sampler["input"] = input;
  sampler["interpolation"] = "LINEAR";
  sampler["output"] = output;
  const std::optional<size_t> channel = find_channel(animation, node, path);
  if (channel) {
    const Json& old = animation["channels"][*channel]["sampler"];
    const auto slot = old.is_number_unsigned() ? std::find(free_samplers.begin(), free_samplers.end(), old.get<size_t>())
                                               : free_samplers.end();
    if (slot != free_samplers.end()) {
      animation["samplers"][*slot] = std::move(sampler);
      free_samplers.erase(slot);
      return;
    }
  }
  animation["samplers"].push_back(std::move(sampler));
  const size_t index = animation["samplers"].size() - 1;
  if (channel) {
    animation["channels"][*channel]["sampler"] = index;
    return;
  }
  Json added = Json::object();
  added["sampler"] = index;
  added["target"] = Json::object({{"node", node}, {"path", path}});
  animation["channels"].push_back(std::move(added));
}

/// Where the new data go and how that buffer is stored in the output.
struct Destination {
  enum Kind { glb_bin, embedded, external } kind = embedded;
  size_t buffer = 0;
  std::string bytes;  ///< the buffer's original bytes (new data are appended)
};

Destination choose_destination(const Document& doc, Json& json, const Json& animation, const std::string& bin_uri) {
  if (!json.contains("buffers") || !json["buffers"].is_array()) json["buffers"] = Json::array();
  Destination d;
  std::optional<size_t> b = animation_buffer(json, animation);
  if (!b && doc.container.binary && doc.container.has_bin && !json["buffers"].empty() && !json["buffers"][0].contains("uri"))
    b = 0;
  if (b && *b < doc.buffers.size()) {
    const Json& buffer = json["buffers"][*b];
    const bool has_uri = buffer.contains("uri") && buffer["uri"].is_string();
    const bool data_uri = has_uri && buffer["uri"].get<std::string>().rfind("data:", 0) == 0;
    if (!has_uri && *b == 0 && doc.container.binary && doc.container.has_bin) d.kind = Destination::glb_bin;
    else if (data_uri) d.kind = Destination::embedded;
    else if (has_uri && !bin_uri.empty()) d.kind = Destination::external;
    else b.reset();
  }
  if (b) {
    d.buffer = *b;
    d.bytes = doc.buffers[*b];
    return d;
  }
  // No buffer of the animation to extend: a new embedded one.
  d.buffer = json["buffers"].size();
  json["buffers"].push_back(Json::object());
  return d;
}

}  // namespace

std::string animation_buffer_uri(const GltfSource& src) {
  const Json& json = src.document.json;
  const auto b = animation_buffer(json, json["animations"][src.animation]);
  if (!b) return "";
  const Json& buffer = json["buffers"][*b];
  if (!buffer.contains("uri") || !buffer["uri"].is_string()) return "";
  const std::string uri = buffer["uri"].get<std::string>();
  return uri.rfind("data:", 0) == 0 ? "" : uri;
}

GltfOutput patch_source(const Clip& clip, const GltfSource& src, const std::string& extras, const std::string& bin_uri) {
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
  std::vector<NewChannel> changed;
  for (int j = 0; j < joints; ++j) {
    if (rot_changed[static_cast<size_t>(j)]) changed.push_back({j, "rotation"});
    if (tr_changed[static_cast<size_t>(j)]) changed.push_back({j, "translation"});
  }
  GltfOutput out;
  if (changed.empty() && extras.empty()) {
    out.file = src.original;
    return out;
  }
  const Document& doc = src.document;
  Json json = doc.json;
  Json& animation = json["animations"][src.animation];
  if (!animation.contains("samplers")) animation["samplers"] = Json::array();
  if (!animation.contains("channels")) animation["channels"] = Json::array();

  std::vector<char> replaced(animation["channels"].size(), 0);
  for (const NewChannel& c : changed)
    if (const auto at = find_channel(animation, src.nodes[static_cast<size_t>(c.joint)], c.path)) replaced[*at] = 1;
  store_footfix_extras(animation, extras);
  if (changed.empty()) {
    out.file = doc.container.binary ? join_glb(json_text(json), doc.container.bin, doc.container.has_bin)
                                    : json_text(json, 2) + "\n";
    return out;
  }
  Freed freed = freed_by_retargeting(json, src.animation, replaced);
  Destination dest = choose_destination(doc, json, animation, bin_uri);
  Appender append(json, dest.bytes, dest.buffer);
  append.reuse(freed.accessors, freed.views);
  size_t times = 0;
  for (size_t k = 0; k < changed.size(); ++k) {
    // One key-times accessor shared by the new samplers, or one each while freed slots would
    // otherwise stay empty (an unused accessor or view is a validator warning).
    if (k == 0 || append.spare_slots() > changed.size() - k) times = append.times(frame_times(clip, src.start_time_s));
    const int j = changed[k].joint;
    const int node = src.nodes[static_cast<size_t>(j)];
    size_t values = 0;
    if (changed[k].path[0] == 'r') {
      std::vector<Quat> r(static_cast<size_t>(clip.frame_count));
      for (int f = 0; f < clip.frame_count; ++f) r[static_cast<size_t>(f)] = rotations[clip.index(f, j)];
      values = append.quat(r);
    } else {
      std::vector<Vec3> t(static_cast<size_t>(clip.frame_count));
      for (int f = 0; f < clip.frame_count; ++f) {
        const size_t at = clip.index(f, j);
        t[static_cast<size_t>(f)] = translations[at] / src.parent_scales[at];
      }
      values = append.vec3(t);
    }
    point_channel(animation, node, changed[k].path, times, values, freed.samplers);
  }
  // Slots that could not be filled (only with shared or sparse old data) are removed where that
  // shifts no index; others stay, unused.
  append.drop_trailing_spares();

  Json& buffer = json["buffers"][dest.buffer];
  buffer["byteLength"] = dest.bytes.size();
  if (dest.kind == Destination::external) {
    out.replaced_uri = buffer["uri"].get<std::string>();
    buffer["uri"] = bin_uri;
    out.bin_uri = bin_uri;
  } else if (dest.kind == Destination::embedded) {
    buffer["uri"] = "data:application/octet-stream;base64," + base64(dest.bytes);
  }
  if (doc.container.binary) {
    const bool into_bin = dest.kind == Destination::glb_bin;
    out.file = join_glb(json_text(json), into_bin ? dest.bytes : doc.container.bin, doc.container.has_bin);
  } else {
    out.file = json_text(json, 2) + "\n";
  }
  if (dest.kind == Destination::external) out.bin = std::move(dest.bytes);
  return out;
}

}  // namespace footfix::gltf
