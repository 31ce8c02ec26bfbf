// Internal to io/: a cursor over BVH text. It reads whitespace-separated tokens and whole lines,
// counts lines (LF, CRLF and mixed endings; a TAB or CR is plain whitespace) and raises located
// errors "<source_name>:<line>: message".
#pragma once

#include <string>
#include <string_view>

namespace footfix::bvh_detail {

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
inline bool is_space(char c) { return is_blank(c) || c == '\n'; }

/// `s` without leading and trailing whitespace.
std::string_view trim(std::string_view s);

/// Parses the whole of `token` as a double (std::from_chars; a leading '+' is accepted).
/// Returns false if it is not a number, out of double range, or not finite (nan, inf).
bool parse_finite_double(std::string_view token, double& out);

/// `s` in single quotes, shortened to 40 bytes for messages.
std::string in_quotes(std::string_view s);

class BvhCursor {
 public:
  /// `text` and `source_name` must outlive the cursor.
  BvhCursor(std::string_view text, const std::string& source_name);

  /// Skips whitespace (newlines included) and returns the next token, or "" at the end.
  std::string_view next_token();
  /// The rest of the current line, trimmed; consumes the line end.
  std::string_view rest_of_line();
  /// The next line that is not blank, trimmed; "" at the end. Consumes its line end and stores
  /// its number in `*line_number` if given.
  std::string_view next_line(int* line_number = nullptr);

  const char* position() const { return pos_; }
  const char* end() const { return end_; }
  /// Line number (1-based) of position().
  int line() const { return line_; }
  const std::string& source_name() const { return source_name_; }

  /// Throws Error(read) "<source_name>:<line>: message" for the current line or a given one.
  [[noreturn]] void fail(const std::string& message) const;
  [[noreturn]] void fail_at(long line, const std::string& message) const;

 private:
  const char* pos_;
  const char* end_;
  int line_ = 1;
  const std::string& source_name_;
};

}  // namespace footfix::bvh_detail
