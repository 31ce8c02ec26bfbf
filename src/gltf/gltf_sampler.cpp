#include "gltf_sampler.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace footfix::gltf {
namespace {

using Vec4 = std::array<double, 4>;

/// The key k such that times[k] <= t < times[k + 1], and the fraction of the way to k + 1 (0 where
/// t is within one float32 step of a key: k is then that key).
void locate(const std::vector<float>& times, double t, size_t& k, double& u, double& dt) {
  const size_t n = times.size();
  if (t <= times.front()) { k = 0; u = 0; dt = 0; return; }
  if (t >= times.back()) { k = n - 1; u = 0; dt = 0; return; }
  const float key_time = static_cast<float>(t);
  k = static_cast<size_t>(std::upper_bound(times.begin(), times.end(), key_time) - times.begin()) - 1;
  if (k + 1 >= n) { k = n - 1; u = 0; dt = 0; return; }
  // A time within one float32 step of a key is that key (a frame of a clip keyed every frame):
  // its value as stored, without interpolating over the rounding.
  if (key_time == times[k] || std::nextafter(key_time, times[k]) == times[k]) { u = 0; dt = 0; return; }
  if (std::nextafter(key_time, times[k + 1]) == times[k + 1]) { k += 1; u = 0; dt = 0; return; }
  dt = static_cast<double>(times[k + 1]) - times[k];
  u = dt > 0 ? (t - times[k]) / dt : 0.0;
  u = std::clamp(u, 0.0, 1.0);
}

Vec4 element(const Sampler& s, size_t key, int part) {
  const size_t stride = static_cast<size_t>(s.components) * (s.interpolation == Interpolation::cubic ? 3 : 1);
  const size_t at = key * stride + static_cast<size_t>(part * s.components);
  Vec4 v{0, 0, 0, 0};
  for (int c = 0; c < s.components; ++c) v[static_cast<size_t>(c)] = s.values[at + static_cast<size_t>(c)];
  return v;
}

Vec4 evaluate(const Sampler& s, double t, bool rotation) {
  size_t k = 0;
  double u = 0, dt = 0;
  locate(s.times, t, k, u, dt);
  const bool cubic = s.interpolation == Interpolation::cubic;
  const int value_part = cubic ? 1 : 0;
  if (u == 0 || s.interpolation == Interpolation::step) return element(s, k, value_part);
  const Vec4 a = element(s, k, value_part), b = element(s, k + 1, value_part);
  Vec4 out{};
  if (!cubic) {
    if (rotation) {
      const Quat q = slerp(Quat{a[3], a[0], a[1], a[2]}, Quat{b[3], b[0], b[1], b[2]}, u);
      return {q.x, q.y, q.z, q.w};
    }
    for (size_t c = 0; c < 4; ++c) out[c] = a[c] + (b[c] - a[c]) * u;
    return out;
  }
  const Vec4 out_tangent = element(s, k, 2), in_tangent = element(s, k + 1, 0);
  const double u2 = u * u, u3 = u2 * u;
  for (size_t c = 0; c < 4; ++c)
    out[c] = (2 * u3 - 3 * u2 + 1) * a[c] + (u3 - 2 * u2 + u) * dt * out_tangent[c] + (-2 * u3 + 3 * u2) * b[c] +
             (u3 - u2) * dt * in_tangent[c];
  return out;
}

}  // namespace

Vec3 Sampler::vec3_at(double t) const {
  const Vec4 v = evaluate(*this, t, false);
  return {v[0], v[1], v[2]};
}

Quat Sampler::quat_at(double t) const {
  const Vec4 v = evaluate(*this, t, true);
  return normalize(Quat{v[3], v[0], v[1], v[2]});
}

bool parse_interpolation(const std::string& text, Interpolation& out) {
  if (text == "LINEAR") out = Interpolation::linear;
  else if (text == "STEP") out = Interpolation::step;
  else if (text == "CUBICSPLINE") out = Interpolation::cubic;
  else return false;
  return true;
}

}  // namespace footfix::gltf
