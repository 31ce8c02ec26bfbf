// BVH writing. Unchanged channels keep their text as read (or, where the source has no text for
// them, are written from the raw values read with their channel's decimals as read, or the
// shortest round-trip text, so they read back bit-identical); the hierarchy and motion header are
// the source's text while the skeleton and frame count are as read; changed
// rotations become Euler angles in the joint's own channel order, unwrapped against the
// previous frame's written angles, written with 17 significant digits (they read back exactly).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <ostream>

#include "../core/shortest_double.h"
#include "bvh_detail.h"
#include "bvh_text.h"
#include "footfix/core/end_site_joints.h"
#include "footfix/core/error.h"
#include "footfix/core/euler.h"
#include "footfix/bvh/bvh.h"

namespace footfix {
namespace {

using bvh_detail::channel_axis;
using bvh_detail::is_rotation;
using bvh_detail::k_channel_names;

[[noreturn]] void fail_write(const Clip& clip, const std::string& message) {
  fail(ErrorKind::write, (clip.source_name.empty() ? std::string("clip") : clip.source_name) + ": " + message);
}

// Where each channel of a joint sits in the written row.
struct JointSlots {
  EulerOrder order{};
  std::array<int, 3> rotation{-1, -1, -1};  ///< row index of the 1st/2nd/3rd rotation channel
  std::array<int, 3> position{-1, -1, -1};  ///< row index of the X/Y/Z position channel
  int rotation_count = 0;
};

// Everything the text needs, in source units and axes.
struct Plan {
  std::vector<int> order;                      ///< joints in depth-first (file) order
  std::vector<BvhJointLayout> layouts;         ///< first_value: position in the written row
  std::vector<JointSlots> slots;
  std::vector<Vec3> offsets;
  std::vector<std::optional<Vec3>> end_sites;
  int values_per_frame = 0;
  /// Per value of the written row: the source's fraction digits of that channel (see
  /// BvhSource::decimals), for the values copied from it.
  std::vector<std::uint8_t> decimals;
  double frame_time_s = 0;
  const BvhSource* source = nullptr;           ///< raw values to reuse, if any
  /// Written length = source length x scale (BvhWriteOptions::meters_per_unit); 1 keeps the
  /// source's unit. Offsets, End Sites and `position_values` are scaled as they are written.
  double length_scale = 1;
  std::vector<int> position_values;            ///< row indexes of the position channels
  /// Per joint: whether it has channels its source lacks (BvhAddedChannels); its values are
  /// then all computed.
  std::vector<bool> added;
};

std::vector<int> depth_first_order(const Clip& clip) {
  const Skeleton& s = clip.skeleton;
  for (const std::string& name : s.names)
    if (name.empty() || name.find_first_of("\r\n{}") != std::string::npos || name.front() == ' ' ||
        name.back() == ' ')
      fail_write(clip, "joint name '" + name + "' cannot be written to BVH (empty, padded, or holds a line break or brace)");
  std::vector<std::vector<int>> children(static_cast<size_t>(s.joint_count()));
  std::vector<int> roots;
  for (int j = 0; j < s.joint_count(); ++j) (s.parents[j] < 0 ? roots : children[s.parents[j]]).push_back(j);
  if (roots.empty()) fail_write(clip, "the skeleton has no root joint");
  // Several roots (a prop, a second performer) are written one ROOT block after another.
  std::vector<int> order;
  std::vector<int> stack(roots.rbegin(), roots.rend());
  while (!stack.empty()) {
    int j = stack.back();
    stack.pop_back();
    order.push_back(j);
    for (auto it = children[j].rbegin(); it != children[j].rend(); ++it) stack.push_back(*it);
  }
  return order;
}

void assign_slots(Plan& plan) {
  plan.slots.assign(plan.layouts.size(), {});
  plan.position_values.clear();
  plan.values_per_frame = 0;
  for (int j : plan.order) {
    BvhJointLayout& layout = plan.layouts[j];
    JointSlots& slots = plan.slots[j];
    layout.first_value = plan.values_per_frame;
    for (size_t i = 0; i < layout.channels.size(); ++i) {
      const int index = layout.first_value + static_cast<int>(i);
      const BvhChannel c = layout.channels[i];
      if (is_rotation(c)) {
        if (slots.rotation_count < 3) {
          slots.order[slots.rotation_count] = channel_axis(c);
          slots.rotation[slots.rotation_count] = index;
        }
        ++slots.rotation_count;
      } else {
        slots.position[channel_axis(c)] = index;
        plan.position_values.push_back(index);
      }
    }
    plan.values_per_frame += static_cast<int>(layout.channels.size());
  }
}

// `found`: bvh_added_channels of `clip` when the caller has it (BvhWriteOptions::added).
Plan plan_from_source(const Clip& clip, const BvhSource& source, const std::optional<BvhAddedChannels>& found) {
  const size_t joints = static_cast<size_t>(clip.joint_count());
  if (source.joints.size() != joints || source.raw_offsets.size() != joints ||
      source.raw_end_sites.size() != joints)
    fail_write(clip, "the skeleton has " + std::to_string(joints) + " joints but the BVH it was read from has " +
                         std::to_string(source.joints.size()));
  Plan plan;
  plan.order = depth_first_order(clip);
  const BvhAddedChannels added =
      found && bvh_detail::fits(*found, source) ? *found : bvh_detail::find_added_channels(clip, source);
  plan.layouts = bvh_detail::layouts_with_added(source, added);
  plan.added.assign(joints, false);
  for (size_t j = 0; j < joints; ++j) plan.added[j] = added.position[j] || added.rotation[j];
  plan.offsets = source.raw_offsets;
  plan.end_sites = source.raw_end_sites;
  plan.frame_time_s = source.frame_time_s;
  plan.source = &source;
  assign_slots(plan);
  plan.decimals.assign(static_cast<size_t>(plan.values_per_frame), bvh_detail::k_not_plain_decimal);
  if (source.decimals.size() == static_cast<size_t>(source.values_per_frame))
    for (size_t j = 0; j < joints; ++j)
      for (size_t i = 0; i < plan.layouts[j].channels.size() && !plan.added[j]; ++i)
        plan.decimals[static_cast<size_t>(plan.layouts[j].first_value) + i] =
            source.decimals[static_cast<size_t>(source.joints[j].first_value) + i];
  return plan;
}

Plan standard_plan(const Clip& clip) {
  if (clip.joint_count() == 0) fail_write(clip, "the skeleton has no joints");
  if (!(clip.fps > 0) || !std::isfinite(clip.fps)) fail_write(clip, "frame rate must be > 0");
  using C = BvhChannel;
  const std::vector<C> positions{C::x_position, C::y_position, C::z_position};
  const std::vector<C> rotations{C::z_rotation, C::y_rotation, C::x_rotation};
  Plan plan;
  plan.order = depth_first_order(clip);
  plan.frame_time_s = 1.0 / clip.fps;
  for (int j = 0; j < clip.joint_count(); ++j) {
    const Vec3 rest = clip.skeleton.rest_offsets[j];
    bool moves = clip.skeleton.parents[j] < 0;
    for (int f = 0; f < clip.frame_count && !moves; ++f) moves = clip.translation(f, j) != rest;
    BvhJointLayout layout;
    if (moves) layout.channels = positions;
    layout.channels.insert(layout.channels.end(), rotations.begin(), rotations.end());
    plan.layouts.push_back(layout);
    plan.offsets.push_back(point_to_source(clip.values_to_file(), rest));
    const auto& end_site = clip.skeleton.end_sites[j];
    plan.end_sites.push_back(end_site ? std::optional<Vec3>(point_to_source(clip.values_to_file(), *end_site))
                                      : std::nullopt);
  }
  plan.added.assign(plan.layouts.size(), false);
  assign_slots(plan);
  plan.decimals.assign(static_cast<size_t>(plan.values_per_frame), bvh_detail::k_not_plain_decimal);
  return plan;
}

// The text, handed to the stream a chunk at a time rather than as one string of the whole file.
class TextOut {
 public:
  explicit TextOut(std::ostream& stream) : stream_(stream), buffer_(k_chunk_bytes) {}
  TextOut(const TextOut&) = delete;
  TextOut& operator=(const TextOut&) = delete;

