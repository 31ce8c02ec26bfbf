// Test oracle independent of assimp and of footfix's reader: evaluates the Models of an FBX
// document from their Lcl curves, RotationOrder, Pre/PostRotation, pivots and offsets, Lcl
// Scaling and the Model hierarchy in Connections, giving world positions per frame.
#pragma once

#include <assimp/scene.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "fbx/fbx_document.h"  // internal to fbx, not installed

#include <gtest/gtest.h>

namespace footfix::test {

class FbxEvaluator {
 public:
  /// Keeps pointers into `doc`, which must outlive the evaluator.
  explicit FbxEvaluator(const FbxDocument& doc) {
    const FbxNode* objects = doc.root("Objects");
    std::map<std::int64_t, const FbxNode*> by_id;
    for (const auto& o : objects->children) by_id[o.properties[0].as_int()] = &o;
    for (const auto& o : objects->children)
      if (o.name == "Model") models_[o.properties[0].as_int()].node = &o;
    for (const auto& c : doc.root("Connections")->children) {
      std::string kind = c.properties[0].as_string();
      std::int64_t child = c.properties[1].as_int(), parent = c.properties[2].as_int();
      std::string prop = c.properties.size() > 3 ? c.properties[3].as_string() : "";
      if (kind == "OO" && models_.count(child) && models_.count(parent)) models_[child].parent = parent;
      if (kind == "OP" && models_.count(parent) && (prop == "Lcl Translation" || prop == "Lcl Rotation"))
        (prop == "Lcl Translation" ? models_[parent].t_node : models_[parent].r_node) = child;
      if (kind == "OP" && prop.rfind("d|", 0) == 0 && by_id.count(child)) curves_[parent][prop[2] - 'X'] = by_id[child];
    }
  }

  /// World position of the Model named `name` (object name without class) at KTime `t`.
  aiVector3D position(const std::string& name, std::int64_t t) const {
    for (const auto& [id, m] : models_)
      if (model_name(*m.node) == name) {
        aiMatrix4x4 w = world(id, t);
        return {w.a4, w.b4, w.c4};
      }
    ADD_FAILURE() << "no model " << name;
    return {};
  }

  /// Key values of the `axis` (0..2) curve on "Lcl Translation" / "Lcl Rotation" of a Model.
  std::vector<double> keys(const std::string& name, const std::string& property, int axis) const {
    std::vector<double> out;
    for (const auto& [id, m] : models_) {
      if (model_name(*m.node) != name) continue;
      auto it = curves_.find(property == "Lcl Rotation" ? m.r_node : m.t_node);
      if (it == curves_.end() || !it->second.count(axis)) continue;
      const FbxProperty& v = it->second.at(axis)->child("KeyValueFloat")->properties[0];
      for (std::size_t i = 0; i < v.array_size(); ++i) out.push_back(v.array_double(i));
    }
    return out;
  }

  static std::string model_name(const FbxNode& o) {
    const std::string& s = o.properties[1].as_string();
    std::size_t sep = s.find(std::string_view("\0\1", 2));
    if (sep != std::string::npos) return s.substr(0, sep);
    sep = s.find("::");
    return sep == std::string::npos ? s : s.substr(sep + 2);
  }

 private:
  struct Model {
    const FbxNode* node = nullptr;
    std::int64_t parent = 0, t_node = 0, r_node = 0;
  };

