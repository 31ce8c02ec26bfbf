#include "fbx_channels.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "fbx_objects.h"

namespace footfix::fbx {
namespace {

constexpr std::int64_t k_ktime_per_second = 46186158000LL;  // assimp's CONVERT_FBX_TIME divisor
constexpr std::int64_t k_window_slack = 10000;               // assimp's breathing room around a take
const char* const k_components[3] = {"Lcl Translation", "Lcl Rotation", "Lcl Scaling"};
const char* const k_axes[3] = {"d|X", "d|Y", "d|Z"};

/// A curve's KeyTime or KeyValueFloat array property, or null.
const FbxProperty* curve_array(const FbxNode& curve, const char* name) {
  const FbxNode* n = curve.child(name);
  return n && !n->properties.empty() && n->properties[0].is_array() ? &n->properties[0] : nullptr;
}

/// The key times of `curve`: the array taken out of the document, or its own.
const std::vector<std::int64_t>* curve_times(const FbxNode& curve, const SharedKeyTimes& key_times) {
  if (const std::vector<std::int64_t>* shared = shared_key_times(curve, key_times)) return shared;
  const FbxProperty* p = curve_array(curve, "KeyTime");
  return p ? std::get_if<std::vector<std::int64_t>>(&p->value) : nullptr;
}

ModelChannel::Values curve_values(const FbxNode& curve) {
  ModelChannel::Values v;
  if (const FbxProperty* p = curve_array(curve, "KeyValueFloat")) {
    if (const auto* f = std::get_if<std::vector<float>>(&p->value)) v.f = f->data();
    if (const auto* d = std::get_if<std::vector<double>>(&p->value)) v.d = d->data();
  }
  return v;
}

/// `v`'s first and last elements.
template <typename T>
std::vector<T> ends(const std::vector<T>& v) {
  return v.size() < 2 ? v : std::vector<T>{v.front(), v.back()};
}

/// assimp's FBXConverter::GetRotationMatrix.
void rotation_matrix(int mode, const aiVector3D& rotation, aiMatrix4x4& out) {
  out = aiMatrix4x4();
  if (mode == 6) return;  // spheric XYZ: unsupported, identity
  const float angle_epsilon = std::numeric_limits<float>::epsilon();
  bool is_id[3] = {true, true, true};
  aiMatrix4x4 temp[3];
  if (std::fabs(rotation.z) > angle_epsilon) {
    aiMatrix4x4::RotationZ(AI_DEG_TO_RAD(rotation.z), temp[2]);
    is_id[2] = false;
  }
  if (std::fabs(rotation.y) > angle_epsilon) {
    aiMatrix4x4::RotationY(AI_DEG_TO_RAD(rotation.y), temp[1]);
    is_id[1] = false;
  }
  if (std::fabs(rotation.x) > angle_epsilon) {
    aiMatrix4x4::RotationX(AI_DEG_TO_RAD(rotation.x), temp[0]);
    is_id[0] = false;
  }
  static const int k_orders[6][3] = {{2, 1, 0}, {1, 2, 0}, {0, 2, 1}, {2, 0, 1}, {1, 0, 2}, {0, 1, 2}};
  const int* order = k_orders[mode];
  if (!is_id[order[0]]) out = temp[order[0]];
  if (!is_id[order[1]]) out = out * temp[order[1]];
  if (!is_id[order[2]]) out = out * temp[order[2]];
}

aiQuaternion euler_quaternion(const aiVector3D& rotation, int mode) {
  aiMatrix4x4 m;
  rotation_matrix(mode, rotation, m);
  return aiQuaternion(aiMatrix3x3(m));
}

aiVector3D float_vec3(Vec3 v) { return {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)}; }

bool same_key(const ModelChannel::Key& k, const ImportedChannel& ch, std::size_t i) {
  return k.time == ch.positions[i].mTime && k.time == ch.rotations[i].mTime && k.time == ch.scalings[i].mTime &&
         k.position == ch.positions[i].mValue && k.rotation == ch.rotations[i].mValue &&
         k.scaling == ch.scalings[i].mValue;
}

}  // namespace