  void put(std::string_view s) {
    char* p = room(s.size());
    std::memcpy(p, s.data(), s.size());
    used_ += s.size();
  }
  void put(char c) {
    *room(1) = c;
    ++used_;
  }
  void number(double v) { used_ = static_cast<size_t>(write_shortest(room(k_shortest_double_chars), v) - buffer_.data()); }
  void vec(Vec3 v) {
    number(v.x);
    put(' ');
    number(v.y);
    put(' ');
    number(v.z);
  }
  void indent(size_t depth) {
    std::memset(room(depth), '\t', depth);
    used_ += depth;
  }
  /// `count` numbers separated by spaces, then a line end: those marked `computed` (most need
  /// 16 or 17 digits) with the digits that read them back exactly, the others (as read) with
  /// their channel's `decimals`, which read them back exactly too.
  void row(const double* values, const std::uint8_t* computed, const std::uint8_t* decimals, size_t count) {
    char* p = room(count * (k_shortest_double_chars + 1) + 1);
    for (size_t i = 0; i < count; ++i) {
      if (i) *p++ = ' ';
      // +0 (most channels of a mocap skeleton's still joints) is "0" in either notation.
      if (std::bit_cast<std::uint64_t>(values[i]) == 0)
        *p++ = '0';
      else
        p = computed[i] ? write_round_trip(p, values[i]) : write_decimals(p, values[i], decimals[i]);
    }
    *p++ = '\n';
    used_ = static_cast<size_t>(p - buffer_.data());
  }
  /// One motion row over its text as read (`source_row`: `count` values, the text of value i
  /// starting at `starts[i]`, with blanks and line end, see BvhSource::motion_text): the values
  /// not `computed` keep their text, the others are written as row() writes them in place of
  /// theirs; blanks are kept, a missing line end is added.
  void row_over_text(const double* values, const std::uint8_t* computed, std::string_view source_row,
                     const std::uint16_t* starts, size_t count) {
    char* p = room(source_row.size() + count * k_shortest_double_chars + 1);
    size_t copied = 0;  // source_row[0, copied) is written
    auto copy_to = [&](size_t end) {
      std::memcpy(p, source_row.data() + copied, end - copied);
      p += end - copied;
    };
    for (const void* at = std::memchr(computed, 1, count); at != nullptr;
         at = std::memchr(static_cast<const std::uint8_t*>(at) + 1, 1,
                          count - 1 - static_cast<size_t>(static_cast<const std::uint8_t*>(at) - computed))) {
      const size_t i = static_cast<size_t>(static_cast<const std::uint8_t*>(at) - computed);
      copy_to(starts[i]);
      // +0 (most channels of a mocap skeleton's still joints) is "0" in either notation.
      if (std::bit_cast<std::uint64_t>(values[i]) == 0)
        *p++ = '0';
      else
        p = write_round_trip(p, values[i]);
      // Past the value's text: the reader took it whole up to a blank or the line end, and only
      // blanks lie between it and the next value's text, so it ends where those blanks start.
      if (i + 1 < count) {
        copied = starts[i + 1];
        while (copied > starts[i] && bvh_detail::is_space(source_row[copied - 1])) --copied;
      } else {
        copied = starts[i];
        while (copied < source_row.size() && !bvh_detail::is_space(source_row[copied])) ++copied;
      }
    }
    copy_to(source_row.size());
    if (source_row.empty() || source_row.back() != '\n') *p++ = '\n';
    used_ = static_cast<size_t>(p - buffer_.data());
  }
  /// Hands what is left to the stream.
  void flush() {
    stream_.write(buffer_.data(), static_cast<std::streamsize>(used_));
    used_ = 0;
  }

