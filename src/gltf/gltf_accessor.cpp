#include "gltf_accessor.h"

#include <algorithm>
#include <cstring>

namespace footfix::gltf {
namespace {

/// Elements of an accessor without a buffer view (all zeros, sparse values aside): a file of a
/// few bytes must not make the reader allocate gigabytes.
constexpr std::uint64_t k_max_viewless_elements = 1u << 20;

constexpr int k_byte = 5120, k_ubyte = 5121, k_short = 5122, k_ushort = 5123, k_uint = 5125, k_float = 5126;

int component_size(int type) {
  switch (type) {
    case k_byte: case k_ubyte: return 1;
    case k_short: case k_ushort: return 2;
    case k_uint: case k_float: return 4;
    default: return 0;
  }
}

int type_components(const std::string& type) {
  if (type == "SCALAR") return 1;
  if (type == "VEC2") return 2;
  if (type == "VEC3") return 3;
  if (type == "VEC4") return 4;
  if (type == "MAT4") return 16;
  return 0;
}

/// One component at `p` as a float: floats as stored, normalized integers per the specification,
/// unnormalized integers (indices) as their value.
float component(const unsigned char* p, int type, bool normalized) {
  std::uint32_t u = 0;
  for (int i = component_size(type) - 1; i >= 0; --i) u = (u << 8) | p[i];
  switch (type) {
    case k_float: { float f; std::memcpy(&f, &u, 4); return f; }
    case k_byte: { auto v = static_cast<std::int8_t>(u); return normalized ? std::max(v / 127.0f, -1.0f) : v; }
    case k_ubyte: return normalized ? static_cast<float>(u) / 255.0f : static_cast<float>(u);
    case k_short: { auto v = static_cast<std::int16_t>(u); return normalized ? std::max(v / 32767.0f, -1.0f) : v; }
    case k_ushort: return normalized ? static_cast<float>(u) / 65535.0f : static_cast<float>(u);
    default: return static_cast<float>(u);
  }
}

/// The bytes of buffer view `view` with its stride (0 = tightly packed); checked against the buffer.
struct View {
  const unsigned char* data = nullptr;
  std::uint64_t length = 0;
  std::uint64_t stride = 0;
};

View buffer_view(const Document& doc, std::uint64_t view, const std::string& where) {
  const Json& views = array_member(doc.json, "bufferViews", doc.name);
  if (view >= views.size()) fail_at(doc.name, where, "bufferView " + std::to_string(view) + " does not exist");
  const Json& v = views[view];
  const std::string at = "bufferViews[" + std::to_string(view) + "]";
  if (v.contains("extensions") && v["extensions"].is_object() && v["extensions"].contains("EXT_meshopt_compression"))
    fail_at(doc.name, at, "EXT_meshopt_compression data is not supported");
  const std::uint64_t buffer = index_member(v, "buffer", at, doc.name, doc.buffers.size(), -2);
  const std::uint64_t offset = index_member(v, "byteOffset", at, doc.name, UINT64_MAX, 0);
  const std::uint64_t length = index_member(v, "byteLength", at, doc.name, UINT64_MAX, -2);
  const std::uint64_t stride = index_member(v, "byteStride", at, doc.name, 253, 0);
  if (stride != 0 && (stride < 4 || stride % 4 != 0))
    fail_at(doc.name, at + ".byteStride", std::to_string(stride) + " is not a multiple of 4 in 4..252");
  const std::uint64_t size = doc.buffers[buffer].size();
  if (offset > size || length > size - offset)
    fail_at(doc.name, at, "bytes " + std::to_string(offset) + ".." + std::to_string(offset + length) +
                              " are past the end of buffer " + std::to_string(buffer) + " (" + std::to_string(size) +
                              " bytes)");
  return {reinterpret_cast<const unsigned char*>(doc.buffers[buffer].data()) + offset, length, stride};
}

/// Decodes `count` elements of `components` components from `view` at `offset` into `out`
/// (resized to hold them once they are known to lie in the view).
void decode(const View& v, std::uint64_t offset, std::uint64_t count, int components, int type, bool normalized,
            const Document& doc, const std::string& where, std::vector<float>& values) {
  const std::uint64_t element = static_cast<std::uint64_t>(component_size(type)) * static_cast<std::uint64_t>(components);
  const std::uint64_t stride = v.stride ? v.stride : element;
  if (v.stride && v.stride < element)
    fail_at(doc.name, where, "byteStride " + std::to_string(v.stride) + " is shorter than one element (" +
                                 std::to_string(element) + " bytes)");
  if (offset % static_cast<std::uint64_t>(component_size(type)) != 0)
    fail_at(doc.name, where, "byteOffset is not a multiple of the component size");
  if (count > 0 && (offset > v.length || (count - 1) > (v.length - offset) / stride ||
                    (count - 1) * stride + element > v.length - offset))
    fail_at(doc.name, where, std::to_string(count) + " elements from byte " + std::to_string(offset) +
                                 " do not fit in the buffer view (" + std::to_string(v.length) + " bytes)");
  values.assign(static_cast<size_t>(count) * static_cast<size_t>(components), 0.0f);
  float* out = values.data();
  for (std::uint64_t i = 0; i < count; ++i) {
    const unsigned char* p = v.data + offset + i * stride;
    for (int c = 0; c < components; ++c) out[i * static_cast<std::uint64_t>(components) + static_cast<std::uint64_t>(c)] =
        component(p + c * component_size(type), type, normalized);
  }
}

}  // namespace

AccessorData read_accessor(const Document& doc, std::uint64_t index, const std::string& where,
                           std::initializer_list<int> allowed_components, const ReadLimits& limits) {
  const Json& accessors = array_member(doc.json, "accessors", doc.name);
  if (index >= accessors.size())
    fail_at(doc.name, where, "accessor " + std::to_string(index) + " does not exist (" +
                                 std::to_string(accessors.size()) + " accessors)");
  const Json& a = accessors[index];
  const std::string at = "accessors[" + std::to_string(index) + "]";
  if (!a.is_object()) fail_at(doc.name, at, "not an object");
  AccessorData out;
  const int type = static_cast<int>(index_member(a, "componentType", at, doc.name, 6000, -2));
  if (component_size(type) == 0) fail_at(doc.name, at + ".componentType", "unknown component type " + std::to_string(type));
  const bool normalized = a.contains("normalized") && a["normalized"].is_boolean() && a["normalized"].get<bool>();
  if (!a.contains("type") || !a["type"].is_string()) fail_at(doc.name, at + ".type", "missing");
  out.components = type_components(a["type"].get<std::string>());
  if (std::find(allowed_components.begin(), allowed_components.end(), out.components) == allowed_components.end())
    fail_at(doc.name, at + ".type", "'" + a["type"].get<std::string>() + "' is not expected for " + where);
  out.count = index_member(a, "count", at, doc.name, UINT64_MAX, -2);
  const long double bytes = static_cast<long double>(out.count) * out.components * sizeof(float);
  if (bytes > static_cast<long double>(limits.max_memory_bytes))
    fail_at(doc.name, at + ".count", std::to_string(out.count) + " elements are over the memory limit (--max-memory)");
  const std::uint64_t offset = index_member(a, "byteOffset", at, doc.name, UINT64_MAX, 0);
  const auto view_index = index_member(a, "bufferView", at, doc.name, UINT64_MAX, -1);
  if (view_index == static_cast<std::uint64_t>(-1) && out.count > k_max_viewless_elements)
    fail_at(doc.name, at, "no bufferView and " + std::to_string(out.count) + " elements: refused");
  if (view_index != static_cast<std::uint64_t>(-1))
    decode(buffer_view(doc, view_index, at + ".bufferView"), offset, out.count, out.components, type, normalized, doc, at,
           out.values);
  else
    out.values.assign(static_cast<size_t>(out.count) * static_cast<size_t>(out.components), 0.0f);
  if (!a.contains("sparse")) return out;
  const Json& s = a["sparse"];
  const std::string sat = at + ".sparse";
  const std::uint64_t n = index_member(s, "count", sat, doc.name, out.count + 1, -2);
  if (!s.contains("indices") || !s.contains("values")) fail_at(doc.name, sat, "indices or values missing");
  const Json& si = s["indices"];
  const Json& sv = s["values"];
  const int itype = static_cast<int>(index_member(si, "componentType", sat + ".indices", doc.name, 6000, -2));
  if (itype != k_ubyte && itype != k_ushort && itype != k_uint)
    fail_at(doc.name, sat + ".indices.componentType", "must be an unsigned integer type");
  std::vector<float> idx;
  decode(buffer_view(doc, index_member(si, "bufferView", sat + ".indices", doc.name, UINT64_MAX, -2), sat + ".indices"),
         index_member(si, "byteOffset", sat + ".indices", doc.name, UINT64_MAX, 0), n, 1, itype, false, doc,
         sat + ".indices", idx);
  std::vector<float> vals;
  decode(buffer_view(doc, index_member(sv, "bufferView", sat + ".values", doc.name, UINT64_MAX, -2), sat + ".values"),
         index_member(sv, "byteOffset", sat + ".values", doc.name, UINT64_MAX, 0), n, out.components, type, normalized,
         doc, sat + ".values", vals);
  for (std::uint64_t k = 0; k < n; ++k) {
    const double i = idx[static_cast<size_t>(k)];
    if (i < 0 || i >= static_cast<double>(out.count))
      fail_at(doc.name, sat + ".indices", "index " + std::to_string(static_cast<long long>(i)) + " is past the accessor's count");
    for (int c = 0; c < out.components; ++c)
      out.values[static_cast<size_t>(i) * static_cast<size_t>(out.components) + static_cast<size_t>(c)] =
          vals[static_cast<size_t>(k) * static_cast<size_t>(out.components) + static_cast<size_t>(c)];
  }
  return out;
}

}  // namespace footfix::gltf