std::optional<FbxDocument> copy_with_end_keys(const FbxDocument& doc, const SharedKeyTimes& key_times) {
  const FbxNode* objects = doc.root("Objects");
  if (!doc.binary || !objects) return std::nullopt;
  std::vector<char> sorted_checked(key_times.arrays.size(), 0);
  FbxDocument out{doc.binary, doc.version, {}, doc.footer, doc.footer_version_residue, doc.footer_start_residue,
                  doc.ascii_header};
  out.roots.reserve(doc.roots.size());
  for (const FbxNode& root : doc.roots) {
    if (root.name != "Objects") {
      out.roots.push_back(root);
      continue;
    }
    FbxNode objs{root.name, root.properties, {}, root.null_terminated};
    objs.children.reserve(root.children.size());
    for (const FbxNode& o : root.children) {
      if (o.name != "AnimationCurve") {
        objs.children.push_back(o);
        continue;
      }
      const std::vector<std::int64_t>* times = curve_times(o, key_times);
      const FbxProperty* values = curve_array(o, "KeyValueFloat");
      if (!times || times->empty() || !values || values->array_size() != times->size()) return std::nullopt;
      if (values->type != 'f' && values->type != 'd') return std::nullopt;
      auto shared = key_times.of_curve.find(object_id(o));
      char* checked = shared != key_times.of_curve.end() ? &sorted_checked[shared->second] : nullptr;
      if (!checked || !*checked) {
        if (std::adjacent_find(times->begin(), times->end(), std::greater_equal<>()) != times->end()) return std::nullopt;
        if (checked) *checked = 1;
      }
      FbxNode curve{o.name, o.properties, {}, o.null_terminated};
      curve.children.reserve(o.children.size());
      for (const FbxNode& c : o.children) {
        if (c.name == "KeyTime") {
          curve.children.push_back(FbxNode{c.name, {FbxProperty('l', ends(*times))}, c.children, c.null_terminated});
        } else if (c.name == "KeyValueFloat") {
          FbxProperty p = values->type == 'f' ? FbxProperty('f', ends(std::get<std::vector<float>>(values->value)))
                                              : FbxProperty('d', ends(std::get<std::vector<double>>(values->value)));
          curve.children.push_back(FbxNode{c.name, {std::move(p)}, c.children, c.null_terminated});
        } else {
          curve.children.push_back(c);
        }
      }
      objs.children.push_back(std::move(curve));
    }
    out.roots.push_back(std::move(objs));
  }
  return out;
}

double ModelChannel::key_time(std::size_t i) const {
  double t = static_cast<double>((*times)[i]) / k_ktime_per_second * ticks_per_second;
  t -= start_ticks;
  return t;
}

float ModelChannel::curve_value(const Curve& c, std::size_t i) const {
  // assimp's linear interpolation of each curve at the merged key times (InterpolateKeys),
  // signed zeros included: after the keys at or before `time`, between the last and the next.
  const std::vector<std::int64_t>& own = *c.times;
  const std::int64_t time = (*times)[i];
  const std::size_t at_or_before =
      c.times == times ? i + 1 : static_cast<std::size_t>(std::upper_bound(own.begin(), own.end(), time) - own.begin());
  const std::size_t count = own.size();
  const std::size_t id0 = at_or_before > 0 ? at_or_before - 1 : 0, id1 = at_or_before == count ? count - 1 : at_or_before;
  const float value_a = c.values.at(id0), value_b = c.values.at(id1);
  const std::int64_t time_a = own[id0], time_b = own[id1];
  const float factor = time_b == time_a ? 0.0f : static_cast<float>(time - time_a) / static_cast<float>(time_b - time_a);
  return value_a + (value_b - value_a) * factor;
}

ModelChannel::Key ModelChannel::key(std::size_t i) const {
  aiVector3D v[3];
  for (int c = 0; c < 3; ++c) {
    v[c] = defaults[static_cast<std::size_t>(c)];
    for (int a = 0; a < 3; ++a) {
      const Curve& curve = curves[static_cast<std::size_t>(3 * c + a)];
      if (curve.values) v[c][static_cast<unsigned>(a)] = curve_value(curve, i);
    }
  }
  Key k;
  k.time = key_time(i);
  aiQuaternion r = euler_quaternion(v[1], rotation_order);
  if (has_pre) r = pre * r;
  if (has_post) r = r * post;
  aiMatrix4x4 mat, temp;
  aiMatrix4x4::Translation(v[0], mat);
  mat *= aiMatrix4x4(r.GetMatrix());
  mat *= aiMatrix4x4::Scaling(v[2], temp);
  mat.Decompose(k.scaling, k.rotation, k.position);
  return k;
}

const ModelChannel::Key& ModelChannel::cached_key(std::size_t i) const {
  for (std::size_t s = 0; s < 2; ++s)
    if (cached_index_[s] == i) return cached_[s];
  const std::size_t s = next_slot_;
  next_slot_ ^= 1;
  cached_[s] = key(i);
  cached_index_[s] = i;
  return cached_[s];
}