 private:
  // The motion rows go to the stream once this many bytes are buffered.
  static constexpr size_t k_chunk_bytes = 1 << 16;

  // Where the next `bytes` may be written (flushing first when they would not fit).
  char* room(size_t bytes) {
    if (used_ + bytes > buffer_.size()) {
      flush();
      if (bytes > buffer_.size()) buffer_.resize(bytes);
    }
    return buffer_.data() + used_;
  }

  std::ostream& stream_;
  std::vector<char> buffer_;
  size_t used_ = 0;
};

void write_hierarchy(const Clip& clip, const Plan& plan, TextOut& out) {
  out.put("HIERARCHY\n");
  std::vector<int> open;  // joints whose '{' is written, innermost last
  auto close_until = [&](int parent) {
    while (!open.empty() && open.back() != parent) {
      const int j = open.back();
      open.pop_back();
      if (plan.end_sites[j]) {
        const size_t d = open.size() + 1;
        out.indent(d);
        out.put("End Site\n");
        out.indent(d);
        out.put("{\n");
        out.indent(d + 1);
        out.put("OFFSET ");
        out.vec(*plan.end_sites[j] * plan.length_scale);
        out.put('\n');
        out.indent(d);
        out.put("}\n");
      }
      out.indent(open.size());
      out.put("}\n");
    }
  };
  for (int j : plan.order) {
    const int parent = clip.skeleton.parents[j];
    close_until(parent);
    const size_t d = open.size();
    out.indent(d);
    out.put(parent < 0 ? "ROOT " : "JOINT ");
    out.put(clip.skeleton.names[j]);
    out.put('\n');
    out.indent(d);
    out.put("{\n");
    out.indent(d + 1);
    out.put("OFFSET ");
    out.vec(plan.offsets[j] * plan.length_scale);
    out.put('\n');
    const auto& channels = plan.layouts[j].channels;
    if (!channels.empty()) {
      out.indent(d + 1);
      out.put("CHANNELS ");
      out.number(static_cast<double>(channels.size()));
      for (BvhChannel c : channels) {
        out.put(' ');
        out.put(k_channel_names[static_cast<int>(c)]);
      }
      out.put('\n');
    }
    open.push_back(j);
  }
  close_until(-1);
}

// sin and cos of x (radians, |x| <= k_max_approx_rad) within 2e-9: a quadrant and a Taylor
// polynomial on [-pi/4, pi/4] (terms to x^9 and x^10; the first left out is under 1.8e-9).
constexpr double k_max_approx_rad = 1e4;
void approx_sincos(double x, double& s, double& c) {
  constexpr double k_two_over_pi = 0.63661977236758134308, k_half_pi = 1.57079632679489661923;
  const double scaled = x * k_two_over_pi + 0.5;
  long long quadrant = static_cast<long long>(scaled);  // towards zero: floor() below
  if (static_cast<double>(quadrant) > scaled) --quadrant;
  const double r = x - static_cast<double>(quadrant) * k_half_pi, r2 = r * r;
  const double sr = r * (1 + r2 * (-1.0 / 6 + r2 * (1.0 / 120 + r2 * (-1.0 / 5040 + r2 / 362880))));
  const double cr = 1 + r2 * (-0.5 + r2 * (1.0 / 24 + r2 * (-1.0 / 720 + r2 * (1.0 / 40320 - r2 / 3628800))));
  switch (quadrant & 3) {
    case 0: s = sr; c = cr; break;
    case 1: s = cr; c = -sr; break;
    case 2: s = -sr; c = -cr; break;
    default: s = -cr; c = sr; break;
  }
}

// q times the rotation whose half-angle has sine s and cosine c about axis `axis` (0 x, 1 y,
// 2 z): the quaternion product without the other's zero components.
Quat times_axis_rotation(const Quat& q, int axis, double s, double c) {
  switch (axis) {
    case 0: return {q.w * c - q.x * s, q.x * c + q.w * s, q.y * c + q.z * s, q.z * c - q.y * s};
    case 1: return {q.w * c - q.y * s, q.x * c - q.z * s, q.y * c + q.w * s, q.z * c + q.x * s};
    default: return {q.w * c - q.z * s, q.x * c + q.y * s, q.y * c - q.x * s, q.z * c + q.w * s};
  }
}

// Fills the row values of joint j at frame f.
class RowWriter {
 public:
  RowWriter(const Clip& clip, const Plan& plan)
      : clip_(clip), plan_(plan), source_frames_(plan.source ? source_frames(*plan.source) : 0), previous_(plan.layouts.size()) {
    if (source_frames_ > 0)
      for (size_t j = 0; j < previous_.size(); ++j) previous_[j] = raw_angles(0, static_cast<int>(j));
    find_rotations_as_read();
  }

