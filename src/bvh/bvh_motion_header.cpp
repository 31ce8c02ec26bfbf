#include "bvh_motion_header.h"

#include <cctype>
#include <charconv>
#include <string>

namespace footfix::bvh_detail {
namespace {

/// Whether `line` starts like a motion row (a number, "nan" or "inf" included), not like a
/// header line.
bool starts_like_a_row(std::string_view line) {
  if (line.empty()) return false;
  if (std::isdigit(static_cast<unsigned char>(line[0])) || line[0] == '-' || line[0] == '+' || line[0] == '.') return true;
  return starts_with_ignoring_case(line, "nan") || starts_with_ignoring_case(line, "inf");
}

/// The header line kinds after MOTION.
enum class HeaderKey { frames, frame_time, other };

/// Which header line `text` is, and its value: "Frames" or "Frame Time" in any case and spacing,
/// then ':', '=' or nothing, as writers spell them (Blender's importer splits them into words).
HeaderKey read_header_key(std::string_view text, std::string_view& value) {
  auto word = [&text]() {
    text = trim(text);
    size_t n = 0;
    while (n < text.size() && std::isalpha(static_cast<unsigned char>(text[n]))) ++n;
    std::string_view w = text.substr(0, n);
    text.remove_prefix(n);
    return w;
  };
  auto is = [](std::string_view w, std::string_view keyword) {
    return w.size() == keyword.size() && starts_with_ignoring_case(w, keyword);
  };
  HeaderKey key = HeaderKey::other;
  const std::string_view first = word();
  if (is(first, "Frames")) key = HeaderKey::frames;
  else if (is(first, "Frame") && is(word(), "Time")) key = HeaderKey::frame_time;
  if (key == HeaderKey::other) return key;
  text = trim(text);
  if (!text.empty() && (text[0] == ':' || text[0] == '=')) text.remove_prefix(1);
  value = trim(text);
  return key;
}

/// Whether `value` holds no number at all (empty, or a word: a placeholder), as opposed to a
/// malformed or out-of-range one.
bool holds_no_number(std::string_view value) {
  if (!value.empty() && (value[0] == '-' || value[0] == '+')) value.remove_prefix(1);
  return value.empty() || !std::isdigit(static_cast<unsigned char>(value[0]));
}

int read_frame_count(const BvhCursor& in, int line, std::string_view count) {
  int frames = 0;
  auto [ptr, ec] = std::from_chars(count.data(), count.data() + count.size(), frames);
  if (ec == std::errc::result_out_of_range) in.fail_at(line, "Frames count " + in_quotes(count) + " is too large");
  if (ec != std::errc() || ptr != count.data() + count.size() || count.empty())
    in.fail_at(line, "bad Frames count " + in_quotes(count));
  if (frames < 0) in.fail_at(line, "negative Frames count " + in_quotes(count));
  return frames;
}

double read_frame_time(BvhCursor& in, int line, std::string_view time) {
  double seconds = 0;
  if (!in.parse_number(time, line, seconds) || seconds <= 0)
    in.fail_at(line, "bad Frame Time " + in_quotes(time) + " (need a finite number > 0)");
  // 100 kHz to one frame a minute: outside it fps, durations and velocities stop meaning anything.
  constexpr double k_min_frame_time_s = 1e-5, k_max_frame_time_s = 60;
  if (seconds < k_min_frame_time_s || seconds > k_max_frame_time_s)
    in.fail_at(line, "Frame Time " + in_quotes(time) + " is out of range (need 1e-05 to 60 seconds)");
  return seconds;
}

}  // namespace

MotionHeader read_motion_header(BvhCursor& in) {
  MotionHeader h;
  h.frames = k_frames_not_stated;
  bool frames_seen = false, frame_time_seen = false;
  for (int index = 0;; ++index) {
    BvhCursor ahead = in;
    int line = 0;
    const std::string_view text = ahead.next_line(&line);
    if (text.empty() || starts_like_a_row(text)) {
      if (!frame_time_seen) {
        h.frame_time_s = k_assumed_frame_time_s;
        h.frame_time_missing_at = line;
      }
      h.as_written = h.as_written && frames_seen && frame_time_seen;
      return h;
    }
    std::string_view value;
    const HeaderKey key = read_header_key(text, value);
    if (key == HeaderKey::other)
      in.fail_at(line, std::string(frames_seen ? "missing 'Frame Time:'" : "missing 'Frames:' after MOTION") +
                           ", found " + in_quotes(text));
    if (key == HeaderKey::frames ? frames_seen : frame_time_seen)
      in.fail_at(line, "a second " + std::string(key == HeaderKey::frames ? "'Frames:'" : "'Frame Time:'") +
                           " line, " + in_quotes(text));
    in.next_line();  // the line just read ahead
    const std::string_view written = index == 0 ? "Frames:" : "Frame Time:";
    h.as_written = h.as_written && starts_with_ignoring_case(text, written);
    if (key == HeaderKey::frames) {
      // Blender's importer reads the rows whatever the count says; a placeholder is not damage.
      if (holds_no_number(value)) {
        h.frames_not_a_number_at = line;
        h.frames_not_a_number = std::string(value);
        h.as_written = false;
      } else {
        h.frames = read_frame_count(in, line, value);
      }
      h.frames_at = line;
      frames_seen = true;
    } else {
      h.frame_time_s = read_frame_time(in, line, value);
      frame_time_seen = true;
    }
  }
}


bool holds_motion_header(std::string_view text) {
  const size_t motion = find_ignoring_case(text, "MOTION");
  if (motion == std::string_view::npos) return false;
  // The header ends where the first row starts: a line after MOTION that starts like one.
  for (size_t eol = text.find('\n', motion); eol != std::string_view::npos; eol = text.find('\n', eol + 1)) {
    size_t start = eol + 1;
    while (start < text.size() && is_blank(text[start])) ++start;
    if (starts_like_a_row(text.substr(start))) return true;
  }
  return false;
}


}  // namespace footfix::bvh_detail
