// BVH reading: the hierarchy (bvh_hierarchy.cpp), then the motion block by one tight loop over
// the buffer; joint transforms are decoded by decode_bvh_joint, which the writer reuses.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>

#include "bvh_detail.h"
#include "bvh_motion_header.h"
#include "bvh_repair.h"
#include "../core/prefault.h"
#include "footfix/core/error.h"
#include "footfix/core/read_file.h"
#include "footfix/core/euler.h"
#include "footfix/bvh/bvh.h"

namespace footfix {
namespace {

using bvh_detail::BvhCursor;
using bvh_detail::k_frames_not_stated;
using bvh_detail::MotionHeader;
using bvh_detail::in_quotes;
using bvh_detail::joint_label;
using Hierarchy = bvh_detail::BvhHierarchy;

// How many rows the remaining text can hold: a row of n values takes at least 2n - 1 bytes (one
// digit and one separator per value). Storage past it is never allocated, whatever Frames says.
size_t row_capacity(uint64_t remaining, const Hierarchy& h) {
  const uint64_t fit = (remaining + 1) / (2 * static_cast<uint64_t>(h.values_per_frame));
  return static_cast<size_t>(std::min<uint64_t>(fit, std::numeric_limits<int>::max()));
}

// Rejects a clip whose transforms (56 bytes per joint and frame) the text cannot justify; `rows`
// is the number of rows storage is allocated for, `remaining` the bytes of text left.
void check_transform_count(const BvhCursor& in, uint64_t remaining, const Hierarchy& h, size_t rows) {
  // Joints without channels cost no motion bytes but still a transform per frame; bound those
  // too: at most one joint-frame (56 bytes of transforms) per byte of text. Real clips use a few
  // hundredths (CMU: 31 joints x 2752 frames in 2 MB).
  const uint64_t joint_frames = static_cast<uint64_t>(rows) * static_cast<uint64_t>(h.skeleton.joint_count());
  const uint64_t text_bytes = remaining + 4096;
  if (joint_frames > text_bytes)
    in.fail(std::to_string(rows) + " frames x " + std::to_string(h.skeleton.joint_count()) +
            " joints is more than the file can describe");
}

// A long clip's motion text is not kept: it would add the file's size to the clip's memory. Its
// values are printed anew (as every computed value is) when it is written.
constexpr uint64_t k_max_kept_text_bytes = uint64_t{16} << 20;

// Whether a read under `limits` keeps the text of motion rows that take up to `text_bytes`.
bool keeps_motion_text(const ReadLimits& limits, uint64_t text_bytes) {
  return limits.keep_bvh_text && text_bytes <= k_max_kept_text_bytes;
}

// The motion rows of a file read a piece at a time, holding whole lines (the last one may be
// cut) until the file ends. With `keep`, the text is kept whole from the first row on (it
// becomes BvhSource::motion_text without a copy; `text_bytes`, the file's bytes after the
// header, are reserved for it); else only the text from the first row not yet parsed.
class MotionText {
 public:
  MotionText(InputFile& file, std::string_view first, bool keep, uint64_t text_bytes) : file_(file), keep_(keep) {
    if (keep_) {
      text_.reserve(static_cast<size_t>(std::max<uint64_t>(text_bytes, first.size())));
      prefault_capacity(text_);
    }
    text_.assign(first);
  }

  /// The text, and where its whole lines end.
  const char* begin() const { return text_.data(); }
  const char* end() const { return text_.data() + text_.size(); }
  const char* lines_end() const { return text_.data() + lines_; }
  /// Whether the text is kept from the first row on.
  bool kept() const { return keep_; }
  /// The text kept (the text is then empty).
  std::string take() { return std::move(text_); }

  /// Reads on until a line end follows `from` or the file ends, dropping the text before `from`
  /// unless it is kept. Returns where `from`'s text is now.
  const char* read_on(const char* from) {
    size_t at = static_cast<size_t>(from - text_.data());
    if (!keep_) {
      text_.erase(0, at);
      at = 0;
    }
    lines_ = at;
    read_lines();
    return text_.data() + at;
  }

