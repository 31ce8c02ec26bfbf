#include "fbx_curves.h"

#include <algorithm>

#include "footfix/core/error.h"

namespace footfix::fbx {
namespace {

const char* const k_axes[3] = {"d|X", "d|Y", "d|Z"};

/// Keeps the first n elements of an array property.
void truncate(FbxProperty& p, std::size_t n) {
  std::visit(
      [n](auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (!std::is_same_v<T, std::int64_t> && !std::is_same_v<T, double> && !std::is_same_v<T, std::string>)
          if (v.size() > n) v.resize(n);
      },
      p.value);
}

FbxNode scalar_node(const std::string& name, FbxProperty p) { return FbxNode{name, {std::move(p)}, {}, false}; }

FbxProperty array_property(std::vector<std::int64_t> v, bool compressed) { return {'l', std::move(v), compressed}; }
FbxProperty array_property(std::vector<float> v, bool compressed) { return {'f', std::move(v), compressed}; }
FbxProperty array_property(std::vector<std::int32_t> v, bool compressed) { return {'i', std::move(v), compressed}; }

FbxNode& child_or_add(FbxNode& n, const std::string& name) {
  if (FbxNode* c = n.child(name)) return *c;
  n.children.push_back(FbxNode{name, {}, {}, false});
  return n.children.back();
}

FbxNode number_p(const std::string& name, double v) {
  return FbxNode{"P",
                 {FbxProperty::string(name), FbxProperty::string("Number"), FbxProperty::string(""),
                  FbxProperty::string("A"), FbxProperty::real('D', v)},
                 {},
                 false};
}

}  // namespace

CurveEditor::CurveEditor(FbxDocument& doc, const std::string& take) : doc_(doc) {
  if (!doc_.root("Objects") || !doc_.root("Connections")) fail(ErrorKind::write, "FBX document has no Objects or Connections section");
  links_ = LinkIndex(connections(doc_));
  FbxNode& objs = objects();
  std::int64_t stack = 0;
  for (std::size_t i = 0; i < objs.children.size(); ++i) {
    const FbxNode& o = objs.children[i];
    std::int64_t id = object_id(o);
    index_[id] = i;
    next_id_ = std::max(next_id_, id + 1);
    if (o.name == "AnimationStack" && (stack == 0 || object_name(o) == take)) stack = id;
    if (o.name == "AnimationCurve" && !has_template_) {
      template_copy_ = o;
      has_template_ = true;
    }
  }
  for (const auto& c : links_.all()) next_id_ = std::max({next_id_, c.child + 1, c.parent + 1});
  if (stack == 0) fail(ErrorKind::write, "FBX document has no AnimationStack");
  layer_ = find_child(stack, "AnimationLayer", "");
  if (layer_ == 0) fail(ErrorKind::write, "FBX AnimationStack has no AnimationLayer");
}

FbxNode& CurveEditor::objects() { return *doc_.root("Objects"); }

FbxNode* CurveEditor::object(std::int64_t id) {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &objects().children[it->second];
}

std::int64_t CurveEditor::find_child(std::int64_t parent, const std::string& cls, const std::string& property) const {
  for (std::size_t i : links_.to_parent(parent)) {
    const Connection& c = links_.all()[i];
    if (c.property != property) continue;
    auto it = index_.find(c.child);
    if (it == index_.end()) continue;
    const FbxNode& o = doc_.root("Objects")->children[it->second];
    if (o.name != cls) continue;
    if (cls == "AnimationCurveNode") {
      if (!links_.linked(c.child, layer_)) continue;
    }
    return c.child;
  }
  return 0;
}

std::int64_t CurveEditor::add_object(FbxNode node) {
  std::int64_t id = next_id_++;
  node.properties.at(0) = FbxProperty::integer('L', id);
  index_[id] = objects().children.size();
  objects().children.push_back(std::move(node));
  bump_definition(objects().children.back().name);
  return id;
}

void CurveEditor::connect(const char* kind, std::int64_t child, std::int64_t parent, const std::string& property) {
  FbxNode c{"C", {FbxProperty::string(kind), FbxProperty::integer('L', child), FbxProperty::integer('L', parent)}, {}, false};
  if (!property.empty()) c.properties.push_back(FbxProperty::string(property));
  doc_.root("Connections")->children.push_back(std::move(c));
  links_.add({kind, child, parent, property});
}

void CurveEditor::bump_definition(const std::string& type) {
  FbxNode* defs = doc_.root("Definitions");
  if (!defs) return;
  for (auto& d : defs->children) {
    bool match = d.name == "ObjectType" && !d.properties.empty() && d.properties[0].as_string() == type;
    if (!match && d.name != "Count") continue;
    FbxNode* count = d.name == "Count" ? &d : d.child("Count");
    if (count && !count->properties.empty()) {
      FbxProperty& p = count->properties[0];
      p.value = p.as_int() + 1;
    }
  }
}

void CurveEditor::fill_curve(FbxNode& curve, const std::vector<std::int64_t>& times, const std::vector<float>& values) {
  bool packed = doc_.binary;
  child_or_add(curve, "Default").properties = {FbxProperty::real('D', values.empty() ? 0.0 : values[0])};
  FbxNode& key_time = child_or_add(curve, "KeyTime");
  key_time.properties = {array_property(times, packed)};
  child_or_add(curve, "KeyValueFloat").properties = {array_property(values, packed)};
  FbxNode& flags = child_or_add(curve, "KeyAttrFlags");
  if (flags.properties.empty() || !flags.properties[0].is_array() || flags.properties[0].array_size() == 0)
    flags.properties = {array_property(std::vector<std::int32_t>{8456}, false)};
  truncate(flags.properties[0], 1);
  FbxNode& data = child_or_add(curve, "KeyAttrDataFloat");
  if (data.properties.empty() || !data.properties[0].is_array() || data.properties[0].array_size() < 4)
    data.properties = {array_property(std::vector<float>{0, 0, 0, 0}, false)};
  truncate(data.properties[0], 4);
  child_or_add(curve, "KeyAttrRefCount").properties = {
      array_property(std::vector<std::int32_t>{static_cast<std::int32_t>(times.size())}, false)};
}

void CurveEditor::set_curves(std::int64_t model_id, const std::string& property, const std::vector<std::int64_t>& times,
                             const std::array<std::vector<float>, 3>& values) {
  std::int64_t node_id = find_child(model_id, "AnimationCurveNode", property);
  if (node_id == 0) {
    std::string short_name = property == "Lcl Rotation" ? "R" : property == "Lcl Translation" ? "T" : "S";
    FbxNode cn{"AnimationCurveNode",
               {FbxProperty::integer('L', 0), FbxProperty::string(make_object_name(doc_.binary, "AnimCurveNode", short_name)),
                FbxProperty::string("")},
               {FbxNode{"Properties70", {}, {}, true}},
               true};
    node_id = add_object(std::move(cn));
    connect("OO", node_id, layer_, "");
    connect("OP", node_id, model_id, property);
  }
  for (int axis = 0; axis < 3; ++axis) {
    double first = values[axis].empty() ? 0.0 : values[axis][0];
    FbxNode& props = child_or_add(*object(node_id), "Properties70");
    props.null_terminated = true;
    if (FbxNode* p = find_p(*object(node_id), k_axes[axis]); p && p->properties.size() >= 5)
      p->properties[4] = FbxProperty::real('D', first);
    else
      props.children.push_back(number_p(k_axes[axis], first));
    std::int64_t curve_id = find_child(node_id, "AnimationCurve", k_axes[axis]);
    if (curve_id == 0) {
      FbxNode curve = has_template_ ? template_copy_
                                      : FbxNode{"AnimationCurve",
                                                {FbxProperty::integer('L', 0),
                                                 FbxProperty::string(make_object_name(doc_.binary, "AnimCurve", "")),
                                                 FbxProperty::string("")},
                                                {scalar_node("KeyVer", FbxProperty::integer('I', 4009))},
                                                true};
      curve_id = add_object(std::move(curve));
      connect("OP", curve_id, node_id, k_axes[axis]);
    }
    fill_curve(*object(curve_id), times, values[axis]);
  }
}

}  // namespace footfix::fbx
