// BVH reading: the hierarchy is parsed iteratively (an explicit stack, nesting capped at
// k_max_depth), the motion block by one tight loop over the buffer with std::from_chars.
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <unordered_set>

#include "bvh_text.h"
#include "footfix/core/error.h"
#include "footfix/core/euler.h"
#include "footfix/io/bvh.h"

namespace footfix {
namespace {

using bvh_detail::BvhCursor;
using bvh_detail::in_quotes;

constexpr size_t k_max_depth = 1024;
constexpr int k_channel_kinds = 6;
constexpr const char* k_channel_names[k_channel_kinds] = {"Xposition", "Yposition", "Zposition",
                                                          "Xrotation", "Yrotation", "Zrotation"};

bool is_rotation(BvhChannel c) { return c >= BvhChannel::x_rotation; }
int channel_axis(BvhChannel c) { return static_cast<int>(c) % 3; }

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

bool parse_channel(std::string_view s, BvhChannel& out) {
  for (int c = 0; c < k_channel_kinds; ++c) {
    if (equal_ignoring_case(s, k_channel_names[c])) {
      out = static_cast<BvhChannel>(c);
      return true;
    }
  }
  return false;
}

std::string joint_label(const std::string& name) { return "joint " + in_quotes(name); }

Vec3 read_offset(BvhCursor& in, const std::string& owner) {
  Vec3 v;
  for (int axis = 0; axis < 3; ++axis) {
    std::string_view token = in.next_token();
    if (token.empty()) in.fail("unexpected end of file in the OFFSET of " + owner);
    if (!bvh_detail::parse_finite_double(token, at(v, axis)))
      in.fail(owner + ": bad OFFSET value " + in_quotes(token) + " (need a finite number)");
  }
  return v;
}

BvhJointLayout read_channels(BvhCursor& in, const std::string& joint) {
  std::string_view count_token = in.next_token();
  int count = -1;
  auto [ptr, ec] = std::from_chars(count_token.data(), count_token.data() + count_token.size(), count);
  if (ec != std::errc() || ptr != count_token.data() + count_token.size() || count < 0 ||
      count > k_channel_kinds)
    in.fail(joint_label(joint) + ": bad CHANNELS count " + in_quotes(count_token) + " (need 0 to 6)");
  BvhJointLayout layout;
  bool seen[k_channel_kinds] = {};
  int rotations = 0;
  for (int i = 0; i < count; ++i) {
    std::string_view token = in.next_token();
    BvhChannel channel{};
    if (!parse_channel(token, channel))
      in.fail(joint_label(joint) + ": bad channel name " + in_quotes(token) + " (CHANNELS " +
              std::to_string(count) + " lists " + std::to_string(i) + " valid names)");
    if (seen[static_cast<int>(channel)])
      in.fail(joint_label(joint) + ": repeated channel " + in_quotes(token));
    seen[static_cast<int>(channel)] = true;
    rotations += is_rotation(channel) ? 1 : 0;
    layout.channels.push_back(channel);
  }
  if (rotations != 0 && rotations != 3)
    in.fail(joint_label(joint) + ": " + std::to_string(rotations) +
            " rotation channels (need 0 or 3)");
  return layout;
}

struct Hierarchy {
  Skeleton skeleton;  // file units and axes
  std::vector<BvhJointLayout> layouts;
  int values_per_frame = 0;
};

// One open '{' block: a joint, or the End Site of a joint.
struct OpenBlock {
  int joint = 0;
  bool end_site = false;
  bool has_offset = false;
  bool has_channels = false;
};

class HierarchyParser {
 public:
  explicit HierarchyParser(BvhCursor& in) : in_(in) {}

  Hierarchy parse() {
    std::string_view token = in_.next_token();
    if (token.empty()) in_.fail("empty file (no HIERARCHY)");
    if (token != "HIERARCHY") in_.fail("missing HIERARCHY: the file starts with " + in_quotes(token));
    token = in_.next_token();
    if (token != "ROOT")
      in_.fail(token.empty() ? "truncated hierarchy: no ROOT" : "expected ROOT, found " + in_quotes(token));
    open_joint(-1);
    while (!stack_.empty()) step();
    token = in_.next_token();
    if (token == "ROOT") in_.fail("several ROOTs (only one skeleton per file is supported)");
    if (token.empty()) in_.fail("missing MOTION after the hierarchy");
    if (token != "MOTION") in_.fail("expected MOTION after the hierarchy, found " + in_quotes(token));
    return std::move(out_);
  }

