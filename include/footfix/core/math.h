// Small 3D math kernel: vectors, quaternions and rigid transforms in double precision.
// Conventions: right-handed, quaternions are unit (w, x, y, z) and rotate vectors actively
// (v' = q v q*). Composition a * b applies b first, then a.
#pragma once

#include <cmath>

namespace footfix {

struct Vec3 {
  double x = 0, y = 0, z = 0;
};

inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator-(Vec3 a) { return {-a.x, -a.y, -a.z}; }
inline Vec3 operator*(Vec3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
inline Vec3 operator*(double s, Vec3 a) { return a * s; }
inline Vec3 operator/(Vec3 a, double s) { return {a.x / s, a.y / s, a.z / s}; }
inline Vec3& operator+=(Vec3& a, Vec3 b) { return a = a + b; }
inline Vec3& operator-=(Vec3& a, Vec3 b) { return a = a - b; }
inline bool operator==(Vec3 a, Vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
inline bool operator!=(Vec3 a, Vec3 b) { return !(a == b); }

inline double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double length(Vec3 a) { return std::sqrt(dot(a, a)); }
inline double length_sq(Vec3 a) { return dot(a, a); }
/// Unit vector along a; the zero vector stays zero (no NaN).
inline Vec3 normalize(Vec3 a) {
  double l = length(a);
  return l > 1e-300 ? a / l : Vec3{};
}
inline Vec3 lerp(Vec3 a, Vec3 b, double t) { return a + (b - a) * t; }
/// 3x^2 - 2x^3 of x clamped to [0, 1]: eases from 0 to 1 with zero slope at both ends.
inline double smoothstep(double x) {
  x = x < 0 ? 0 : x > 1 ? 1 : x;
  return x * x * (3 - 2 * x);
}
inline bool is_finite(Vec3 a) {
  return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z);
}
/// Component by index 0..2 (x, y, z).
inline double& at(Vec3& v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }
inline double at(const Vec3& v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }

struct Quat {
  double w = 1, x = 0, y = 0, z = 0;
};

inline bool operator==(Quat a, Quat b) { return a.w == b.w && a.x == b.x && a.y == b.y && a.z == b.z; }
inline bool operator!=(Quat a, Quat b) { return !(a == b); }

inline Quat operator*(Quat a, Quat b) {
  return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
          a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}
inline Quat conjugate(Quat q) { return {q.w, -q.x, -q.y, -q.z}; }
/// Inverse of a unit quaternion.
inline Quat inverse(Quat q) { return conjugate(q); }
inline double dot(Quat a, Quat b) { return a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z; }
inline Quat normalize(Quat q) {
  double l = std::sqrt(dot(q, q));
  return l > 1e-300 ? Quat{q.w / l, q.x / l, q.y / l, q.z / l} : Quat{};
}
inline Vec3 rotate(Quat q, Vec3 v) {
  // v' = v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z)
  Vec3 u{q.x, q.y, q.z};
  Vec3 t = cross(u, v) * 2.0;
  return v + t * q.w + cross(u, t);
}
/// Rotation of `angle_rad` about unit `axis`.
inline Quat axis_angle(Vec3 axis, double angle_rad) {
  double s = std::sin(angle_rad * 0.5);
  return {std::cos(angle_rad * 0.5), axis.x * s, axis.y * s, axis.z * s};
}
/// Shortest rotation taking direction p to direction q (neither needs to be unit). Opposite
/// vectors give 180 degrees about an axis perpendicular to p; a zero vector gives identity.
Quat rotation_between(Vec3 p, Vec3 q);
/// Spherical interpolation along the shortest arc.
Quat slerp(Quat a, Quat b, double t);
/// Rotation angle of q in radians, in [0, pi].
double angle_of(Quat q);
/// The rotation vector of q (axis times angle, radians, angle in [0, pi]): the logarithm map.
Vec3 rotation_vector(Quat q);
/// The unit quaternion of rotation vector v (axis times angle, radians): the exponential map,
/// inverse of rotation_vector up to the sign of the quaternion.
Quat from_rotation_vector(Vec3 v);

struct Transform {
  Quat rotation;
  Vec3 translation;
};
/// parent * child: the child's frame expressed in the parent's space.
inline Transform operator*(const Transform& parent, const Transform& child) {
  return {parent.rotation * child.rotation,
          parent.translation + rotate(parent.rotation, child.translation)};
}
inline Vec3 apply(const Transform& t, Vec3 p) { return t.translation + rotate(t.rotation, p); }

constexpr double k_pi = 3.14159265358979323846;
constexpr double k_deg_to_rad = k_pi / 180.0;
constexpr double k_rad_to_deg = 180.0 / k_pi;

}  // namespace footfix