 private:
  void read_lines() {
    for (;;) {
      const size_t old = text_.size();
      if (ended_ || file_.append_to(text_, k_piece_bytes) == 0) {
        ended_ = true;
        lines_ = text_.size();
        return;
      }
      if (const void* last = memrchr(text_.data() + old, '\n', text_.size() - old)) {
        lines_ = static_cast<size_t>(static_cast<const char*>(last) - text_.data()) + 1;
        return;
      }
    }
  }

  static constexpr size_t k_piece_bytes = 1 << 20;
  InputFile& file_;
  const bool keep_;
  std::string text_;
  size_t lines_ = 0;  // text_[0, lines_) is whole lines
  bool ended_ = false;
};

class MotionParser {
 public:
  /// Parses the rows from the cursor's position, from `more` when given (the cursor's text
  /// then ends with the motion header).
  /// With `limits`.repair_bvh, non-finite values are filled from their channel (bvh_repair.h)
  /// instead of refusing the file.
  /// The rows' values go to `source` (values, decimals), and their text too (motion_text,
  /// row_starts, row_ends, value_starts) where keeps_motion_text(`limits`, `text_bytes`) (`more`
  /// then keeps its text); `text_bytes` is the most text the rows can take (the bytes left after
  /// the header). Every complete row is read, at most `capacity`, whatever the
  /// header's Frames count says (one warning where they disagree); `check_rows(n)` is called
  /// before storage for n rows is allocated.
  MotionParser(BvhCursor& in, const Hierarchy& h, const MotionHeader& header, size_t capacity, BvhSource& source,
               uint64_t text_bytes, const ReadLimits& limits, std::function<void(size_t)> check_rows,
               MotionText* more = nullptr)
      : in_(in), h_(h), frames_(header.frames), frames_at_(header.frames_at), capacity_(capacity),
        check_rows_(std::move(check_rows)),
        values_(source.values), decimals_(source.decimals),
        text_(source.motion_text), row_starts_(source.row_starts), row_ends_(source.row_ends),
        value_starts_(source.value_starts), more_(more),
        pos_(more ? more->begin() : in.position()), end_(more ? more->end() : in.end()),
        lines_end_(more ? more->lines_end() : end_), line_(in.line()), repair_(limits.repair_bvh),
        keep_text_(keeps_motion_text(limits, text_bytes)),
        non_finite_(h.values_per_frame), row_decimals_(static_cast<size_t>(h.values_per_frame)) {}

