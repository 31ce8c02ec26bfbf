#include "gltf_nodes.h"

#include <cmath>

namespace footfix::gltf {
namespace {

std::vector<double> numbers(const Json& node, const char* key, size_t n, const std::string& name,
                            const std::string& where) {
  const Json& v = node[key];
  if (!v.is_array() || v.size() != n) fail_at(name, where + "." + key, "expected " + std::to_string(n) + " numbers");
  std::vector<double> out;
  for (const Json& x : v) {
    if (!x.is_number() || !std::isfinite(x.get<double>())) fail_at(name, where + "." + key, "not a finite number");
    out.push_back(x.get<double>());
  }
  return out;
}

/// A column-major 4x4 matrix's translation, rotation and scale (no shear assumed).
void decompose(const std::vector<double>& m, Node& n) {
  n.translation = {m[12], m[13], m[14]};
  Vec3 c0{m[0], m[1], m[2]}, c1{m[4], m[5], m[6]}, c2{m[8], m[9], m[10]};
  n.scale = {length(c0), length(c1), length(c2)};
  if (dot(cross(c0, c1), c2) < 0) n.scale.x = -n.scale.x;
  if (n.scale.x != 0) c0 = c0 / n.scale.x;
  if (n.scale.y != 0) c1 = c1 / n.scale.y;
  if (n.scale.z != 0) c2 = c2 / n.scale.z;
  // rotation matrix r[row][col] = c<col>.<row>
  const double trace = c0.x + c1.y + c2.z;
  Quat q;
  if (trace > 0) {
    const double s = std::sqrt(trace + 1.0) * 2;
    q = {0.25 * s, (c1.z - c2.y) / s, (c2.x - c0.z) / s, (c0.y - c1.x) / s};
  } else if (c0.x > c1.y && c0.x > c2.z) {
    const double s = std::sqrt(1.0 + c0.x - c1.y - c2.z) * 2;
    q = {(c1.z - c2.y) / s, 0.25 * s, (c1.x + c0.y) / s, (c2.x + c0.z) / s};
  } else if (c1.y > c2.z) {
    const double s = std::sqrt(1.0 + c1.y - c0.x - c2.z) * 2;
    q = {(c2.x - c0.z) / s, (c1.x + c0.y) / s, 0.25 * s, (c2.y + c1.z) / s};
  } else {
    const double s = std::sqrt(1.0 + c2.z - c0.x - c1.y) * 2;
    q = {(c0.y - c1.x) / s, (c2.x + c0.z) / s, (c2.y + c1.z) / s, 0.25 * s};
  }
  n.rotation = normalize(q);
}

}  // namespace

std::vector<Node> read_nodes(const Document& doc) {
  const Json& list = array_member(doc.json, "nodes", doc.name);
  std::vector<Node> nodes(list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    const Json& j = list[i];
    const std::string where = "nodes[" + std::to_string(i) + "]";
    if (!j.is_object()) fail_at(doc.name, where, "not an object");
    Node& n = nodes[i];
    n.name = j.contains("name") && j["name"].is_string() ? j["name"].get<std::string>() : "node" + std::to_string(i);
    if (j.contains("matrix")) {
      decompose(numbers(j, "matrix", 16, doc.name, where), n);
      n.has_matrix = true;
    }
    if (j.contains("translation")) {
      auto v = numbers(j, "translation", 3, doc.name, where);
      n.translation = {v[0], v[1], v[2]};
    }
    if (j.contains("rotation")) {
      auto v = numbers(j, "rotation", 4, doc.name, where);
      n.rotation = normalize(Quat{v[3], v[0], v[1], v[2]});
    }
    if (j.contains("scale")) {
      auto v = numbers(j, "scale", 3, doc.name, where);
      n.scale = {v[0], v[1], v[2]};
    }
    if (!j.contains("children")) continue;
    if (!j["children"].is_array()) fail_at(doc.name, where + ".children", "not an array");
    for (size_t c = 0; c < j["children"].size(); ++c) {
      const std::string at = where + ".children[" + std::to_string(c) + "]";
      const Json& child = j["children"][c];
      if (!child.is_number_unsigned() || child.get<std::uint64_t>() >= list.size())
        fail_at(doc.name, at, "not a node index");
      const auto k = child.get<size_t>();
      if (nodes[k].parent >= 0 || k == i) fail_at(doc.name, at, "node " + std::to_string(k) + " has two parents");
      nodes[k].parent = static_cast<int>(i);
      n.children.push_back(static_cast<int>(k));
    }
  }
  // A cycle: walking up from a node reaches a node of the same walk. Nodes whose chain reaches a
  // root are marked, so every node is walked once.
  std::vector<int> state(nodes.size(), 0);  // 0 unknown, 1 on the current walk, 2 reaches a root
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::vector<int> walk;
    int p = static_cast<int>(i);
    while (p >= 0 && state[static_cast<size_t>(p)] == 0) {
      state[static_cast<size_t>(p)] = 1;
      walk.push_back(p);
      p = nodes[static_cast<size_t>(p)].parent;
    }
    if (p >= 0 && state[static_cast<size_t>(p)] == 1)
      fail_at(doc.name, "nodes[" + std::to_string(p) + "]", "the hierarchy has a cycle");
    for (int w : walk) state[static_cast<size_t>(w)] = 2;
  }
  return nodes;
}

}  // namespace footfix::gltf