  /// Per value of the row: whether fill() computed it (1) or copied it from the source (0).
  const std::uint8_t* computed() const { return computed_.data(); }

  void fill(int f, int j, double* row) {
    const BvhJointLayout& layout = plan_.layouts[j];
    const JointSlots& slots = plan_.slots[j];
    bool rotation_same = false, translation_same = false;
    if (f < source_frames_ && !plan_.added[j]) {
      const BvhSource& s = *plan_.source;
      const double* raw = s.values.data() + static_cast<size_t>(f) * static_cast<size_t>(s.values_per_frame) +
                          s.joints[j].first_value;
      copy_values(raw, layout.channels.size(), row + layout.first_value);
      std::fill_n(computed_.begin() + layout.first_value, layout.channels.size(), 0);
      if (rotations_as_read_[j]) {
        rotation_same = true;
        translation_same = source_translation(f, j) == clip_.translation(f, j);
      } else if (decoded_[j].raw != raw && surely_changed(f, j, slots, row)) {
        rotation_same = false;  // no exact decoding needed to tell
        translation_same = source_translation(f, j) == clip_.translation(f, j);
      } else {
        const Transform& t = source_transform(f, j, raw);
        rotation_same = t.rotation == clip_.rotation(f, j);
        translation_same = t.translation == clip_.translation(f, j);
      }
    }
    if (!rotation_same) write_rotation(f, j, slots, row);
    if (!translation_same) write_translation(f, j, slots, row);
    if (slots.rotation_count == 3)
      for (int n = 0; n < 3; ++n) previous_[j][n] = row[slots.rotation[n]];
  }

