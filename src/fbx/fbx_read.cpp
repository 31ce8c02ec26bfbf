// FBX -> Clip through assimp, with the parsed document kept for writing (see fbx.h).
#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>

#include "fbx_budget.h"
#include "fbx_channels.h"
#include "fbx_frames.h"
#include "fbx_import.h"
#include "fbx_objects.h"
#include "fbx_scene.h"
#include "footfix/core/error.h"
#include "footfix/core/read_file.h"
#include "footfix/core/text.h"
#include "fbx_source.h"

namespace footfix {
namespace {

constexpr double k_max_samples = 50e6;  ///< frames * joints beyond this is not a real clip

/// The parsed document, checked against the limits before assimp sees the bytes, its curves' key
/// times taken out into `key_times` as each curve is parsed (fbx_key_times.h): a duplicate array
/// is freed before the next curve's are allocated, so the parse holds each distinct one once.
FbxDocument checked_document(const std::string& bytes, const std::string& name, const ReadLimits& limits,
                             fbx::SharedKeyTimes& key_times) {
  FbxDocument doc = parse_fbx_document(bytes, name, [&](FbxNode& object) { fbx::take_out_key_times(object, key_times); });
  if (!doc.root("Objects")) fail(ErrorKind::read, name + ": not an FBX file (no Objects section)");
  fbx::check_import_budget(doc, key_times, name, limits);
  return doc;
}

/// assimp 5.2 splits rotation keys that are more than 180 degrees apart into sub-keys: a curve
/// whose values travel far (corrupt or hostile files) makes it allocate without bound. Refuse
/// such documents, and non-finite key values, before assimp sees them.
constexpr double k_max_curve_travel_deg = 180.0 * 2e6;

void check_curves(const FbxDocument& doc, const std::string& name) {
  double travel = 0;
  for (const FbxNode* curve : fbx::objects_of(doc, "AnimationCurve")) {
    const FbxNode* values = curve->child("KeyValueFloat");
    if (!values || values->properties.empty()) continue;
    const FbxProperty& v = values->properties[0];
    for (std::size_t i = 0; i < v.array_size(); ++i) {
      double x = v.array_double(i);
      if (!std::isfinite(x))
        fail(ErrorKind::read, name + ": AnimationCurve " + std::to_string(fbx::object_id(*curve)) + ": key " +
                                  std::to_string(i) + " is not a finite number");
      if (i > 0) travel += std::abs(x - v.array_double(i - 1));
    }
    if (travel > k_max_curve_travel_deg)
      fail(ErrorKind::read, name + ": AnimationCurve " + std::to_string(fbx::object_id(*curve)) +
                                ": key values jump by more than 3.6e8 in all (corrupt file?)");
  }
}

using fbx::ImportedScene;
using fbx::ImportedTake;

const ImportedTake& select_take(const ImportedScene& scene, const std::string& take, const std::string& name) {
  if (scene.takes.empty()) fail(ErrorKind::read, name + ": no animation (the file has no take)");
  if (take.empty()) return scene.takes[0];
  for (const ImportedTake& t : scene.takes)
    if (take == t.name) return t;
  if (take.find_first_not_of("0123456789") == std::string::npos && take.size() < 6) {
    std::size_t index = std::stoul(take);
    if (index < scene.takes.size()) return scene.takes[index];
  }
  std::string known;
  for (const ImportedTake& t : scene.takes) known += (known.empty() ? "'" : ", '") + printable(t.name, 40) + "'";
  fail(ErrorKind::read, name + ": no take named '" + printable(take, 40) + "' (takes: " + known + ")");
}

/// Scene node indices that become joints, in scene order (parents first).
std::vector<int> skeleton_nodes(const fbx::SceneGraph& g, const ImportedScene& scene) {
  std::set<std::string> seeds;
  for (const auto& n : g.nodes)
    if (n.channel) seeds.insert(n.owner);
  seeds.insert(scene.bones.begin(), scene.bones.end());
  std::vector<char> mark(g.nodes.size(), 0);
  for (std::size_t i = 1; i < g.nodes.size(); ++i) {
    const auto& n = g.nodes[i];
    if (n.helper || !seeds.count(n.name)) continue;
    for (int a = static_cast<int>(i); a > 0; a = g.nodes[a].parent)
      if (!g.nodes[a].helper) mark[a] = 1;
  }
  for (std::size_t i = 1; i < g.nodes.size(); ++i) {
    const auto& n = g.nodes[i];
    int a = n.parent;
    while (a > 0 && g.nodes[a].helper) a = g.nodes[a].parent;
    if (!n.helper && !n.has_meshes && a > 0 && mark[a]) mark[i] = 1;
  }
  std::vector<int> out;
  for (std::size_t i = 1; i < g.nodes.size(); ++i)
    if (mark[i]) out.push_back(static_cast<int>(i));
  return out;
}

using fbx::decompose;
using fbx::Pose;

double mean_scale(Vec3 s) { return (s.x + s.y + s.z) / 3.0; }

/// Units and up axis the file declares (GlobalSettings: UnitScaleFactor in cm, UpAxis/Sign).
SourceFrame declared_frame(const FbxDocument& doc) {
  SourceFrame f;
  f.meters_per_unit = 0.01;
  const FbxNode* gs = doc.root("GlobalSettings");
  if (!gs) return f;
  double usf = fbx::p_number(*gs, "UnitScaleFactor", 1.0);
  if (usf > 0 && std::isfinite(usf)) f.meters_per_unit = usf * 0.01;
  auto up = fbx::p_int(*gs, "UpAxis", 1), sign = fbx::p_int(*gs, "UpAxisSign", 1);
  static const Axis k_pos[] = {Axis::pos_x, Axis::pos_y, Axis::pos_z};
  static const Axis k_neg[] = {Axis::neg_x, Axis::neg_y, Axis::neg_z};
  if (up >= 0 && up <= 2) f.up = sign < 0 ? k_neg[up] : k_pos[up];
  return f;
}

FbxJointSource joint_source(const FbxNode* model) {
  FbxJointSource j;
  if (!model) return j;
  j.model_id = fbx::object_id(*model);
  j.rotation_order = static_cast<int>(fbx::p_number(*model, "RotationOrder", 0));
  j.pre_rotation = fbx::p_vec3(*model, "PreRotation", {});
  j.post_rotation = fbx::p_vec3(*model, "PostRotation", {});
  j.rotation_offset = fbx::p_vec3(*model, "RotationOffset", {});
  j.rotation_pivot = fbx::p_vec3(*model, "RotationPivot", {});
  j.scaling_offset = fbx::p_vec3(*model, "ScalingOffset", {});
  j.scaling_pivot = fbx::p_vec3(*model, "ScalingPivot", {});
  j.scaling = fbx::p_vec3(*model, "Lcl Scaling", {1, 1, 1});
  j.lcl_translation = fbx::p_vec3(*model, "Lcl Translation", {});
  j.lcl_rotation = fbx::p_vec3(*model, "Lcl Rotation", {});
  return j;
}

using Channels = std::unordered_map<std::string, fbx::ModelChannel>;

/// The take's channels made from `doc`, with `scene` assimp's import of the document with its
/// curves cut to their end keys and `selected` its take; nothing (and `scene` empty) where the
/// channels cannot be made so (see fbx_channels.h).
std::optional<Channels> own_channels(const FbxDocument& doc, const fbx::SharedKeyTimes& key_times,
                                     ImportedScene& scene, const std::string& take, const std::string& name,
                                     const ReadLimits& limits, const ImportedTake*& selected) {
  std::string bytes;
  {
    std::optional<FbxDocument> ends = fbx::copy_with_end_keys(doc, key_times);
    if (!ends) return std::nullopt;
    std::ostringstream out;
    write_fbx_document(*ends, out);
    bytes = std::move(out).str();
  }
  try {
    scene = fbx::import_fbx(bytes, name, limits);
    selected = &select_take(scene, take, name);
  } catch (const Error&) {  // the whole file says why
    scene = {};
    return std::nullopt;
  }
  std::optional<Channels> channels = fbx::own_channels(doc, key_times, *selected);
  if (!channels) scene = {};
  return channels;
}

}  // namespace

std::vector<std::string> list_fbx_takes(const std::filesystem::path& path, const ReadLimits& limits) {
  std::string bytes = read_file(path, limits.max_input_bytes);
  fbx::SharedKeyTimes key_times;
  checked_document(bytes, path.string(), limits, key_times);
  return fbx::import_fbx(bytes, path.string(), limits).take_names();
}

std::vector<std::string> fbx_take_names(const Clip& clip) {
  const auto* source = dynamic_cast<const FbxSource*>(clip.source.get());
  return source ? source->takes : std::vector<std::string>{};
}

namespace {

/// read_fbx_bytes; when `release` is the string `bytes` refers to, it is emptied as soon as
/// assimp has imported them (the parsed document and the scene hold all that is needed).
Clip read_fbx_from(const std::string& bytes, std::string* release, const std::string& name, const std::string& take,
                   std::vector<std::string>* warnings, const ReadLimits& limits) {
  auto warn = [&](const std::string& w) {
    if (warnings) warnings->push_back(name + ": " + w);
  };
  auto source = std::make_shared<FbxSource>();
  source->document = checked_document(bytes, name, limits, source->key_times);
  check_curves(source->document, name);
  ImportedScene scene;
  const ImportedTake* selected = nullptr;
  // assimp imports the skeleton and each curve's end keys only, where the channels are made here
  // from the document's curves (fbx_channels.h); else, or if they cannot be, the whole file.
  auto channels = own_channels(source->document, source->key_times, scene, take, name, limits, selected);
  if (!channels) {
    scene = fbx::import_fbx(bytes, name, limits, release);  // empties *release once assimp has the bytes
    selected = &select_take(scene, take, name);
  }
  if (release) std::string().swap(*release);  // `bytes` is not read from here on
  const ImportedTake& anim = *selected;
  source->take = anim.name;
  source->takes = scene.take_names();
  fbx::SceneGraph graph(scene, &anim);
  std::shared_ptr<fbx::SourceFrames> frames;
  if (channels) {
    frames = std::make_shared<fbx::SourceFrames>();
    frames->channels = std::move(*channels);
    for (auto& n : graph.nodes)
      if (n.channel) n.sampler = &frames->channels.at(n.name);
  }
  std::vector<int> nodes = skeleton_nodes(graph, scene);
  if (nodes.empty()) fail(ErrorKind::read, name + ": no skeleton (take '" + printable(source->take, 40) + "' animates no node)");

  Clip clip;
  clip.source_name = name;
  clip.source_frame = declared_frame(source->document);
  clip.space = ClipSpace::source;
  clip.source_frame_declared = true;
  clip.fps = anim.ticks_per_second > 0 ? anim.ticks_per_second : 30.0;
  if (!(anim.ticks_per_second > 0)) warn("no ticks per second in the take; assuming 30 fps");
  // The take spans ticks [0, duration] (assimp counts from the stack's LocalStart, or from the
  // first key); keys outside it (assimp keeps those before LocalStart) are not part of the take.
  double first = 0, last = anim.duration;
  if (!(last >= 0) || !std::isfinite(last)) {
    fbx::key_range(anim, first, last);
    if (!std::isfinite(first)) first = last = 0;
  }
  // The frames are tied to the keys actually present: a take declared to run on far past its
  // last key (an edited LocalStop) ends at that key.
  double key_first = 0, key_last = 0;
  fbx::key_range(anim, key_first, key_last);
  if (std::isfinite(key_last) && key_last >= first && last > key_last + clip.fps) {
    warn("take '" + printable(source->take, 40) + "' is declared " + seconds_text((last - key_last) / clip.fps) +
         " longer than its keys; ending it at the last key");
    last = key_last;
  }
  double span = std::floor(last - first + 0.5);
  if (!(span >= 0) || (span + 1) * static_cast<double>(nodes.size()) > k_max_samples)
    fail(ErrorKind::read, name + ": take '" + printable(source->take, 40) + "' spans " + std::to_string(last - first) + " ticks; not a clip footfix can hold");
  if (span / clip.fps > limits.max_duration_s)
    fail_over_duration(name + ": take '" + printable(source->take, 40) + "'", "lasts", span / clip.fps, limits);
  check_clip_memory(limits, static_cast<std::uint64_t>(span) + 1, nodes.size(), name);
  source->start_time_s = static_cast<double>(fbx::take_origin_ktime(source->document, source->take)) /
                             static_cast<double>(k_fbx_ktime_per_second) +
                         first / clip.fps;

  std::unordered_map<int, int> joint_of;  // scene node -> joint
  std::unordered_map<std::string, const FbxNode*> models;
  for (const FbxNode* m : fbx::objects_of(source->document, "Model")) models.emplace(fbx::object_name(*m), m);
  const fbx::LinkIndex links(fbx::connections(source->document));
  const fbx::CurveIndex curves = fbx::curves_by_id(source->document);
  std::vector<aiMatrix4x4> world;
  graph.evaluate(0, false, world);
  for (int n : nodes) {
    int a = graph.nodes[n].parent;
    while (a > 0 && !joint_of.count(a)) a = graph.nodes[a].parent;
    int parent = a > 0 ? joint_of[a] : -1;
    joint_of[n] = clip.skeleton.add_joint(graph.nodes[n].name, parent, {});
    auto model = models.find(graph.nodes[n].name);
    FbxJointSource js = joint_source(model == models.end() ? nullptr : model->second);
    // Euler hint for writing: the curves' first key keeps rewritten curves on the source's branch.
    js.lcl_rotation = fbx::first_key_values(curves, links, js.model_id, "Lcl Rotation", js.lcl_rotation);
    int fbx_parent = a > 0 ? a : graph.nodes[n].parent;
    while (fbx_parent > 0 && graph.nodes[fbx_parent].helper) fbx_parent = graph.nodes[fbx_parent].parent;
    Pose pp = fbx_parent >= 0 ? decompose(world[fbx_parent]) : Pose{{}, {}, {1, 1, 1}};
    js.parent_scale = mean_scale(pp.scale);
    if (parent < 0) {
      js.parent_rotation = pp.rotation;
      js.parent_translation = pp.position;
    }
    Vec3 s = decompose(world[n]).scale;
    if (std::abs(s.x - s.y) > 1e-4 * std::abs(s.x) || std::abs(s.x - s.z) > 1e-4 * std::abs(s.x))
      warn("joint '" + printable(graph.nodes[n].name, 40) + "' has a non-uniform scale; using its mean");
    source->joints.push_back(js);
  }

  int joints = clip.joint_count();
  std::vector<fbx::Pose> pose;
  auto locals = [&](Quat* rot, Vec3* trans) { fbx::joint_locals(world, nodes, clip.skeleton.parents, pose, rot, trans); };
  std::vector<Quat> rest_rot(joints);
  locals(rest_rot.data(), clip.skeleton.rest_offsets.data());
  std::vector<double> rest_scale(joints), scale_drift(joints, 0.0);
  for (int j = 0; j < joints; ++j) rest_scale[j] = mean_scale(pose[j].scale);
  // Room for a second of frames at each end: a cycle is cleaned with that much of itself wrapped
  // around it, in place (see solve/loop.h), and needs no second buffer for the clip then. At most
  // an eighth of the clip at each end (a short clip, or a take with absurd ticks per second).
  const double margin = std::min(std::floor(clip.fps + 0.5), std::floor((span + 1) / 8));
  const auto room = static_cast<std::size_t>(span + 1 + 2 * margin) * static_cast<std::size_t>(joints);
  clip.rotations.reserve(room);
  clip.translations.reserve(room);
  clip.resize(static_cast<int>(span) + 1);
  for (int f = 0; f < clip.frame_count; ++f) {
    graph.evaluate(first + f, true, world);
    locals(&clip.rotation(f, 0), &clip.translation(f, 0));
    for (int j = 0; j < joints; ++j)
      scale_drift[j] = std::max(scale_drift[j], std::abs(mean_scale(pose[j].scale) / rest_scale[j] - 1.0));
  }
  for (int j = 0; j < joints; ++j)
    if (scale_drift[j] > 1e-3 && !clip.skeleton.children(j).empty())
      warn("joint '" + printable(clip.skeleton.names[j], 40) + "' has an animated scale; its children are written assuming its rest scale");
  if (frames) {  // the frames as read are evaluated again when needed: no copy of them
    for (auto& n : graph.nodes) n.channel = nullptr;  // the imported scene goes now
    frames->graph = std::move(graph);
    frames->nodes = std::move(nodes);
    frames->parents = clip.skeleton.parents;
    frames->first_tick = first;
    frames->frame_count = clip.frame_count;
    source->frames = std::move(frames);
  }
  scene = {};  // before the copy below: the scene's keys are as large as the clip
  if (!source->frames) {
    source->rotations = clip.rotations;
    source->translations = clip.translations;
  }
  clip.source = source;
  return clip;
}

}  // namespace

Clip read_fbx(const std::filesystem::path& path, const std::string& take, std::vector<std::string>* warnings,
              const ReadLimits& limits) {
  std::string bytes = read_file(path, limits.max_input_bytes);
  return read_fbx_from(bytes, &bytes, path.string(), take, warnings, limits);
}

Clip read_fbx_bytes(const std::string& bytes, const std::string& name, const std::string& take,
                    std::vector<std::string>* warnings, const ReadLimits& limits) {
  return read_fbx_from(bytes, nullptr, name, take, warnings, limits);
}

}  // namespace footfix