  /// Returns the number of rows read.
  int parse(std::vector<std::string>* warnings) {
    const int vpf = h_.values_per_frame;
    decimals_.assign(static_cast<size_t>(vpf), 0);
    std::uint8_t* const decimals = decimals_.data();
    bool keep_text = keep_text_;
    // The rows' text is where they are read from: the file's pieces kept whole, or a copy of the
    // text in memory.
    if (keep_text && !more_) {
      text_.assign(pos_, end_);
      pos_ = text_.data();
      end_ = lines_end_ = pos_ + text_.size();
    }
    // A stated count is allocated at once; without one, and past it, storage doubles as rows come.
    const bool counted = frames_ != k_frames_not_stated && frames_ > 0;
    allocate_rows(std::min(capacity_, counted ? static_cast<size_t>(frames_) : k_first_unstated_rows), keep_text);
    std::uint8_t* const row_decimals = row_decimals_.data();
    while (static_cast<size_t>(row_) < capacity_) {
      need_line();
      const char* const line_start = pos_;
      skip_blanks();
      if (pos_ == end_) break;
      if (*pos_ == '\n') {
        next_line();
        continue;
      }
      if (static_cast<size_t>(row_) == rows_allocated_)
        allocate_rows(std::min(capacity_, std::max(2 * rows_allocated_, k_first_unstated_rows)), keep_text);
      // The row's storage, inside the rows reserved: zeroed a row at a time, while it is in the
      // cache for the values written over it, not all at once beforehand.
      const size_t row_first = static_cast<size_t>(row_) * static_cast<size_t>(vpf);
      values_.resize(row_first + static_cast<size_t>(vpf));
      double* out = values_.data() + row_first;
      std::uint16_t* starts = nullptr;
      if (keep_text) {
        value_starts_.resize(row_first + static_cast<size_t>(vpf));
        starts = value_starts_.data() + row_first;
      }
      const long row_line = line_;
      int n = 0, extra = 0;
      for (;;) {
        if (starts) starts[n] = static_cast<std::uint16_t>(pos_ - line_start);
        int fraction_digits = 0;
        out[n] = read_value(n, fraction_digits);
        if (cut_ || stop_) break;
        row_decimals[n] = static_cast<std::uint8_t>(fraction_digits);
        ++n;
        skip_blanks();
        if (pos_ == end_ || *pos_ == '\n') break;
        if (n == vpf) {
          extra = skip_extra_values();
          break;
        }
      }
      if (cut_ || stop_ || n < vpf || extra < extra_per_row_) {
        // A last row cut short (a recorder stopped mid-row) is dropped; past the rows Frames
        // states, text that is no whole row ends the motion (a trailer); elsewhere it is an error.
        if (cut_ || (!stop_ && row_ > 0 && at_end_of_text())) {
          partial_row_line_ = row_line;
          break;
        }
        if (stop_ || past_stated_count()) {
          ignored_from_line_ = row_line;
          break;
        }
        line_ = row_line;
        if (n < vpf) fail_too_few(n);
      }
      if (extra != extra_per_row_) check_extra_values(row_, extra);
      // A row's decimals count once it is whole: a dropped partial row says nothing of them.
      for (int i = 0; i < n; ++i) decimals[i] = std::max(decimals[i], row_decimals[i]);
      if (pos_ != end_) next_line();
      keep_text = keep_text && pos_ - line_start <= k_max_row_bytes;
      if (keep_text) {
        const char* const base = text_base();
        row_starts_.push_back(static_cast<size_t>(line_start - base));
        row_ends_.push_back(static_cast<size_t>(pos_ - base));
      }
      ++row_;
    }
    // Text left once the rows fill what the text can hold cannot be a whole row: a partial row.
    if (row_ > 0 && static_cast<size_t>(row_) == capacity_ && !at_end_of_text()) partial_row_line_ = line_;
    const int row = row_;
    if (row == 0) {
      if (frames_ == 0) in_.fail_at(frames_at_, "no frames (Frames: 0)");
      in_.fail_at(line_, "no motion rows after MOTION");
    }
    if (warnings && ((frames_ != k_frames_not_stated && row != frames_) || partial_row_line_ > 0 || ignored_from_line_ > 0))
      warnings->push_back(rows_read_warning());
    values_.resize(static_cast<size_t>(row) * static_cast<size_t>(vpf));
    if (extra_per_row_ > 0) {
      keep_text = false;
      if (warnings)
        warnings->push_back("line " + std::to_string(first_row_line_) + ": every motion row holds " +
                            std::to_string(extra_per_row_) + " values more than the hierarchy's " +
                            std::to_string(vpf) + " channels; they were ignored");
    }
    if (non_finite_.count() > 0) repair_non_finite(static_cast<size_t>(row), warnings);
    // Repaired values are not their text, nor are values read from a decimal comma; a longer row's
    // values cannot be found in it; a long clip, or a read that does not ask for it, keeps none
    // (above).
    if (more_ && more_->kept()) text_ = more_->take();
    if (non_finite_.count() > 0 || in_.decimal_commas().count > 0 || !keep_text) {
      std::string().swap(text_);
      std::vector<size_t>().swap(row_starts_);
      std::vector<size_t>().swap(row_ends_);
      std::vector<std::uint16_t>().swap(value_starts_);
    }
    value_starts_.resize(row_ends_.size() * static_cast<size_t>(vpf));
    return row;
  }

 private:
  void skip_blanks() {
    while (pos_ != end_ && bvh_detail::is_blank(*pos_)) ++pos_;
  }
  // Whether only blanks and line ends follow pos_ to the end of the file; moves pos_ and line_
  // past them (reading on from the file if there is one).
  bool at_end_of_text() {
    for (;;) {
      need_line();
      skip_blanks();
      if (pos_ == end_ || *pos_ != '\n') return pos_ == end_;
      next_line();
    }
  }

  // Whether the rows read already reach the header's Frames count (a count is stated).
  bool past_stated_count() const { return frames_ != k_frames_not_stated && frames_ > 0 && row_ >= frames_; }