 private:
  // The source's transform of joint j at frame f in the internal frame, as the reader decoded
  // it. Mocap files hold many joints still for long runs: when the raw values repeat the last
  // frame's bit for bit, so does the transform, and the trigonometry is skipped.
  const Transform& source_transform(int f, int j, const double* raw) {
    Decoded& d = decoded_[j];
    const size_t bytes = plan_.source->joints[j].channels.size() * sizeof(double);
    if (d.raw == nullptr || std::memcmp(d.raw, raw, bytes) != 0) {
      const BvhSource& s = *plan_.source;
      const Transform t = decode_bvh_joint(s, s.raw_offsets[j], f, j);
      d.internal.rotation = rotation_to_internal(clip_.values_to_file(), t.rotation);
      d.internal.translation = point_to_internal(clip_.values_to_file(), t.translation);
    }
    d.raw = raw;
    return d.internal;
  }

  // Whether joint j's rotation at frame f is certainly not the source's (its raw angles already
  // in `row`): their rotation computed approximately (each component within 1e-8: three
  // factors within 2e-9) is more than 1e-7 away from the clip's, so the exact decoding cannot
  // equal it. False when unsure (or not worth it): the exact decoding then decides.
  bool surely_changed(int f, int j, const JointSlots& slots, const double* row) const {
    if (slots.rotation_count != 3 || clip_.values_to_file().up != Axis::pos_y) return false;
    constexpr double k_half_deg_to_rad = 3.14159265358979323846 / 360;
    Quat q;
    for (int n = 0; n < 3; ++n) {
      const double half = row[slots.rotation[n]] * k_half_deg_to_rad;
      if (!(std::abs(half) <= k_max_approx_rad)) return false;
      double sn = 0, cs = 1;
      approx_sincos(half, sn, cs);
      q = times_axis_rotation(q, slots.order[n], sn, cs);
    }
    constexpr double k_surely_apart = 1e-7;
    const Quat c = clip_.rotation(f, j);
    return std::abs(c.w - q.w) > k_surely_apart || std::abs(c.x - q.x) > k_surely_apart ||
           std::abs(c.y - q.y) > k_surely_apart || std::abs(c.z - q.z) > k_surely_apart;
  }

  // `count` raw values to the row: a fixed-size copy for the usual 3 and 6 channels (no library
  // call per joint).
  static void copy_values(const double* raw, size_t count, double* out) {
    if (count == 3)
      std::memcpy(out, raw, 3 * sizeof(double));
    else if (count == 6)
      std::memcpy(out, raw, 6 * sizeof(double));
    else
      std::copy(raw, raw + count, out);
  }

