// Internal to bvh/: a cursor over BVH text. It reads whitespace-separated tokens and whole lines,
// counts lines (LF, CRLF and mixed endings; a TAB or CR is plain whitespace), skips a UTF-8
// byte-order mark that Windows tools write first, and raises located errors
// "<source_name>:<line>: message". Keywords are matched without regard to case, as Blender's
// importer matches them ("Frame time:", "root").
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace footfix::bvh_detail {

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
inline bool is_space(char c) { return is_blank(c) || c == '\n'; }

/// Whether `a` and `b` are equal, ASCII letters compared without regard to case.
bool equal_ignoring_case(std::string_view a, std::string_view b);
/// Whether `text` starts with `prefix`, without regard to case.
inline bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && equal_ignoring_case(text.substr(0, prefix.size()), prefix);
}
/// Where `keyword` first occurs in `text` from `from`, without regard to case; npos if nowhere.
std::size_t find_ignoring_case(std::string_view text, std::string_view keyword, std::size_t from = 0);

/// The UTF-8 byte-order mark.
inline constexpr std::string_view k_utf8_bom = "\xef\xbb\xbf";

/// `s` without leading and trailing whitespace.
std::string_view trim(std::string_view s);

/// Parses the whole of `token` as a double (std::from_chars; a leading '+' is accepted).
/// Returns false if it is not a number, out of double range, or not finite (nan, inf).
bool parse_finite_double(std::string_view token, double& out);

/// `token` with its decimal comma written as a point ("-12,5" -> "-12.5", "1,5E-05" -> "1.5E-05"),
/// as programs print numbers on locales that write decimals so (a C# or Delphi tool on a German,
/// French or Russian system); empty if `token` is not such a number: an optional sign, digits, one
/// comma, digits, an optional exponent, and no point.
std::string decimal_comma_as_point(std::string_view token);

/// Where numbers written with a decimal comma were read: how many, and the first one's line.
struct DecimalCommas {
  long count = 0;
  long first_line = 0;

  void add(long line) {
    if (count++ == 0) first_line = line;
  }
  /// The one warning for a file that has them: "" if none.
  std::string warning() const;
};

/// What decimal_from_chars stores as the fraction digits of a number it did not read as a plain
/// decimal of at most 15 digits.
constexpr int k_not_plain_decimal = 127;

/// std::from_chars(first, last, out) for doubles, with a fast path for plain decimals of at most
/// 15 digits ("-17.3198"): the digits are an exact integer m < 2^53 and 10^k (k <= 15) is exact,
/// so m / 10^k is one correctly rounded division, the same double from_chars returns (Clinger's
/// fast path). Anything else (exponents, longer numbers, inf, nan, garbage) goes to from_chars.
/// `fraction_digits` receives k on the fast path, k_not_plain_decimal otherwise.
inline std::from_chars_result decimal_from_chars(const char* first, const char* last, double& out,
                                                 int& fraction_digits) {
  static constexpr double k_pow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  constexpr int k_max_digits = 15;
  const char* p = first;
  const bool negative = p != last && *p == '-';
  if (negative) ++p;
  uint64_t mantissa = 0;
  int digits = 0, fraction = 0;
  for (; p != last && static_cast<unsigned>(*p - '0') < 10 && digits <= k_max_digits; ++p, ++digits)
    mantissa = mantissa * 10 + static_cast<unsigned>(*p - '0');
  if (p != last && *p == '.') {
    ++p;
    for (; p != last && static_cast<unsigned>(*p - '0') < 10 && digits <= k_max_digits; ++p, ++digits, ++fraction)
      mantissa = mantissa * 10 + static_cast<unsigned>(*p - '0');
  }
  if (digits == 0 || digits > k_max_digits ||
      (p != last && (*p == 'e' || *p == 'E' || static_cast<unsigned>(*p - '0') < 10))) {
    fraction_digits = k_not_plain_decimal;
    return std::from_chars(first, last, out);
  }
  fraction_digits = fraction;
  double v = static_cast<double>(mantissa);
  if (fraction > 0) v /= k_pow10[fraction];
  out = negative ? -v : v;
  return {p, std::errc()};
}

/// Whether `token` is how Microsoft's C runtime before 2015 printed a non-finite double
/// ("1.#QNAN0", "-1.#IND00", "1.#INF00", "1.#SNAN"), as older Windows capture tools write them.
bool is_msvc_non_finite(std::string_view token);

/// `s` in single quotes for messages: control and invalid bytes escaped (printable), cut at 40 bytes.
std::string in_quotes(std::string_view s);

class BvhCursor {
 public:
  /// `text` and `source_name` must outlive the cursor.
  BvhCursor(std::string_view text, const std::string& source_name);

  /// Skips whitespace (newlines included) and returns the next token, or "" at the end.
  std::string_view next_token();
  /// The rest of the current line, trimmed; consumes the line end.
  std::string_view rest_of_line();
  /// The rest of the current line up to a '{' that starts a word ("Hips {", "Site {"), trimmed.
  /// With such a brace, the cursor stops at it (the brace is the next token, the block may go on
  /// on the same line, as token-based readers such as assimp's and three.js's take it); without,
  /// the line end is consumed as by rest_of_line.
  std::string_view rest_of_line_to_brace();
  /// The next line that is not blank, trimmed; "" at the end. Consumes its line end and stores
  /// its number in `*line_number` if given.
  std::string_view next_line(int* line_number = nullptr);

  const char* position() const { return pos_; }
  const char* end() const { return end_; }
  /// Line number (1-based) of position().
  int line() const { return line_; }
  /// Parses `token`, on line `line`, as parse_finite_double does, or else as a number written with
  /// a decimal comma (decimal_comma_as_point), which decimal_commas() then counts.
  bool parse_number(std::string_view token, long line, double& out);
  /// The numbers with a decimal comma read so far (parse_number, or a reader's own count added).
  DecimalCommas& decimal_commas() { return decimal_commas_; }
  const std::string& source_name() const { return source_name_; }

  /// Throws Error(read) "<source_name>:<line>: message" for the current line or a given one.
  [[noreturn]] void fail(const std::string& message) const;
  [[noreturn]] void fail_at(long line, const std::string& message) const;

 private:
  const char* pos_;
  const char* end_;
  int line_ = 1;
  const std::string& source_name_;
  DecimalCommas decimal_commas_;
};

}  // namespace footfix::bvh_detail
