#include "fbx_budget.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "fbx_objects.h"
#include "footfix/core/error.h"
#include "footfix/core/text.h"
#include "footfix/fbx/fbx.h"

namespace footfix::fbx {
namespace {

constexpr std::uint64_t k_mib = 1ull << 20;

void check_model_depth(const FbxDocument& doc, const std::vector<Connection>& links, const std::string& name) {
  std::unordered_map<std::int64_t, int> depth;  // model id -> depth, -1 = not computed yet
  for (const FbxNode* m : objects_of(doc, "Model")) depth.emplace(object_id(*m), -1);
  // One parent Model per Model: assimp copies a subtree once per parent link, so a chain whose
  // every level links twice to its parent doubles the node count per level.
  std::unordered_map<std::int64_t, std::int64_t> parent;
  for (const auto& l : links)
    if (l.kind == "OO" && depth.count(l.child) && depth.count(l.parent) && !parent.emplace(l.child, l.parent).second)
      fail(ErrorKind::read, name + ": Model " + std::to_string(l.child) +
                                " is linked to more than one parent Model; refused before import");
  std::vector<std::int64_t> chain;
  for (auto& [id, d] : depth) {
    if (d >= 0) continue;
    chain.clear();
    std::int64_t at = id;
    int base = 0;
    for (;;) {
      auto known = depth.find(at);
      if (known->second >= 0) {
        base = known->second;
        break;
      }
      chain.push_back(at);
      if (chain.size() > static_cast<std::size_t>(k_max_model_depth))
        fail(ErrorKind::read, name + ": Model hierarchy deeper than " + std::to_string(k_max_model_depth) +
                                  " levels (or cyclic); refused before import");
      auto up = parent.find(at);
      if (up == parent.end()) {
        base = -1;  // `at` is a root: depth 0
        break;
      }
      at = up->second;
    }
    // chain.back() is either a root (base -1) or a child of a node of known depth `base`.
    int next = base + 1;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it, ++next) {
      if (next > k_max_model_depth)
        fail(ErrorKind::read, name + ": Model hierarchy deeper than " + std::to_string(k_max_model_depth) +
                                  " levels; refused before import");
      depth[*it] = next;
    }
  }
}

struct KeySpan {
  std::size_t keys = 0;
  double span_s = 0;
};

/// How many keys `times` holds and the span of their times in seconds.
template <typename Times>
KeySpan key_span(std::size_t keys, const Times& times) {
  KeySpan out;
  out.keys = keys;
  if (out.keys == 0) return out;
  double lo = times(0), hi = lo;
  for (std::size_t i = 1; i < out.keys; ++i) {
    double v = times(i);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  out.span_s = (hi - lo) / static_cast<double>(k_fbx_ktime_per_second);
  return out;
}

KeySpan curve_keys(const FbxNode& curve, const SharedKeyTimes& key_times) {
  if (const std::vector<std::int64_t>* shared = shared_key_times(curve, key_times))
    return key_span(shared->size(), [&](std::size_t i) { return static_cast<double>((*shared)[i]); });
  const FbxNode* times = curve.child("KeyTime");
  if (!times || times->properties.empty()) return {};
  const FbxProperty& t = times->properties[0];
  return key_span(t.array_size(), [&](std::size_t i) { return t.array_double(i); });
}

}  // namespace

void check_import_budget(const FbxDocument& doc, const SharedKeyTimes& key_times, const std::string& name,
                         const ReadLimits& limits) {
  const std::vector<Connection> links = connections(doc);
  check_model_depth(doc, links, name);

  std::unordered_map<std::int64_t, KeySpan> curves;
  for (const FbxNode* c : objects_of(doc, "AnimationCurve")) {
    KeySpan k = curve_keys(*c, key_times);
    if (k.span_s > limits.max_duration_s)
      fail_over_duration(name + ": AnimationCurve " + std::to_string(object_id(*c)), "spans", k.span_s, limits);
    curves.emplace(object_id(*c), k);
  }
  std::unordered_map<std::int64_t, std::vector<std::int64_t>> children;
  for (const auto& l : links) children[l.parent].push_back(l.child);

  // Each take is converted on its own: a curve shared by several takes costs once per take.
  // Counting stops as soon as the budget is exceeded, so hostile graphs cost bounded time.
  const std::uint64_t budget_items = limits.max_memory_bytes / k_importer_bytes_per_key;
  std::uint64_t items = 0;
  for (const FbxNode* stack : objects_of(doc, "AnimationStack")) {
    const double start = static_cast<double>(p_int(*stack, "LocalStart", 0));
    const double stop = static_cast<double>(p_int(*stack, "LocalStop", 0));
    const double declared_s = (stop - start) / static_cast<double>(k_fbx_ktime_per_second);
    if (declared_s > limits.max_duration_s)
      fail_over_duration(name + ": take '" + printable(object_name(*stack), 40) + "'", "spans", declared_s, limits);
    std::vector<std::int64_t> level{object_id(*stack)};
    for (int depth = 0; depth < 3 && items <= budget_items; ++depth) {  // stack <- layers <- curve nodes <- curves
      std::vector<std::int64_t> next;
      for (std::int64_t id : level) {
        auto it = children.find(id);
        if (it == children.end()) continue;
        for (std::int64_t child : it->second) {
          ++items;
          if (depth == 2)
            if (auto c = curves.find(child); c != curves.end()) items += c->second.keys;
          if (items > budget_items) break;
          next.push_back(child);
        }
        if (items > budget_items) break;
      }
      level = std::move(next);
    }
    if (items > budget_items)
      fail(ErrorKind::read, name + ": the takes hold more than " + std::to_string(budget_items) +
                                " keys in all (about " + std::to_string(items * k_importer_bytes_per_key / k_mib) +
                                " MiB inside the importer), over the memory limit of " +
                                std::to_string(limits.max_memory_bytes / k_mib) + " MiB (--max-memory)");
  }
}

std::uint64_t max_scene_nodes(const ReadLimits& limits) { return limits.max_memory_bytes / k_bytes_per_scene_node; }

void fail_too_many_nodes(const std::string& name, const ReadLimits& limits) {
  fail(ErrorKind::read, name + ": the FBX importer made more than " + std::to_string(max_scene_nodes(limits)) +
                            " scene nodes (about " + std::to_string(k_bytes_per_scene_node >> 10) +
                            " KiB each), over the memory limit of " + std::to_string(limits.max_memory_bytes >> 20) +
                            " MiB (--max-memory); file refused");
}

}  // namespace footfix::fbx