  // The source's translation of joint j at frame f in the internal frame, as the reader decoded
  // it. A joint without position channels has its offset in every frame: converted once.
  Vec3 source_translation(int f, int j) {
    const BvhSource& s = *plan_.source;
    std::optional<Vec3>& fixed = fixed_translations_[j];
    if (fixed) return *fixed;
    const Vec3 t = point_to_internal(clip_.values_to_file(), decode_bvh_translation(s, s.raw_offsets[j], f, j));
    const auto& channels = s.joints[j].channels;
    if (std::all_of(channels.begin(), channels.end(), is_rotation)) fixed = t;
    return t;
  }

  // Joints whose rotations are bit for bit those the reader decoded need no decoding to compare:
  // found from the fingerprints, where the rotations are the file's own (up +Y: converting to the
  // internal frame leaves a rotation's bits as they are).
  void find_rotations_as_read() {
    rotations_as_read_.assign(plan_.layouts.size(), false);
    if (!plan_.source || source_frames_ != clip_.frame_count || clip_.values_to_file().up != Axis::pos_y ||
        plan_.source->rotation_fingerprints.size() != rotations_as_read_.size())
      return;
    const std::vector<std::uint64_t> now = rotation_fingerprints(clip_);
    for (size_t j = 0; j < now.size(); ++j) rotations_as_read_[j] = now[j] == plan_.source->rotation_fingerprints[j];
  }

  // Frames of raw values `s` holds.
  static int source_frames(const BvhSource& s) {
    return s.values_per_frame > 0 ? static_cast<int>(s.values.size() / static_cast<size_t>(s.values_per_frame)) : 0;
  }
  std::array<double, 3> raw_angles(int f, int j) const {
    std::array<double, 3> angles{};
    const BvhSource& s = *plan_.source;
    const double* raw = s.values.data() + static_cast<size_t>(f) * static_cast<size_t>(s.values_per_frame) +
                        s.joints[j].first_value;
    int n = 0;
    for (size_t i = 0; i < s.joints[j].channels.size() && n < 3; ++i)
      if (is_rotation(s.joints[j].channels[i])) angles[n++] = raw[i];
    return angles;
  }
  std::string where(int f, int j) const {
    return "joint '" + clip_.skeleton.names[j] + "' frame " + std::to_string(f);
  }

  void write_rotation(int f, int j, const JointSlots& slots, double* row) {
    const Quat q = rotation_to_source(clip_.values_to_file(), clip_.rotation(f, j));
    if (slots.rotation_count == 3) {
      const auto angles = euler_from_quat_deg(slots.order, q, previous_[j]);
      for (int n = 0; n < 3; ++n) {
        row[slots.rotation[n]] = angles[n];
        computed_[slots.rotation[n]] = 1;
      }
    } else if (angle_of(q) > bvh_detail::k_stated_rotation_rad) {
      fail_write(clip_, where(f, j) + ": the rotation changed but the joint has no rotation channels");
    }
  }

  void write_translation(int f, int j, const JointSlots& slots, double* row) {
    const Vec3 t = point_to_source(clip_.values_to_file(), clip_.translation(f, j));
    const Vec3 offset = plan_.offsets[j];
    const double tolerance = bvh_detail::unstated_translation_tolerance(offset);
    for (int axis = 0; axis < 3; ++axis) {
      if (slots.position[axis] >= 0) {
        row[slots.position[axis]] = at(t, axis);
        computed_[slots.position[axis]] = 1;
      } else if (!(std::abs(at(t, axis) - at(offset, axis)) <= tolerance))
        fail_write(clip_, where(f, j) + ": the translation changed along an axis without a position channel");
    }
  }