 private:
  std::string owner(const OpenBlock& b) const {
    return (b.end_site ? "End Site of " : "") + joint_label(out_.skeleton.names[b.joint]);
  }

  // After ROOT or JOINT: the name is the rest of the line.
  void open_joint(int parent) {
    std::string_view name = in_.rest_of_line();
    if (name.empty()) in_.fail("joint without a name");
    if (!names_.insert(name).second) in_.fail("duplicate joint name " + in_quotes(name));
    int j = out_.skeleton.add_joint(std::string(name), parent, Vec3{});
    out_.layouts.emplace_back();
    expect_open({j, false});
  }

  void expect_open(OpenBlock block) {
    if (stack_.size() >= k_max_depth)
      in_.fail("hierarchy nested deeper than " + std::to_string(k_max_depth) + " levels");
    std::string_view token = in_.next_token();
    if (token != "{")
      in_.fail(token.empty() ? "truncated hierarchy: no '{' for " + owner(block)
                             : "expected '{' for " + owner(block) + ", found " + in_quotes(token));
    stack_.push_back(block);
  }

  void step() {
    std::string_view token = in_.next_token();
    OpenBlock& top = stack_.back();
    if (token.empty()) in_.fail("truncated hierarchy: end of file inside " + owner(top));
    if (token == "}") {
      if (!top.has_offset) in_.fail(owner(top) + " has no OFFSET");
      stack_.pop_back();
    } else if (token == "OFFSET") {
      if (top.has_offset) in_.fail(owner(top) + " has two OFFSETs");
      Vec3 offset = read_offset(in_, owner(top));
      if (top.end_site)
        out_.skeleton.end_sites[top.joint] = offset;
      else
        out_.skeleton.rest_offsets[top.joint] = offset;
      top.has_offset = true;
    } else if (token == "CHANNELS" && !top.end_site) {
      if (top.has_channels) in_.fail(owner(top) + " has two CHANNELS lines");
      top.has_channels = true;
      BvhJointLayout& layout = out_.layouts[top.joint];
      layout = read_channels(in_, out_.skeleton.names[top.joint]);
      layout.first_value = out_.values_per_frame;
      out_.values_per_frame += static_cast<int>(layout.channels.size());
    } else if (token == "JOINT" && !top.end_site) {
      open_joint(top.joint);
    } else if (token == "End" && !top.end_site) {
      if (in_.rest_of_line() != "Site") in_.fail("expected 'End Site'");
      if (out_.skeleton.end_sites[top.joint]) in_.fail(owner(top) + " has two End Sites");
      expect_open({top.joint, true});
    } else if (token == "MOTION") {
      in_.fail("truncated hierarchy: MOTION inside " + owner(top));
    } else if (token == "ROOT") {
      in_.fail("several ROOTs: ROOT inside " + owner(top));
    } else {
      in_.fail("unknown keyword " + in_quotes(token) + " in " + owner(top));
    }
  }

