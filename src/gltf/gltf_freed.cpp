#include "gltf_freed.h"

#include <algorithm>

namespace footfix::gltf {
namespace {

bool is_index(const Json& j) { return j.is_number_unsigned() || (j.is_number_integer() && j.get<std::int64_t>() >= 0); }

void count_index(const Json& j, std::vector<size_t>& refs) {
  if (!is_index(j)) return;
  const std::uint64_t i = j.get<std::uint64_t>();
  if (i < refs.size()) ++refs[static_cast<size_t>(i)];
}

bool names_accessor(const std::string& key) {
  for (const char* k : {"input", "output", "indices", "inverseBindMatrices", "accessor"})
    if (key == k) return true;
  return false;
}

/// Adds to `refs` every accessor reference under `j` (see freed_by_retargeting); `skip` is the
/// samplers array whose freed entries do not count, `freed` their indices.
void count_accessor_refs(const Json& j, std::vector<size_t>& refs, const Json* skip, const std::vector<size_t>& freed) {
  if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) {
      if (&j == skip && std::binary_search(freed.begin(), freed.end(), i)) continue;
      count_accessor_refs(j[i], refs, skip, freed);
    }
    return;
  }
  if (!j.is_object()) return;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "attributes" && it->is_object()) {
      for (const Json& v : *it) count_index(v, refs);
    } else if (it.key() == "targets" && it->is_array()) {
      for (const Json& target : *it)
        if (target.is_object())
          for (const Json& v : target) count_index(v, refs);
    } else if (names_accessor(it.key())) {
      count_index(*it, refs);
    }
    count_accessor_refs(*it, refs, skip, freed);
  }
}

void count_view_refs(const Json& j, std::vector<size_t>& refs) {
  if (j.is_array()) {
    for (const Json& v : j) count_view_refs(v, refs);
    return;
  }
  if (!j.is_object()) return;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "bufferView") count_index(*it, refs);
    count_view_refs(*it, refs);
  }
}

/// The buffer views accessor `a` reads (its own and its sparse indices' and values').
std::vector<const Json*> views_of(const Json& a) {
  std::vector<const Json*> out;
  if (!a.is_object()) return out;
  if (a.contains("bufferView")) out.push_back(&a["bufferView"]);
  if (a.contains("sparse") && a["sparse"].is_object())
    for (const char* part : {"indices", "values"})
      if (a["sparse"].contains(part) && a["sparse"][part].is_object() && a["sparse"][part].contains("bufferView"))
        out.push_back(&a["sparse"][part]["bufferView"]);
  return out;
}

const Json k_no_members = Json::array();

const Json& array_or_empty(const Json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_array() ? j[key] : k_no_members;
}

}  // namespace

Freed freed_by_retargeting(const Json& json, size_t animation, const std::vector<char>& replaced_channels) {
  Freed out;
  const Json& anim = array_or_empty(json, "animations")[animation];
  const Json& samplers = array_or_empty(anim, "samplers");
  const Json& channels = array_or_empty(anim, "channels");
  // A sampler is freed when every channel that uses it is replaced.
  std::vector<size_t> users(samplers.size(), 0), replaced(samplers.size(), 0);
  for (size_t c = 0; c < channels.size(); ++c) {
    if (!channels[c].is_object() || !channels[c].contains("sampler")) continue;
    const Json& s = channels[c]["sampler"];
    if (!is_index(s) || s.get<std::uint64_t>() >= samplers.size()) continue;
    ++users[s.get<size_t>()];
    if (c < replaced_channels.size() && replaced_channels[c]) ++replaced[s.get<size_t>()];
  }
  for (size_t s = 0; s < samplers.size(); ++s)
    if (replaced[s] > 0 && replaced[s] == users[s]) out.samplers.push_back(s);

  // Accessors that only freed samplers name.
  const Json& accessors = array_or_empty(json, "accessors");
  std::vector<size_t> accessor_refs(accessors.size(), 0);
  for (auto it = json.begin(); it != json.end(); ++it)
    if (it.key() != "accessors" && it.key() != "bufferViews") count_accessor_refs(*it, accessor_refs, &samplers, out.samplers);
  for (size_t s : out.samplers)
    for (const char* key : {"input", "output"}) {
      const Json& a = samplers[s].is_object() && samplers[s].contains(key) ? samplers[s][key] : Json();
      if (is_index(a) && a.get<std::uint64_t>() < accessors.size() && accessor_refs[a.get<size_t>()] == 0)
        out.accessors.push_back(a.get<size_t>());
    }
  std::sort(out.accessors.begin(), out.accessors.end());
  out.accessors.erase(std::unique(out.accessors.begin(), out.accessors.end()), out.accessors.end());

  // Buffer views that only freed accessors read.
  const Json& views = array_or_empty(json, "bufferViews");
  std::vector<size_t> view_refs(views.size(), 0);
  for (auto it = json.begin(); it != json.end(); ++it) {
    if (it.key() == "bufferViews") continue;
    if (it.key() != "accessors") {
      count_view_refs(*it, view_refs);
      continue;
    }
    for (size_t a = 0; a < accessors.size(); ++a)
      if (!std::binary_search(out.accessors.begin(), out.accessors.end(), a)) count_view_refs(accessors[a], view_refs);
  }
  for (size_t a : out.accessors)
    for (const Json* v : views_of(accessors[a]))
      if (is_index(*v) && v->get<std::uint64_t>() < views.size() && view_refs[v->get<size_t>()] == 0)
        out.views.push_back(v->get<size_t>());
  std::sort(out.views.begin(), out.views.end());
  out.views.erase(std::unique(out.views.begin(), out.views.end()), out.views.end());
  return out;
}

}  // namespace footfix::gltf
