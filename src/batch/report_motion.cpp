#include "batch/report_motion.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "footfix/core/fk.h"

namespace footfix {

namespace {

constexpr double k_merge_length_m = 0.01;

/// The joints always drawn: the legs, the pelvis and the root-motion joint.
std::set<int> kept_joints(const Rig& rig) {
  std::set<int> out{rig.pelvis, rig.translation_joint};
  for (const LegChain& leg : rig.legs)
    for (int j : {leg.hip, leg.knee, leg.heel, leg.toe, leg.toe_end}) out.insert(j);
  out.erase(-1);
  return out;
}

/// Which skeleton joints are drawn (see the header), in skeleton order.
std::vector<int> drawn_joints(const Skeleton& skeleton, const Rig& rig) {
  const int n = skeleton.joint_count();
  const std::set<int> protect = kept_joints(rig);
  std::vector<Vec3> rest(static_cast<std::size_t>(n));
  std::vector<bool> drawn(static_cast<std::size_t>(n), true);
  for (int j = 0; j < n; ++j) {
    const int p = skeleton.parents[static_cast<std::size_t>(j)];
    rest[static_cast<std::size_t>(j)] = (p >= 0 ? rest[static_cast<std::size_t>(p)] : Vec3{}) + skeleton.rest_offsets[static_cast<std::size_t>(j)];
    if (p >= 0 && !protect.count(j) && length(skeleton.rest_offsets[static_cast<std::size_t>(j)]) < k_merge_length_m)
      drawn[static_cast<std::size_t>(j)] = false;
  }
  auto drawn_parent = [&](int j) {
    int p = skeleton.parents[static_cast<std::size_t>(j)];
    while (p >= 0 && !drawn[static_cast<std::size_t>(p)]) p = skeleton.parents[static_cast<std::size_t>(p)];
    return p;
  };
  auto count = [&] { return static_cast<int>(std::count(drawn.begin(), drawn.end(), true)); };
  while (count() > k_motion_joints) {
    std::vector<bool> has_child(static_cast<std::size_t>(n), false);
    for (int j = 0; j < n; ++j)
      if (drawn[static_cast<std::size_t>(j)])
        if (int p = drawn_parent(j); p >= 0) has_child[static_cast<std::size_t>(p)] = true;
    int shortest = -1;
    double shortest_m = INFINITY;
    for (int j = 0; j < n; ++j) {
      if (!drawn[static_cast<std::size_t>(j)] || has_child[static_cast<std::size_t>(j)] || protect.count(j)) continue;
      const int p = drawn_parent(j);
      const double bone = p >= 0 ? length(rest[static_cast<std::size_t>(j)] - rest[static_cast<std::size_t>(p)]) : INFINITY;
      if (bone < shortest_m) shortest = j, shortest_m = bone;
    }
    if (shortest < 0) break;
    drawn[static_cast<std::size_t>(shortest)] = false;
  }
  std::vector<int> out;
  for (int j = 0; j < n; ++j)
    if (drawn[static_cast<std::size_t>(j)]) out.push_back(j);
  return out;
}

std::int64_t quanta(double meters) { return std::llround(meters / k_motion_quantum_m); }

int index_of(const std::vector<int>& joints, int joint) {
  auto it = std::find(joints.begin(), joints.end(), joint);
  return it == joints.end() ? -1 : static_cast<int>(it - joints.begin());
}

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

}  // namespace

MotionSamples sample_motion(const Clip& clip, const Rig& rig) {
  MotionSamples out;
  const int frames = std::max(clip.frame_count, 0);
  out.step = std::max({1, static_cast<int>(std::ceil(clip.fps / k_motion_max_fps - 0.01)),
                       (frames + k_motion_max_samples - 1) / k_motion_max_samples});
  out.samples = frames > 0 ? (frames - 1) / out.step + 1 : 0;
  out.fps = clip.fps / out.step;
  out.joints = drawn_joints(clip.skeleton, rig);
  for (int j : out.joints) {
    int p = clip.skeleton.parents[static_cast<std::size_t>(j)];
    while (p >= 0 && index_of(out.joints, p) < 0) p = clip.skeleton.parents[static_cast<std::size_t>(p)];
    out.parents.push_back(p >= 0 ? index_of(out.joints, p) : -1);
  }
  out.positions = sample_positions(clip, out);
  return out;
}

std::vector<Vec3> sample_positions(const Clip& clip, const MotionSamples& layout) {
  std::vector<Vec3> out;
  out.reserve(static_cast<std::size_t>(layout.samples) * layout.joints.size());
  std::vector<Transform> world(static_cast<std::size_t>(clip.joint_count()));
  for (int s = 0; s < layout.samples; ++s) {
    world_pose(clip, std::min(s * layout.step, clip.frame_count - 1), world);
    for (int j : layout.joints) out.push_back(world[static_cast<std::size_t>(j)].translation);
  }
  return out;
}

std::string encode_series(const std::vector<std::int64_t>& values, int length) {
  std::string out;
  for (std::size_t start = 0; length > 0 && start < values.size(); start += static_cast<std::size_t>(length)) {
    std::int64_t a = 0, b = 0;  // the two previous values
    for (int i = 0; i < length && start + static_cast<std::size_t>(i) < values.size(); ++i) {
      const std::int64_t v = values[start + static_cast<std::size_t>(i)];
      const std::int64_t predicted = i == 0 ? 0 : i == 1 ? a : 2 * a - b;
      const std::int64_t r = v - predicted;
      put_varint(out, r >= 0 ? static_cast<std::uint64_t>(r) << 1 : (static_cast<std::uint64_t>(-(r + 1)) << 1) | 1);
      b = a, a = v;
    }
  }
  return out;
}

std::string base64(const std::string& bytes) {
  static constexpr char k_digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t chunk = static_cast<std::uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) chunk |= static_cast<std::uint8_t>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) chunk |= static_cast<std::uint8_t>(bytes[i + 2]);
    out += k_digits[(chunk >> 18) & 63];
    out += k_digits[(chunk >> 12) & 63];
    out += i + 1 < bytes.size() ? k_digits[(chunk >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? k_digits[chunk & 63] : '=';
  }
  return out;
}