  static const FbxNode* find_p(const FbxNode& o, const std::string& name) {
    const FbxNode* props = o.child("Properties70");
    if (props)
      for (const auto& p : props->children)
        if (p.properties[0].as_string() == name) return &p;
    return nullptr;
  }
  static aiVector3D vec(const FbxNode& o, const std::string& name, aiVector3D fallback) {
    const FbxNode* p = find_p(o, name);
    if (!p) return fallback;
    return aiVector3D(static_cast<float>(p->properties[4].as_double()), static_cast<float>(p->properties[5].as_double()),
                      static_cast<float>(p->properties[6].as_double()));
  }
  double curve_value(const FbxNode& curve, std::int64_t t) const {
    const FbxProperty& times = curve.child("KeyTime")->properties[0];
    const FbxProperty& values = curve.child("KeyValueFloat")->properties[0];
    std::size_t n = times.array_size();
    if (t <= static_cast<std::int64_t>(times.array_double(0))) return values.array_double(0);
    for (std::size_t i = 1; i < n; ++i) {
      double t1 = times.array_double(i);
      if (static_cast<double>(t) <= t1) {
        double t0 = times.array_double(i - 1), f = (static_cast<double>(t) - t0) / (t1 - t0);
        return values.array_double(i - 1) + f * (values.array_double(i) - values.array_double(i - 1));
      }
    }
    return values.array_double(n - 1);
  }
  aiVector3D animated(std::int64_t curve_node, aiVector3D v, std::int64_t t) const {
    auto it = curves_.find(curve_node);
    if (it == curves_.end()) return v;
    for (const auto& [axis, curve] : it->second) (&v.x)[axis] = static_cast<float>(curve_value(*curve, t));
    return v;
  }
  /// FBX RotationOrder (0..5 = eEulerXYZ, XZY, YZX, YXZ, ZXY, ZYX): the letters name the axes in
  /// the order the rotations are applied to a vector, so XYZ is Rz * Ry * Rx. Built from assimp's
  /// elementary rotations, independently of footfix's Euler code and order table.
  static aiMatrix4x4 rotation(aiVector3D deg, int order) {
    static const char* const k_fbx_orders[6] = {"XYZ", "XZY", "YZX", "YXZ", "ZXY", "ZYX"};
    const char* applied = k_fbx_orders[order >= 0 && order < 6 ? order : 0];
    aiMatrix4x4 out;
    for (int n = 0; n < 3; ++n) {
      const int axis = applied[n] - 'X';
      const float rad = (&deg.x)[axis] * static_cast<float>(3.14159265358979323846 / 180.0);
      aiMatrix4x4 r;
      if (axis == 0) aiMatrix4x4::RotationX(rad, r);
      if (axis == 1) aiMatrix4x4::RotationY(rad, r);
      if (axis == 2) aiMatrix4x4::RotationZ(rad, r);
      out = r * out;  // applied after the rotations before it
    }
    return out;
  }
  aiMatrix4x4 world(std::int64_t id, std::int64_t t) const {
    const Model& m = models_.at(id);
    const FbxNode& o = *m.node;
    aiMatrix4x4 tr, sc;
    aiMatrix4x4::Translation(animated(m.t_node, vec(o, "Lcl Translation", {}), t), tr);
    aiMatrix4x4::Scaling(vec(o, "Lcl Scaling", {1, 1, 1}), sc);
    const FbxNode* order_p = find_p(o, "RotationOrder");
    int order = order_p ? static_cast<int>(order_p->properties[4].as_int()) : 0;
    auto move = [&](const char* name, float sign) {
      aiMatrix4x4 out;
      return aiMatrix4x4::Translation(vec(o, name, {}) * sign, out);
    };
    aiMatrix4x4 local = tr * move("RotationOffset", 1) * move("RotationPivot", 1) * rotation(vec(o, "PreRotation", {}), 0) *
                        rotation(animated(m.r_node, vec(o, "Lcl Rotation", {}), t), order) *
                        rotation(vec(o, "PostRotation", {}), 0).Inverse() * move("RotationPivot", -1) *
                        move("ScalingOffset", 1) * move("ScalingPivot", 1) * sc * move("ScalingPivot", -1);
    return m.parent ? world(m.parent, t) * local : local;
  }

  std::map<std::int64_t, Model> models_;
  std::map<std::int64_t, std::map<int, const FbxNode*>> curves_;
};

}  // namespace footfix::test