aiMatrix4x4 ModelChannel::local(double tick) const {
  const std::size_t n = key_count();
  std::size_t i = 0;
  unsigned count = 1;
  if (tick <= key_time(0)) {
    i = 0;
  } else if (tick >= key_time(n - 1)) {
    i = n - 1;
  } else {
    // the last key at or before `tick` (as the upper bound of `tick` in the keys, less one)
    if (!(hint_ + 1 < n && key_time(hint_) <= tick && key_time(hint_ + 1) > tick)) {
      std::size_t lo = 0, hi = n;  // first key later than tick in [lo, hi)
      while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (key_time(mid) <= tick) lo = mid + 1;
        else hi = mid;
      }
      hint_ = lo - 1;
    }
    i = hint_;
    count = 2;
  }
  const Key& a = cached_key(i);
  aiVectorKey positions[2] = {{a.time, a.position}, {}}, scalings[2] = {{a.time, a.scaling}, {}};
  aiQuatKey rotations[2] = {{a.time, a.rotation}, {}};
  if (count == 2) {
    const Key& b = cached_key(i + 1);
    positions[1] = {b.time, b.position};
    scalings[1] = {b.time, b.scaling};
    rotations[1] = {b.time, b.rotation};
  }
  return sample_keys(positions, count, rotations, count, scalings, count, aiMatrix4x4(), tick);
}