  // The warning for rows read that the Frames count does not state, or a partial last row dropped.
  std::string rows_read_warning() const {
    std::string w = std::to_string(row_) + " complete rows read";
    if (frames_ != k_frames_not_stated)
      w = "Frames: " + std::to_string(frames_) + " at line " + std::to_string(frames_at_) + ", " + w;
    if (partial_row_line_ > 0) w += "; a partial row at line " + std::to_string(partial_row_line_) + " was dropped";
    if (ignored_from_line_ > 0)
      w += "; the text from line " + std::to_string(ignored_from_line_) + " on is no motion row and was ignored";
    return w;
  }
  void next_line() {
    ++pos_;
    ++line_;
  }
  // Where the kept text starts (the offsets in row_starts_ and row_ends_ count from it).
  const char* text_base() const { return more_ ? more_->begin() : text_.data(); }
  // Makes the text from pos_ hold its whole line (reading on from the file if there is one).
  void need_line() {
    if (more_ == nullptr || pos_ < lines_end_) return;
    pos_ = more_->read_on(pos_);
    end_ = more_->end();
    lines_end_ = more_->lines_end();
  }
  int joint_of_value(int n) const {
    int j = 0;
    for (int k = 0; k < h_.skeleton.joint_count(); ++k)
      if (!h_.layouts[k].channels.empty() && h_.layouts[k].first_value <= n) j = k;
    return j;
  }

  double read_value(int n, int& fraction_digits) {
    const char* start = pos_;
    const char* p = pos_;
    if (*p == '+' && p + 1 != end_ && p[1] != '-') ++p;
    double v = 0;
    auto [ptr, ec] = bvh_detail::decimal_from_chars(p, end_, v, fraction_digits);
    if (ec == std::errc() && (ptr == end_ || bvh_detail::is_space(*ptr)) && std::isfinite(v)) {
      pos_ = ptr;
      return v;
    }
    while (pos_ != end_ && !bvh_detail::is_space(*pos_)) ++pos_;
    std::string_view token{start, static_cast<size_t>(pos_ - start)};
    if (read_decimal_comma(token, v, fraction_digits)) return v;
    const bool number = ec == std::errc::result_out_of_range ||
                        (ec == std::errc() && (ptr == end_ || bvh_detail::is_space(*ptr))) ||
                        bvh_detail::is_msvc_non_finite(token);
    if (number && repair_) {
      non_finite_.add(n, line_);
      return std::numeric_limits<double>::quiet_NaN();
    }
    const long line = line_;
    const std::string message = joint_label(h_.skeleton.names[joint_of_value(n)]) +
                                (number ? ": non-finite value " : ": bad number ") + in_quotes(token) +
                                (number ? " (--repair fills it from its channel)" : "");
    // Text that is no number on the last line after complete rows is a row cut mid-value; past
    // the rows Frames states, it ends the motion.
    if (!number && row_ > 0) {
      if (at_end_of_text()) {
        cut_ = true;
        return 0;
      }
      if (past_stated_count()) {
        stop_ = true;
        return 0;
      }
    }
    in_.fail_at(line, message);
  }

  // Reads `token` written with a decimal comma into `v` (its fraction digits too), counted in the
  // cursor's decimal_commas(); false if it is no such number.
  bool read_decimal_comma(std::string_view token, double& v, int& fraction_digits) {
    std::string point = bvh_detail::decimal_comma_as_point(token);
    if (point.empty()) return false;
    if (point[0] == '+') point.erase(0, 1);
    const char* const last = point.data() + point.size();
    auto [ptr, ec] = bvh_detail::decimal_from_chars(point.data(), last, v, fraction_digits);
    if (ec != std::errc() || ptr != last || !std::isfinite(v)) return false;
    in_.decimal_commas().add(line_);
    return true;
  }

  void repair_non_finite(size_t rows, std::vector<std::string>* warnings) {
    const int column = bvh_detail::fill_non_finite(values_, rows, h_.values_per_frame, decimals_);
    if (column >= 0) {
      const int j = joint_of_value(column);
      const BvhJointLayout& layout = h_.layouts[j];
      const BvhChannel channel = layout.channels[static_cast<size_t>(column - layout.first_value)];
      in_.fail_at(non_finite_.first_line(column),
                  joint_label(h_.skeleton.names[j]) + ": channel " +
                      bvh_detail::k_channel_names[static_cast<int>(channel)] +
                      " has no finite value in any frame, nothing to repair it from");
    }
    if (warnings) warnings->push_back(non_finite_.warning());
  }