MotionPlot motion_plot(const MotionSamples& source, const std::vector<Vec3>& cleaned, const Rig& rig, double source_lift_m) {
  const std::size_t joints = source.joints.size(), samples = static_cast<std::size_t>(source.samples);
  // Joint-major series of quanta: series (joint * 3 + axis) holds that coordinate over the samples.
  std::vector<std::int64_t> before(joints * 3 * samples), after(joints * 3 * samples);
  for (std::size_t j = 0; j < joints; ++j)
    for (std::size_t s = 0; s < samples; ++s) {
      const Vec3 a = source.positions[s * joints + j], b = cleaned[s * joints + j];
      const double from[3] = {a.x, a.y + source_lift_m, a.z}, to[3] = {b.x, b.y, b.z};
      for (std::size_t axis = 0; axis < 3; ++axis) {
        before[(j * 3 + axis) * samples + s] = quanta(from[axis]);
        after[(j * 3 + axis) * samples + s] = quanta(to[axis]);
      }
    }
  // Each joint's offset as the reader will rebuild it: its own when stored ("moved"), else its
  // parent's (rebuilt) one. A joint is stored when the parent's is more than one quantum off.
  std::vector<std::int64_t> rebuilt(joints * 3 * samples, 0), offsets;
  std::vector<int> moved;
  for (std::size_t j = 0; j < joints; ++j) {
    const int parent = source.parents[j];
    bool own = false;
    for (std::size_t i = 0; i < 3 * samples; ++i) {
      const std::int64_t inherited = parent >= 0 ? rebuilt[static_cast<std::size_t>(parent) * 3 * samples + i] : 0;
      own |= std::llabs(after[j * 3 * samples + i] - before[j * 3 * samples + i] - inherited) > 1;
    }
    for (std::size_t i = 0; i < 3 * samples; ++i)
      rebuilt[j * 3 * samples + i] = own ? after[j * 3 * samples + i] - before[j * 3 * samples + i]
                                         : parent >= 0 ? rebuilt[static_cast<std::size_t>(parent) * 3 * samples + i] : 0;
    if (!own) continue;
    moved.push_back(static_cast<int>(j));
    offsets.insert(offsets.end(), rebuilt.begin() + static_cast<std::ptrdiff_t>(j * 3 * samples),
                   rebuilt.begin() + static_cast<std::ptrdiff_t>((j + 1) * 3 * samples));
  }
  MotionPlot out{source.fps, source.step, source.samples, k_motion_quantum_m * 1000.0,
                 std::vector<long long>(source.parents.begin(), source.parents.end()), {},
                 std::vector<long long>(moved.begin(), moved.end()), base64(encode_series(before, source.samples)),
                 base64(encode_series(offsets, source.samples))};
  for (const LegChain& leg : rig.legs) out.feet.push_back(index_of(source.joints, leg.contact_joint()));
  return out;
}

}  // namespace footfix
