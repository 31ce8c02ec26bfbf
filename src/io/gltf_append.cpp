#include "gltf_append.h"

#include <algorithm>
#include <cstring>

namespace footfix::gltf {

size_t Appender::add(const std::vector<float>& floats, const char* type, size_t count, Json min, Json max) {
  bytes_.append((4 - bytes_.size() % 4) % 4, '\0');  // float data start on a 4-byte boundary
  const size_t offset = bytes_.size();
  const size_t at = bytes_.size();
  bytes_.resize(at + floats.size() * 4);
  if (!floats.empty()) std::memcpy(&bytes_[at], floats.data(), floats.size() * 4);
  if (!json_.contains("bufferViews")) json_["bufferViews"] = Json::array();
  if (!json_.contains("accessors")) json_["accessors"] = Json::array();
  Json view = Json::object();
  view["buffer"] = buffer_;
  view["byteOffset"] = offset;
  view["byteLength"] = floats.size() * 4;
  json_["bufferViews"].push_back(view);
  Json accessor = Json::object();
  accessor["bufferView"] = json_["bufferViews"].size() - 1;
  accessor["componentType"] = 5126;
  accessor["count"] = count;
  accessor["type"] = type;
  if (!min.is_null()) {
    accessor["min"] = std::move(min);
    accessor["max"] = std::move(max);
  }
  json_["accessors"].push_back(accessor);
  return json_["accessors"].size() - 1;
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