  BvhCursor& in_;
  Hierarchy out_;
  std::vector<OpenBlock> stack_;
  std::unordered_set<std::string_view> names_;
};

struct MotionHeader {
  int frames = 0;
  double frame_time_s = 0;
};

MotionHeader read_motion_header(BvhCursor& in) {
  MotionHeader h;
  int line = 0;
  std::string_view text = in.next_line(&line);
  constexpr std::string_view k_frames = "Frames:";
  if (text.substr(0, k_frames.size()) != k_frames)
    in.fail_at(line, "missing 'Frames:' after MOTION" + (text.empty() ? "" : ", found " + in_quotes(text)));
  std::string_view count = bvh_detail::trim(text.substr(k_frames.size()));
  auto [ptr, ec] = std::from_chars(count.data(), count.data() + count.size(), h.frames);
  if (ec == std::errc::result_out_of_range) in.fail_at(line, "Frames count " + in_quotes(count) + " is too large");
  if (ec != std::errc() || ptr != count.data() + count.size() || count.empty())
    in.fail_at(line, "bad Frames count " + in_quotes(count));
  if (h.frames < 0) in.fail_at(line, "negative Frames count " + in_quotes(count));
  if (h.frames == 0) in.fail_at(line, "no frames (Frames: 0)");

  text = in.next_line(&line);
  constexpr std::string_view k_frame_time = "Frame Time:";
  if (text.substr(0, k_frame_time.size()) != k_frame_time)
    in.fail_at(line, "missing 'Frame Time:'" + (text.empty() ? "" : ", found " + in_quotes(text)));
  std::string_view time = bvh_detail::trim(text.substr(k_frame_time.size()));
  if (!bvh_detail::parse_finite_double(time, h.frame_time_s) || h.frame_time_s <= 0)
    in.fail_at(line, "bad Frame Time " + in_quotes(time) + " (need a finite number > 0)");
  return h;
}

// Rejects a Frames count the remaining text cannot hold, before anything is allocated: a row of
// n values takes at least 2n - 1 bytes (one digit and one separator per value).
void check_frames_fit(const BvhCursor& in, const Hierarchy& h, int frames) {
  const uint64_t remaining = static_cast<uint64_t>(in.end() - in.position());
  const uint64_t needed = static_cast<uint64_t>(frames) * static_cast<uint64_t>(h.values_per_frame) * 2;
  if (needed > remaining + 1)
    in.fail("Frames: " + std::to_string(frames) + " needs at least " + std::to_string(needed) +
            " bytes of motion data but only " + std::to_string(remaining) + " remain");
  // Joints without channels cost no motion bytes but still a transform per frame; bound those
  // too (56 bytes of transforms per joint-frame, at most one joint-frame per byte of text).
  const uint64_t joint_frames = static_cast<uint64_t>(frames) * static_cast<uint64_t>(h.skeleton.joint_count());
  const uint64_t text_bytes = static_cast<uint64_t>(in.end() - in.position()) + 4096;
  if (joint_frames > text_bytes * 64)
    in.fail("Frames: " + std::to_string(frames) + " x " + std::to_string(h.skeleton.joint_count()) +
            " joints is more than the file can describe");
}

class MotionParser {
 public:
  MotionParser(BvhCursor& in, const Hierarchy& h, int frames, std::vector<double>& values)
      : in_(in), h_(h), frames_(frames), values_(values), pos_(in.position()), end_(in.end()),
        line_(in.line()) {}

  void parse(std::vector<std::string>* warnings) {
    const int vpf = h_.values_per_frame;
    values_.assign(static_cast<size_t>(frames_) * static_cast<size_t>(vpf), 0.0);
    int row = 0;
    while (row < frames_) {
      skip_blanks();
      if (pos_ == end_) break;
      if (*pos_ == '\n') {
        next_line();
        continue;
      }
      double* out = values_.data() + static_cast<size_t>(row) * static_cast<size_t>(vpf);
      int n = 0;
      for (;;) {
        if (n == vpf) fail_too_many();
        out[n] = read_value(n);
        ++n;
        skip_blanks();
        if (pos_ == end_ || *pos_ == '\n') break;
      }
      if (n < vpf) fail_too_few(n);
      if (pos_ != end_) next_line();
      ++row;
    }
    if (row < frames_)
      in_.fail_at(line_, "Frames: " + std::to_string(frames_) + " but the file ends after " +
                             std::to_string(row) + " motion rows");
    warn_extra_rows(warnings);
  }

 private:
  void skip_blanks() {
    while (pos_ != end_ && bvh_detail::is_blank(*pos_)) ++pos_;
  }
  void next_line() {
    ++pos_;
    ++line_;
  }
  int joint_of_value(int n) const {
    int j = 0;
    for (int k = 0; k < h_.skeleton.joint_count(); ++k)
      if (!h_.layouts[k].channels.empty() && h_.layouts[k].first_value <= n) j = k;
    return j;
  }

  double read_value(int n) {
    const char* start = pos_;
    const char* p = pos_;
    if (*p == '+' && p + 1 != end_ && p[1] != '-') ++p;
    double v = 0;
    auto [ptr, ec] = std::from_chars(p, end_, v);
    if (ec == std::errc() && (ptr == end_ || bvh_detail::is_space(*ptr)) && std::isfinite(v)) {
      pos_ = ptr;
      return v;
    }
    while (pos_ != end_ && !bvh_detail::is_space(*pos_)) ++pos_;
    std::string_view token{start, static_cast<size_t>(pos_ - start)};
    const bool number = ec == std::errc::result_out_of_range ||
                        (ec == std::errc() && (ptr == end_ || bvh_detail::is_space(*ptr)));
    in_.fail_at(line_, joint_label(h_.skeleton.names[joint_of_value(n)]) +
                           (number ? ": non-finite value " : ": bad number ") + in_quotes(token));
  }

