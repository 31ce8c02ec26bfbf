#include "fbx_objects.h"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace footfix::fbx {

std::int64_t object_id(const FbxNode& obj) {
  return obj.properties.empty() ? 0 : obj.properties[0].as_int();
}

std::string object_name(const FbxNode& obj) {
  if (obj.properties.size() < 2) return {};
  const std::string& s = obj.properties[1].as_string();
  std::size_t sep = s.find(std::string_view("\0\1", 2));
  if (sep != std::string::npos) return s.substr(0, sep);
  sep = s.find("::");
  return sep == std::string::npos ? s : s.substr(sep + 2);
}

std::string make_object_name(bool binary, std::string_view cls, std::string_view name) {
  if (binary) return std::string(name) + std::string("\0\1", 2) + std::string(cls);
  return std::string(cls) + "::" + std::string(name);
}

const FbxNode* find_p(const FbxNode& obj, std::string_view name) {
  const FbxNode* props = obj.child("Properties70");
  if (!props) return nullptr;
  for (const auto& p : props->children)
    if (!p.properties.empty() && p.properties[0].as_string() == name) return &p;
  return nullptr;
}

FbxNode* find_p(FbxNode& obj, std::string_view name) {
  return const_cast<FbxNode*>(find_p(static_cast<const FbxNode&>(obj), name));
}

Vec3 p_vec3(const FbxNode& obj, std::string_view name, Vec3 fallback) {
  const FbxNode* p = find_p(obj, name);
  if (!p || p->properties.size() < 7) return fallback;
  return {p->properties[4].as_double(), p->properties[5].as_double(), p->properties[6].as_double()};
}

double p_number(const FbxNode& obj, std::string_view name, double fallback) {
  const FbxNode* p = find_p(obj, name);
  if (!p || p->properties.size() < 5) return fallback;
  return p->properties[4].as_double();
}

std::int64_t p_int(const FbxNode& obj, std::string_view name, std::int64_t fallback) {
  const FbxNode* p = find_p(obj, name);
  if (!p || p->properties.size() < 5) return fallback;
  return p->properties[4].as_int();
}

std::vector<Connection> connections(const FbxDocument& doc) {
  std::vector<Connection> out;
  const FbxNode* section = doc.root("Connections");
  if (!section) return out;
  for (const auto& c : section->children) {
    if (c.name != "C" || c.properties.size() < 3) continue;
    Connection k{c.properties[0].as_string(), c.properties[1].as_int(), c.properties[2].as_int(), {}};
    if (c.properties.size() > 3) k.property = c.properties[3].as_string();
    out.push_back(std::move(k));
  }
  return out;
}

std::vector<const FbxNode*> objects_of(const FbxDocument& doc, std::string_view cls) {
  std::vector<const FbxNode*> out;
  if (const FbxNode* objects = doc.root("Objects"))
    for (const auto& o : objects->children)
      if (o.name == cls) out.push_back(&o);
  return out;
}

LinkIndex::LinkIndex(std::vector<Connection> links) {
  links_.reserve(links.size());
  for (auto& l : links) add(std::move(l));
}

void LinkIndex::add(Connection link) {
  by_parent_[link.parent].push_back(links_.size());
  by_child_[link.child].push_back(links_.size());
  links_.push_back(std::move(link));
}

const std::vector<std::size_t>& LinkIndex::to_parent(std::int64_t id) const {
  static const std::vector<std::size_t> k_none;
  auto it = by_parent_.find(id);
  return it == by_parent_.end() ? k_none : it->second;
}

const std::vector<std::size_t>& LinkIndex::to_child(std::int64_t id) const {
  static const std::vector<std::size_t> k_none;
  auto it = by_child_.find(id);
  return it == by_child_.end() ? k_none : it->second;
}

bool LinkIndex::linked(std::int64_t child, std::int64_t parent) const {
  for (std::size_t i : to_child(child))
    if (links_[i].parent == parent) return true;
  return false;
}

CurveIndex curves_by_id(const FbxDocument& doc) {
  CurveIndex curves;
  for (const FbxNode* c : objects_of(doc, "AnimationCurve")) curves.emplace(object_id(*c), c);
  return curves;
}

Vec3 first_key_values(const CurveIndex& curves, const LinkIndex& links, std::int64_t model_id, std::string_view property,
                      Vec3 fallback) {
  Vec3 out = fallback;
  for (std::size_t n : links.to_parent(model_id)) {
    const Connection& node_link = links.all()[n];
    if (node_link.property != property) continue;
    for (std::size_t k : links.to_parent(node_link.child)) {
      const Connection& l = links.all()[k];
      if (l.property.size() != 3 || l.property.rfind("d|", 0) != 0) continue;
      int axis = l.property[2] - 'X';
      auto it = curves.find(l.child);
      const FbxNode* values = it == curves.end() ? nullptr : it->second->child("KeyValueFloat");
      if (axis >= 0 && axis < 3 && values && !values->properties.empty() && values->properties[0].array_size() > 0)
        at(out, axis) = values->properties[0].array_double(0);
    }
  }
  return out;
}

std::int64_t take_origin_ktime(const FbxDocument& doc, const std::string& take) {
  const FbxNode* stack = nullptr;
  for (const FbxNode* s : objects_of(doc, "AnimationStack")) {
    if (object_name(*s) == take) {
      stack = s;
      break;
    }
    if (!stack) stack = s;
  }
  if (!stack) return 0;
  std::int64_t start = p_int(*stack, "LocalStart", 0), stop = p_int(*stack, "LocalStop", 0);
  if (start != 0 || stop != 0) return start;
  std::unordered_map<std::int64_t, const FbxNode*> curves;
  for (const FbxNode* c : objects_of(doc, "AnimationCurve")) curves.emplace(object_id(*c), c);
  std::vector<Connection> links = connections(doc);
  // stack <- layers <- curve nodes <- curves
  std::unordered_set<std::int64_t> level{object_id(*stack)};
  for (int depth = 0; depth < 3; ++depth) {
    std::unordered_set<std::int64_t> next;
    for (const auto& l : links)
      if (level.count(l.parent)) next.insert(l.child);
    level = std::move(next);
  }
  std::int64_t earliest = std::numeric_limits<std::int64_t>::max();
  for (std::int64_t id : level) {
    auto it = curves.find(id);
    const FbxNode* times = it == curves.end() ? nullptr : it->second->child("KeyTime");
    if (times && !times->properties.empty() && times->properties[0].array_size() > 0)
      earliest = std::min(earliest, static_cast<std::int64_t>(times->properties[0].array_double(0)));
  }
  return earliest == std::numeric_limits<std::int64_t>::max() ? 0 : earliest;
}

}  // namespace footfix::fbx