  struct Decoded {
    const double* raw = nullptr;  ///< the raw values `internal` was decoded from
    Transform internal;
  };
  const Clip& clip_;
  const Plan& plan_;
  const int source_frames_;  ///< frames of raw values the source holds (0 without a source)
  std::vector<std::array<double, 3>> previous_;
  std::vector<Decoded> decoded_ = std::vector<Decoded>(plan_.layouts.size());
  std::vector<std::uint8_t> computed_ = std::vector<std::uint8_t>(static_cast<size_t>(plan_.values_per_frame), 0);
  std::vector<std::optional<Vec3>> fixed_translations_ = std::vector<std::optional<Vec3>>(plan_.layouts.size());
  std::vector<bool> rotations_as_read_;
};

// How many of the written rows may keep the source's text for their unchanged values: its rows
// as read, when the values keep the source's unit and their order in the row (0 otherwise).
size_t rows_with_text(const Plan& plan) {
  const BvhSource* s = plan.source;
  if (s == nullptr || plan.length_scale != 1 || s->values_per_frame != plan.values_per_frame ||
      s->row_ends.size() > s->values.size() / static_cast<size_t>(std::max(1, s->values_per_frame)) ||
      s->row_starts.size() != s->row_ends.size() ||
      s->value_starts.size() != s->row_ends.size() * static_cast<size_t>(s->values_per_frame))
    return 0;
  for (size_t j = 0; j < plan.layouts.size(); ++j)
    if (plan.layouts[j].first_value != s->joints[j].first_value) return 0;
  return s->row_ends.size();
}

void write_motion_header(const Clip& clip, const Plan& plan, TextOut& out) {
  out.put("MOTION\nFrames: ");
  out.put(std::to_string(clip.frame_count));
  out.put("\nFrame Time: ");
  out.number(plan.frame_time_s);
  out.put('\n');
}

// Copies the source's text before the motion rows when what write_hierarchy and
// write_motion_header would write says the same: the skeleton and frame count as read, in the
// source's unit (the channels, offsets and frame time always come from the source). Returns
// whether it did.
bool write_head_as_read(const Clip& clip, const Plan& plan, TextOut& out) {
  const BvhSource* s = plan.source;
  if (s == nullptr || s->head_text.empty() || plan.length_scale != 1 || clip.frame_count != s->declared_frames ||
      std::find(plan.added.begin(), plan.added.end(), true) != plan.added.end() ||
      clip.skeleton.names != s->names || clip.skeleton.parents != s->parents)
    return false;
  out.put(s->head_text);
  return true;
}

void write_motion(const Clip& clip, const Plan& plan, TextOut& out) {
  RowWriter writer(clip, plan);
  std::vector<double> row(static_cast<size_t>(plan.values_per_frame));
  const bool scaled = plan.length_scale != 1;
  const size_t text_rows = rows_with_text(plan);
  for (int f = 0; f < clip.frame_count; ++f) {
    for (int j : plan.order) writer.fill(f, j, row.data());
    if (scaled)
      for (int i : plan.position_values) row[static_cast<size_t>(i)] *= plan.length_scale;
    if (static_cast<size_t>(f) < text_rows) {
      const BvhSource& s = *plan.source;
      const size_t begin = s.row_starts[static_cast<size_t>(f)];
      out.row_over_text(row.data(), writer.computed(),
                        std::string_view(s.motion_text).substr(begin, s.row_ends[static_cast<size_t>(f)] - begin),
                        s.value_starts.data() + static_cast<size_t>(f) * row.size(), row.size());
    } else {
      out.row(row.data(), writer.computed(), plan.decimals.data(), row.size());
    }
  }
}

// Sets the plan's length scale to write in `meters_per_unit` (0: the source's unit). Scaled
// values no longer have the source's decimals: they are written in shortest round-trip form.
void set_length_unit(const Clip& clip, Plan& plan, double meters_per_unit) {
  if (meters_per_unit == 0) return;
  if (!(meters_per_unit > 0) || !std::isfinite(meters_per_unit)) fail_write(clip, "the BVH length unit must be > 0");
  plan.length_scale = clip.source_frame.meters_per_unit / meters_per_unit;
  if (plan.length_scale == 1) return;
  for (int i : plan.position_values) plan.decimals[static_cast<size_t>(i)] = bvh_detail::k_not_plain_decimal;
}

}  // namespace

void write_bvh(const Clip& clip, std::ostream& out, const BvhWriteOptions& options) {
  if (clip.skeleton.end_site_joints > 0) return write_bvh(fold_end_site_joints(clip), out, options);
  const auto* source = dynamic_cast<const BvhSource*>(clip.source.get());
  Plan plan = source ? plan_from_source(clip, *source, options.added) : standard_plan(clip);
  set_length_unit(clip, plan, options.meters_per_unit);
  TextOut text(out);
  if (!write_head_as_read(clip, plan, text)) {
    write_hierarchy(clip, plan, text);
    write_motion_header(clip, plan, text);
  }
  write_motion(clip, plan, text);
  text.flush();
}

}  // namespace footfix