  [[noreturn]] void fail_too_few(int n) const {
    const int j = joint_of_value(n);
    const BvhJointLayout& layout = h_.layouts[j];
    in_.fail_at(line_, joint_label(h_.skeleton.names[j]) + ": expected " +
                           std::to_string(layout.channels.size()) + " values, found " +
                           std::to_string(n - layout.first_value) + " (row has " + std::to_string(n) +
                           " of " + std::to_string(h_.values_per_frame) + ")");
  }

  [[noreturn]] void fail_too_many() {
    int found = h_.values_per_frame;
    for (;;) {
      skip_blanks();
      if (pos_ == end_ || *pos_ == '\n') break;
      while (pos_ != end_ && !bvh_detail::is_space(*pos_)) ++pos_;
      ++found;
    }
    in_.fail_at(line_, "expected " + std::to_string(h_.values_per_frame) + " values, found " +
                           std::to_string(found));
  }

  void warn_extra_rows(std::vector<std::string>* warnings) {
    const long first_extra = line_;
    long extra = 0;
    while (pos_ != end_) {
      skip_blanks();
      if (pos_ == end_) break;
      if (*pos_ != '\n') {
        ++extra;
        while (pos_ != end_ && *pos_ != '\n') ++pos_;
      }
      if (pos_ != end_) next_line();
    }
    if (extra > 0 && warnings)
      warnings->push_back(in_.source_name() + ":" + std::to_string(first_extra) + ": " +
                          std::to_string(extra) + " motion rows after the " + std::to_string(frames_) +
                          " declared by Frames: were ignored");
  }

  BvhCursor& in_;
  const Hierarchy& h_;
  int frames_;
  std::vector<double>& values_;
  const char* pos_;
  const char* end_;
  long line_;
};

}  // namespace

Transform decode_bvh_joint(const BvhSource& source, const Vec3& raw_offset, int frame, int joint) {
  const BvhJointLayout& layout = source.joints[static_cast<size_t>(joint)];
  const double* v = source.values.data() +
                    static_cast<size_t>(frame) * static_cast<size_t>(source.values_per_frame) +
                    layout.first_value;
  Transform t;
  t.translation = raw_offset;
  EulerOrder order{};
  std::array<double, 3> angles{};
  int rotations = 0;
  for (size_t i = 0; i < layout.channels.size(); ++i) {
    const BvhChannel c = layout.channels[i];
    if (is_rotation(c)) {
      if (rotations < 3) {
        order[rotations] = channel_axis(c);
        angles[rotations] = v[i];
      }
      ++rotations;
    } else {
      at(t.translation, channel_axis(c)) = v[i];
    }
  }
  if (rotations == 3) t.rotation = quat_from_euler_deg(order, angles);
  return t;
}

Clip parse_bvh(std::string_view text, const std::string& source_name, std::vector<std::string>* warnings) {
  BvhCursor in(text, source_name);
  Hierarchy h = HierarchyParser(in).parse();
  if (h.values_per_frame == 0) in.fail("the hierarchy declares no CHANNELS, so there is no motion");
  MotionHeader header = read_motion_header(in);
  check_frames_fit(in, h, header.frames);

  auto source = std::make_shared<BvhSource>();
  MotionParser(in, h, header.frames, source->values).parse(warnings);
  source->joints = std::move(h.layouts);
  source->raw_offsets = h.skeleton.rest_offsets;
  source->raw_end_sites = h.skeleton.end_sites;
  source->values_per_frame = h.values_per_frame;
  source->frame_time_s = header.frame_time_s;

  Clip clip;
  clip.skeleton = std::move(h.skeleton);
  clip.fps = 1.0 / header.frame_time_s;
  clip.source_name = source_name;
  clip.frame_count = header.frames;
  const size_t transforms = static_cast<size_t>(header.frames) * static_cast<size_t>(clip.joint_count());
  clip.rotations.resize(transforms);
  clip.translations.resize(transforms);
  for (int f = 0; f < header.frames; ++f) {
    for (int j = 0; j < clip.joint_count(); ++j) {
      Transform t = decode_bvh_joint(*source, source->raw_offsets[static_cast<size_t>(j)], f, j);
      clip.rotation(f, j) = t.rotation;
      clip.translation(f, j) = t.translation;
    }
  }
  clip.source = std::move(source);
  return clip;
}

}  // namespace footfix