  [[noreturn]] void fail_too_few(int n) const {
    const int j = joint_of_value(n);
    const BvhJointLayout& layout = h_.layouts[j];
    in_.fail_at(line_, joint_label(h_.skeleton.names[j]) + ": expected " +
                           std::to_string(layout.channels.size()) + " values, found " +
                           std::to_string(n - layout.first_value) + " (row has " + std::to_string(n) +
                           " of " + std::to_string(h_.values_per_frame) + ")");
  }

  // Room for `rows` rows (values, and value starts when the text is kept), checked first and mapped;
  // each row takes its part as it is read.
  void allocate_rows(size_t rows, bool keep_text) {
    check_rows_(rows);
    const size_t vpf = static_cast<size_t>(h_.values_per_frame);
    values_.reserve(rows * vpf);
    prefault_capacity(values_);
    if (keep_text) {
      row_starts_.reserve(rows);
      row_ends_.reserve(rows);
      value_starts_.reserve(rows * vpf);
      prefault_capacity(value_starts_);
    }
    rows_allocated_ = rows;
  }

  // Skips the values a row holds past the hierarchy's channels (the cursor after its last
  // channel's value); returns how many.
  int skip_extra_values() {
    int found = 0;
    for (;;) {
      skip_blanks();
      if (pos_ == end_ || *pos_ == '\n') return found;
      while (pos_ != end_ && !bvh_detail::is_space(*pos_)) ++pos_;
      ++found;
    }
  }

  // Rows may hold more values than the channels (some writers add columns), up to as many again,
  // when every row holds as many as the first: the extra ones are ignored. A row that differs is
  // an error.
  void check_extra_values(int row, int extra) {
    if (row == 0 && extra <= h_.values_per_frame) {
      extra_per_row_ = extra;
      first_row_line_ = line_;
      return;
    }
    const int vpf = h_.values_per_frame;
    in_.fail_at(line_, "expected " + std::to_string(vpf + extra_per_row_) + " values, found " +
                               std::to_string(vpf + extra));
  }

