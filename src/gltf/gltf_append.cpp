#include "gltf_append.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

namespace footfix::gltf {
namespace {

/// Stores `item` in `list` at the first of `free` (taken from it), else at the end; returns where.
size_t place_in_slot(Json& list, std::vector<size_t>& free, Json item) {
  if (free.empty()) {
    list.push_back(std::move(item));
    return list.size() - 1;
  }
  const size_t at = free.front();
  free.erase(free.begin());
  list[at] = std::move(item);
  return at;
}

}  // namespace

size_t Appender::add(const std::vector<float>& floats, const char* type, size_t count, Json min, Json max) {
  bytes_.append((4 - bytes_.size() % 4) % 4, '\0');  // float data start on a 4-byte boundary
  const size_t offset = bytes_.size();
  bytes_ += little_endian_bytes(floats);
  if (!json_.contains("bufferViews")) json_["bufferViews"] = Json::array();
  if (!json_.contains("accessors")) json_["accessors"] = Json::array();
  Json view = Json::object();
  view["buffer"] = buffer_;
  view["byteOffset"] = offset;
  view["byteLength"] = floats.size() * 4;
  const size_t view_index = place_in_slot(json_["bufferViews"], free_views_, std::move(view));
  Json accessor = Json::object();
  accessor["bufferView"] = view_index;
  accessor["componentType"] = 5126;
  accessor["count"] = count;
  accessor["type"] = type;
  if (!min.is_null()) {
    accessor["min"] = std::move(min);
    accessor["max"] = std::move(max);
  }
  return place_in_slot(json_["accessors"], free_accessors_, std::move(accessor));
}

void Appender::reuse(std::vector<size_t> accessors, std::vector<size_t> views) {
  free_accessors_ = std::move(accessors);
  free_views_ = std::move(views);
}

size_t Appender::drop_trailing_spares() {
  auto drop = [this](const char* key, std::vector<size_t>& spare) {
    if (!json_.contains(key)) return spare.size();
    Json& list = json_[key];
    while (!spare.empty() && list.is_array() && spare.back() + 1 == list.size()) {
      list.erase(list.size() - 1);
      spare.pop_back();
    }
    return spare.size();
  };
  return drop("accessors", free_accessors_) + drop("bufferViews", free_views_);
}

std::string little_endian_bytes(const std::vector<float>& floats) {
  static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559, "glTF floats are IEEE 754 binary32");
  std::string out(floats.size() * 4, '\0');
  for (size_t i = 0; i < floats.size(); ++i) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &floats[i], 4);
    for (int b = 0; b < 4; ++b) out[i * 4 + static_cast<size_t>(b)] = static_cast<char>((bits >> (8 * b)) & 0xFF);
  }
  return out;
}

size_t Appender::times(const std::vector<float>& seconds) {
  const auto [lo, hi] = std::minmax_element(seconds.begin(), seconds.end());
  return add(seconds, "SCALAR", seconds.size(), Json::array({*lo}), Json::array({*hi}));
}

size_t Appender::vec3(const std::vector<Vec3>& values) {
  std::vector<float> f;
  f.reserve(values.size() * 3);
  for (const Vec3& v : values) f.insert(f.end(), {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)});
  return add(f, "VEC3", values.size(), nullptr, nullptr);
}

size_t Appender::quat(const std::vector<Quat>& values) {
  std::vector<float> f;
  f.reserve(values.size() * 4);
  for (const Quat& q : values)
    f.insert(f.end(), {static_cast<float>(q.x), static_cast<float>(q.y), static_cast<float>(q.z), static_cast<float>(q.w)});
  return add(f, "VEC4", values.size(), nullptr, nullptr);
}

std::vector<float> frame_times(const Clip& clip, double start) {
  std::vector<float> t(static_cast<size_t>(clip.frame_count));
  for (int f = 0; f < clip.frame_count; ++f) t[static_cast<size_t>(f)] = static_cast<float>(start + f / clip.fps);
  return t;
}

void store_footfix_extras(Json& animation, const std::string& extras) {
  if (extras.empty()) return;
  if (!animation.contains("extras")) animation["extras"] = Json::object();
  if (!animation["extras"].is_object()) return;
  animation["extras"]["footfix"] = Json::parse(extras);
}

std::string base64(const std::string& bytes) {
  static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 2]);
    out.push_back(alphabet[(v >> 18) & 63]);
    out.push_back(alphabet[(v >> 12) & 63]);
    out.push_back(i + 1 < bytes.size() ? alphabet[(v >> 6) & 63] : '=');
    out.push_back(i + 2 < bytes.size() ? alphabet[v & 63] : '=');
  }
  return out;
}

}  // namespace footfix::gltf