std::optional<std::unordered_map<std::string, ModelChannel>> own_channels(const FbxDocument& doc,
                                                                           const SharedKeyTimes& key_times,
                                                                           const ImportedTake& anim) {
  using Result = std::optional<std::unordered_map<std::string, ModelChannel>>;
  const FbxNode* objects = doc.root("Objects");
  if (!objects || !(anim.ticks_per_second > 0)) return Result();
  std::unordered_map<std::int64_t, const FbxNode*> by_id;
  std::unordered_map<std::string, const FbxNode*> models;
  std::unordered_set<std::string> repeated;
  const FbxNode* stack = nullptr;
  for (const FbxNode& o : objects->children) {
    by_id.emplace(object_id(o), &o);
    if (o.name == "Model" && !models.emplace(object_name(o), &o).second) repeated.insert(object_name(o));
    if (o.name == "AnimationStack" && object_name(o) == anim.name) {
      if (stack) return Result();  // two takes of that name
      stack = &o;
    }
  }
  if (!stack) return Result();
  const std::vector<Connection> links = connections(doc);
  auto object_of = [&](std::int64_t id, const char* cls) -> const FbxNode* {
    auto it = by_id.find(id);
    return it != by_id.end() && it->second->name == cls ? it->second : nullptr;
  };
  std::int64_t layer = 0;
  for (const Connection& l : links)
    if (l.parent == object_id(*stack) && l.property.empty() && object_of(l.child, "AnimationLayer")) {
      if (layer != 0) return Result();  // layers are blended: left to assimp
      layer = l.child;
    }
  if (layer == 0) return Result();

  // Curve nodes of the layer -> their target Model and property (the first link to a property
  // of a Model, NodeAttribute or Deformer, as assimp takes it).
  struct Target {
    std::string model;
    int component = -1;
  };
  std::unordered_map<std::int64_t, Target> curve_nodes;
  for (const Connection& l : links)
    if (l.parent == layer && l.property.empty() && object_of(l.child, "AnimationCurveNode")) curve_nodes[l.child];
  std::unordered_set<std::int64_t> targeted;
  for (const Connection& l : links) {
    auto cn = curve_nodes.find(l.child);
    if (cn == curve_nodes.end() || l.property.empty() || targeted.count(l.child)) continue;
    auto target = by_id.find(l.parent);
    if (target == by_id.end()) continue;
    const std::string& cls = target->second->name;
    if (cls != "Model" && cls != "NodeAttribute" && cls != "Deformer") continue;
    targeted.insert(l.child);
    if (cls != "Model") continue;
    for (int c = 0; c < 3; ++c)
      if (l.property == k_components[c]) cn->second = {object_name(*target->second), c};
  }

  std::unordered_map<std::string, ModelChannel> out;
  const float k_split_deg = 180.0f;
  for (const Connection& l : links) {
    auto cn = curve_nodes.find(l.parent);
    if (cn == curve_nodes.end() || cn->second.component < 0 || l.property.empty()) continue;
    const FbxNode* curve = object_of(l.child, "AnimationCurve");
    if (!curve) continue;
    int axis = -1;
    for (int a = 0; a < 3; ++a)
      if (l.property == k_axes[a]) axis = a;
    if (axis < 0) continue;
    const Target& t = cn->second;
    ModelChannel& ch = out[t.model];
    const std::vector<std::int64_t>* times = curve_times(*curve, key_times);
    ModelChannel::Values v = curve_values(*curve);
    if (!times || times->empty() || !v) return Result();
    ModelChannel::Curve& slot = ch.curves[static_cast<std::size_t>(3 * t.component + axis)];
    if (slot.values) return Result();  // two curves on one axis
    slot = {times, v};
    if (t.component == 1)
      for (std::size_t k = 1; k < times->size(); ++k)
        if (std::abs(v.at(k) - v.at(k - 1)) >= k_split_deg) return Result();  // assimp adds keys between
  }
  // Each Model's key times: its curves' own where they all have the same, else their union.
  for (auto& [name, ch] : out) {
    for (const ModelChannel::Curve& c : ch.curves)
      if (c.values && (!ch.times || c.times->size() > ch.times->size())) ch.times = c.times;
    bool shared = true;
    for (const ModelChannel::Curve& c : ch.curves)
      if (c.values && c.times != ch.times)
        for (std::int64_t t : *c.times) shared = shared && std::binary_search(ch.times->begin(), ch.times->end(), t);
    if (shared) continue;
    for (const ModelChannel::Curve& c : ch.curves)
      if (c.values) ch.merged.insert(ch.merged.end(), c.times->begin(), c.times->end());
    std::sort(ch.merged.begin(), ch.merged.end());
    ch.merged.erase(std::unique(ch.merged.begin(), ch.merged.end()), ch.merged.end());
    ch.times = &ch.merged;
  }
  // One curve node per Model and component.
  std::unordered_map<std::string, int> nodes_per_component;
  for (const auto& [id, t] : curve_nodes)
    if (t.component >= 0 && ++nodes_per_component[t.model + '\n' + std::to_string(t.component)] > 1) return Result();

  // The take's start, as assimp counts ticks from it.
  const std::int64_t local_start = p_int(*stack, "LocalStart", 0), local_stop = p_int(*stack, "LocalStop", 0);
  const bool has_span = local_start != 0 || local_stop != 0;
  double start_ticks = has_span ? static_cast<double>(local_start) / k_ktime_per_second * anim.ticks_per_second : 1e10;
  for (const auto& [name, ch] : out) {
    if (!ch.times) return Result();
    // assimp leaves keys outside the take's span out
    if (has_span && (ch.times->front() < local_start - k_window_slack || ch.times->back() > local_stop + k_window_slack))
      return Result();
    if (!has_span)
      start_ticks = std::min(start_ticks, static_cast<double>(ch.times->front()) / k_ktime_per_second * anim.ticks_per_second);
  }

  // Models whose curves assimp finds redundant have no channel: not animated here either.
  for (const ImportedChannel& channel : anim.channels) {
    const std::string& name = channel.node;
    auto it = out.find(name);
    auto model = models.find(name);
    if (it == out.end() || model == models.end() || repeated.count(name)) return Result();
    ModelChannel& ch = it->second;
    const FbxNode& m = *model->second;
    ch.defaults = {float_vec3(p_vec3(m, "Lcl Translation", {})), float_vec3(p_vec3(m, "Lcl Rotation", {})),
                   float_vec3(p_vec3(m, "Lcl Scaling", {1, 1, 1}))};
    const std::int64_t order = p_int(m, "RotationOrder", 0);
    ch.rotation_order = order >= 0 && order <= 6 ? static_cast<int>(order) : 0;
    const aiVector3D pre = float_vec3(p_vec3(m, "PreRotation", {})), post = float_vec3(p_vec3(m, "PostRotation", {}));
    ch.has_pre = pre.SquareLength() > ai_epsilon;
    ch.has_post = post.SquareLength() > ai_epsilon;
    if (ch.has_pre) ch.pre = euler_quaternion(pre, 0);
    if (ch.has_post) ch.post = euler_quaternion(post, 0);
    ch.ticks_per_second = anim.ticks_per_second;
    ch.start_ticks = start_ticks;
    // assimp's import of the first and last keys must be ours exactly.
    const std::size_t n = channel.positions.size();
    if (n < 1 || channel.rotations.size() != n || channel.scalings.size() != n) return Result();
    if (!same_key(ch.key(0), channel, 0) || !same_key(ch.key(ch.key_count() - 1), channel, n - 1)) return Result();
  }
  return out;
}

}  // namespace footfix::fbx