  BvhCursor& in_;
  const Hierarchy& h_;
  int frames_;       // as the header states it (k_frames_not_stated: no count)
  int frames_at_;    // the Frames line (0: none)
  size_t capacity_;  // the most rows read: the rows the text can hold
  int row_ = 0;      // complete rows read so far
  long partial_row_line_ = 0;  // line of a partial last row dropped (0: none)
  bool cut_ = false;           // the row being read was cut mid-value at the end of the file
  bool stop_ = false;          // past the stated rows, the row being read holds text that is no number
  long ignored_from_line_ = 0;  // first line of such text, ignored with the rest (0: none)
  std::function<void(size_t)> check_rows_;
  size_t rows_allocated_ = 0;
  static constexpr size_t k_first_unstated_rows = 1024;
  int extra_per_row_ = 0;  // values past the channels on each row (set by the first)
  long first_row_line_ = 0;
  std::vector<double>& values_;
  std::vector<std::uint8_t>& decimals_;
  std::string& text_;
  std::vector<size_t>& row_starts_;
  std::vector<size_t>& row_ends_;
  std::vector<std::uint16_t>& value_starts_;
  static constexpr long k_max_row_bytes = 0xffff;  // the most a value start can say
  MotionText* more_;
  const char* pos_;
  const char* end_;
  const char* lines_end_;  // [pos_, lines_end_) is whole lines
  long line_;
  bool repair_;
  bool keep_text_;
  bvh_detail::NonFiniteValues non_finite_;
  std::vector<std::uint8_t> row_decimals_;  // the fraction digits of the row being read
};

}  // namespace

namespace {

// Raw values of `joint` at `frame`.
const double* joint_values(const BvhSource& source, int frame, int joint) {
  return source.values.data() + static_cast<size_t>(frame) * static_cast<size_t>(source.values_per_frame) +
         source.joints[static_cast<size_t>(joint)].first_value;
}

// How a joint's raw values become its transform, worked out once from its channels (read_clip
// decodes every frame with one per joint; decode_bvh_joint works one out for its frame).
struct JointDecoding {
  int first_value = 0;
  std::array<int, 3> position{-1, -1, -1};  ///< value (from first_value) that sets each axis, or -1
  bool rotates = false;                     ///< exactly three rotation channels (else the identity)
  EulerOrder order{};
  std::array<int, 3> rotation{};            ///< value (from first_value) of each rotation
};

JointDecoding joint_decoding(const BvhJointLayout& layout) {
  JointDecoding d;
  d.first_value = layout.first_value;
  int rotations = 0;
  for (size_t i = 0; i < layout.channels.size(); ++i) {
    const BvhChannel c = layout.channels[i];
    if (!bvh_detail::is_rotation(c)) {
      d.position[bvh_detail::channel_axis(c)] = static_cast<int>(i);  // a later channel of one axis wins
      continue;
    }
    if (rotations < 3) {
      d.order[rotations] = bvh_detail::channel_axis(c);
      d.rotation[rotations] = static_cast<int>(i);
    }
    ++rotations;
  }
  d.rotates = rotations == 3;
  return d;
}

// The joint's translation from its values `v` (its first channel's): its raw offset, with each
// axis a position channel sets replaced by that value.
Vec3 decoded_translation(const JointDecoding& d, const double* v, Vec3 raw_offset) {
  for (int axis = 0; axis < 3; ++axis)
    if (d.position[axis] >= 0) at(raw_offset, axis) = v[d.position[axis]];
  return raw_offset;
}

// The joint's rotation from its values `v`: the identity without three rotation channels. Zero
// angles give the identity exactly; skipping the trigonometry keeps the result and saves time
// on the many joints mocap files leave at rest.
Quat decoded_rotation(const JointDecoding& d, const double* v) {
  if (!d.rotates) return {};
  const std::array<double, 3> angles{v[d.rotation[0]], v[d.rotation[1]], v[d.rotation[2]]};
  if (angles[0] == 0 && angles[1] == 0 && angles[2] == 0) return {};
  return quat_from_euler_deg(d.order, angles);
}

}  // namespace

Vec3 decode_bvh_translation(const BvhSource& source, const Vec3& raw_offset, int frame, int joint) {
  return decoded_translation(joint_decoding(source.joints[static_cast<size_t>(joint)]), joint_values(source, frame, joint), raw_offset);
}

Transform decode_bvh_joint(const BvhSource& source, const Vec3& raw_offset, int frame, int joint) {
  const JointDecoding d = joint_decoding(source.joints[static_cast<size_t>(joint)]);
  const double* v = joint_values(source, frame, joint);
  return {decoded_rotation(d, v), decoded_translation(d, v, raw_offset)};
}

namespace {

// A joint's fingerprint before its first frame, for a clip of `frames` frames.
std::uint64_t fingerprint_start(int frames) { return 0x9e3779b97f4a7c15u ^ static_cast<std::uint64_t>(frames); }

// A joint's fingerprint `h` taken on by its rotation `q` in the next frame.
std::uint64_t fingerprint_step(std::uint64_t h, const Quat& q) {
  std::uint64_t words[4];
  static_assert(sizeof(Quat) == sizeof words);
  std::memcpy(words, &q, sizeof words);
  for (std::uint64_t w : words) {
    h = (h ^ w) * 0xbf58476d1ce4e5b9u;  // odd multiplier and xor-shift: both invertible
    h ^= h >> 31;
  }
  return h;
}

}  // namespace

std::vector<std::uint64_t> rotation_fingerprints(const Clip& clip) {
  const size_t joints = static_cast<size_t>(clip.joint_count());
  std::vector<std::uint64_t> hash(joints, fingerprint_start(clip.frame_count));
  const Quat* q = clip.rotations.data();
  for (int f = 0; f < clip.frame_count; ++f)
    for (size_t j = 0; j < joints; ++j, ++q) hash[j] = fingerprint_step(hash[j], *q);
  return hash;
}

namespace {


// Decodes every frame of `source` into `clip` (rotations and translations, reserved), as
// decode_bvh_joint does joint by joint, and returns the rotations' fingerprints
// (rotation_fingerprints) taken on the way. A joint whose angles repeat the last frame's bit for
// bit gets the same rotation without computing it again.
std::vector<std::uint64_t> decode_frames(const BvhSource& source, Clip& clip) {
  const size_t joints = static_cast<size_t>(clip.joint_count());
  std::vector<JointDecoding> decoding(joints);
  for (size_t j = 0; j < joints; ++j) decoding[j] = joint_decoding(source.joints[j]);
  std::vector<std::uint64_t> hash(joints, fingerprint_start(clip.frame_count));
  const size_t row_values = static_cast<size_t>(source.values_per_frame);
  // A frame's transforms are made here, then appended to the clip at once; `rotations` keeps the
  // last frame's while the next is made.
  std::vector<Quat> rotations(joints);
  std::vector<Vec3> translations(joints);
  for (int f = 0; f < clip.frame_count; ++f) {
    const double* row = source.values.data() + static_cast<size_t>(f) * row_values;
    for (size_t j = 0; j < joints; ++j) {
      const JointDecoding& d = decoding[j];
      const double* v = row + d.first_value;
      const double* last = f > 0 ? v - row_values : nullptr;
      const bool repeats = d.rotates && last != nullptr && std::memcmp(&v[d.rotation[0]], &last[d.rotation[0]], sizeof(double)) == 0 &&
                           std::memcmp(&v[d.rotation[1]], &last[d.rotation[1]], sizeof(double)) == 0 &&
                           std::memcmp(&v[d.rotation[2]], &last[d.rotation[2]], sizeof(double)) == 0;
      if (!repeats) rotations[j] = decoded_rotation(d, v);
      translations[j] = decoded_translation(d, v, source.raw_offsets[j]);
      hash[j] = fingerprint_step(hash[j], rotations[j]);
    }
    clip.rotations.insert(clip.rotations.end(), rotations.begin(), rotations.end());
    clip.translations.insert(clip.translations.end(), translations.begin(), translations.end());
  }
  return hash;
}

// The clip from the motion header on: `in` after "Frame Time:", `remaining` bytes of text after
// it; the rows from the cursor's text, or from `more`. `head` is the file's text before the rows.
Clip parse_motion(BvhCursor& in, Hierarchy& h, const MotionHeader& header, std::string_view head, uint64_t remaining,
                  MotionText* more, const std::string& source_name, std::vector<std::string>* warnings,
                  const ReadLimits& limits) {
  // The frames the text can hold (a declared count that differs is reported by the parse).
  const size_t capacity = row_capacity(remaining, h);
  auto check_rows = [&](size_t rows) {
    check_transform_count(in, remaining, h, rows);
    const double duration_s = static_cast<double>(rows) * header.frame_time_s;
    if (duration_s > limits.max_duration_s) fail_over_duration(source_name, "lasts", duration_s, limits);
    check_clip_memory(limits, rows, static_cast<std::uint64_t>(h.skeleton.joint_count()), source_name);
  };

  auto source = std::make_shared<BvhSource>();
  if (warnings) warnings->insert(warnings->end(), h.warnings.begin(), h.warnings.end());
  const int frames = MotionParser(in, h, header, capacity, *source, remaining, limits, check_rows, more)
                         .parse(warnings);
  const bvh_detail::DecimalCommas& commas = in.decimal_commas();
  if (commas.count > 0 && warnings) warnings->push_back(commas.warning());
  // A hierarchy read with warnings (parts guessed or left out), or a motion header spelt
  // otherwise, or numbers with a decimal comma, is written as understood instead.
  if (h.warnings.empty() && header.as_written && commas.count == 0) source->head_text = head;
  source->names = h.skeleton.names;
  source->parents = h.skeleton.parents;
  source->declared_frames = header.frames;
  source->joints = std::move(h.layouts);
  source->raw_offsets = h.skeleton.rest_offsets;
  source->raw_end_sites = h.skeleton.end_sites;
  source->values_per_frame = h.values_per_frame;
  source->frame_time_s = header.frame_time_s;

  Clip clip;
  clip.skeleton = std::move(h.skeleton);
  clip.fps = 1.0 / header.frame_time_s;
  clip.source_name = source_name;
  clip.space = ClipSpace::source;  // file units; no header states them (detected on load)
  clip.frame_count = frames;
  const size_t transforms = static_cast<size_t>(frames) * static_cast<size_t>(clip.joint_count());
  // Filled in index order (frame-major) as decoded, not default-constructed first.
  clip.rotations.reserve(transforms);
  clip.translations.reserve(transforms);
  prefault_capacity(clip.rotations);
  prefault_capacity(clip.translations);
  source->rotation_fingerprints = decode_frames(*source, clip);
  source->world_positions = bvh_detail::read_world_positions(clip, *source);
  if (source->world_positions && warnings)
    warnings->push_back("the position channels hold world positions (every OFFSET and rotation 0, as positional "
                        "exporters write them): read as such; the written file has them relative to each parent, as BVH means");
  clip.source = std::move(source);
  return clip;
}

Hierarchy parse_header(BvhCursor& in, MotionHeader& header) {
  Hierarchy h = bvh_detail::parse_bvh_hierarchy(in);
  if (h.values_per_frame == 0) in.fail("the hierarchy declares no CHANNELS, so there is no motion");
  header = bvh_detail::read_motion_header(in);
  if (header.frames_not_a_number_at > 0)
    h.warnings.push_back("line " + std::to_string(header.frames_not_a_number_at) + ": Frames count " +
                         in_quotes(header.frames_not_a_number) + " is no number; every motion row was read");
  // The header is then written as understood (with the assumed Frame Time), not as read.
  if (header.frame_time_missing_at > 0)
    h.warnings.push_back("line " + std::to_string(header.frame_time_missing_at) +
                         ": no 'Frame Time:' line before the motion rows; read at an assumed " +
                         std::to_string(static_cast<int>(std::lround(1 / bvh_detail::k_assumed_frame_time_s))) +
                         " fps (the written clip states it)");
  return h;
}

}  // namespace

Clip parse_bvh(std::string_view text, const std::string& source_name, std::vector<std::string>* warnings,
               const ReadLimits& limits) {
  // Classic Mac OS line ends (a CR alone) are read as LF, as Blender's importer reads them.
  if (text.find('\n') == std::string_view::npos && text.find('\r') != std::string_view::npos) {
    std::string lf(text);
    std::replace(lf.begin(), lf.end(), '\r', '\n');
    return parse_bvh(lf, source_name, warnings, limits);
  }
  BvhCursor in(text, source_name);
  MotionHeader header;
  Hierarchy h = parse_header(in, header);
  return parse_motion(in, h, header, text.substr(0, static_cast<size_t>(in.position() - text.data())),
                      static_cast<uint64_t>(in.end() - in.position()), nullptr, source_name, warnings, limits);
}

bool is_bvh_path(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".bvh";
}

Clip read_bvh_file(const std::filesystem::path& path, const std::string& source_name,
                   std::vector<std::string>* warnings, const ReadLimits& limits) {
  InputFile file(path, limits.max_input_bytes);
  std::string head;
  bool ended = false;
  // Pieces that double, so that looking for the header again after each stays linear.
  while (!ended && !bvh_detail::holds_motion_header(head))
    ended = file.append_to(head, std::max<size_t>(size_t{1} << 16, head.size())) == 0;
  if (ended) return parse_bvh(head, source_name, warnings, limits);  // the whole file is read
  BvhCursor in(head, source_name);
  MotionHeader header;
  Hierarchy h;
  bool whole_header = false;
  try {
    h = parse_header(in, header);
    // The "Frame Time:" line read must have ended in the text read so far, not been cut.
    whole_header = in.position() > head.data() && in.position()[-1] == '\n';
  } catch (const Error&) {
  }
  // A malformed head is judged on the whole text, as parse_bvh would (the same message).
  if (!whole_header) return parse_bvh(read_file(path, limits.max_input_bytes), source_name, warnings, limits);
  const uint64_t header_bytes = static_cast<uint64_t>(in.position() - head.data());
  const uint64_t remaining = file.size() > header_bytes ? file.size() - header_bytes : 0;
  MotionText more(file, std::string_view(in.position(), static_cast<size_t>(in.end() - in.position())),
                  keeps_motion_text(limits, remaining), remaining);
  more.read_on(more.begin());
  return parse_motion(in, h, header, std::string_view(head).substr(0, static_cast<size_t>(header_bytes)), remaining,
                      &more, source_name, warnings, limits);
}

}  // namespace footfix
