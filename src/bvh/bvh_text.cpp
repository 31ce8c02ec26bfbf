#include "bvh_text.h"

#include <cctype>
#include <charconv>
#include <cmath>

#include "footfix/core/error.h"
#include "footfix/core/text.h"

namespace footfix::bvh_detail {

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool parse_finite_double(std::string_view token, double& out) {
  if (!token.empty() && token.front() == '+') {
    token.remove_prefix(1);
    if (!token.empty() && token.front() == '-') return false;
  }
  const char* end = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(token.data(), end, out);
  return ec == std::errc() && ptr == end && std::isfinite(out);
}

std::string decimal_comma_as_point(std::string_view token) {
  const auto digits = [&token](size_t at) {
    size_t end = at;
    while (end < token.size() && std::isdigit(static_cast<unsigned char>(token[end]))) ++end;
    return end - at;
  };
  size_t at = !token.empty() && (token[0] == '-' || token[0] == '+') ? 1 : 0;
  const size_t whole = digits(at);
  if (whole == 0 || at + whole >= token.size() || token[at + whole] != ',') return {};
  const size_t comma = at + whole;
  const size_t fraction = digits(comma + 1);
  if (fraction == 0) return {};
  at = comma + 1 + fraction;
  if (at < token.size()) {
    if (token[at] != 'e' && token[at] != 'E') return {};
    ++at;
    if (at < token.size() && (token[at] == '-' || token[at] == '+')) ++at;
    const size_t exponent = digits(at);
    if (exponent == 0 || at + exponent != token.size()) return {};
  }
  std::string point(token);
  point[comma] = '.';
  return point;
}

std::string DecimalCommas::warning() const {
  if (count == 0) return {};
  return std::to_string(count) + " number(s) written with a decimal comma (first: line " + std::to_string(first_line) +
         ") were read as decimals";
}

bool BvhCursor::parse_number(std::string_view token, long line, double& out) {
  if (parse_finite_double(token, out)) return true;
  const std::string point = decimal_comma_as_point(token);
  if (point.empty() || !parse_finite_double(point, out)) return false;
  decimal_commas_.add(line);
  return true;
}

bool is_msvc_non_finite(std::string_view token) {
  if (!token.empty() && (token.front() == '-' || token.front() == '+')) token.remove_prefix(1);
  if (!starts_with_ignoring_case(token, "1.#")) return false;
  token.remove_prefix(3);
  for (std::string_view kind : {"QNAN", "SNAN", "IND", "INF"})
    if (starts_with_ignoring_case(token, kind)) {
      token.remove_prefix(kind.size());
      return token.find_first_not_of("0123456789") == std::string_view::npos;
    }
  return false;
}

std::string in_quotes(std::string_view s) {
  constexpr size_t k_max_bytes = 40;
  return "'" + printable(s, k_max_bytes) + "'";
}

BvhCursor::BvhCursor(std::string_view text, const std::string& source_name)
    : pos_(text.data()), end_(text.data() + text.size()), source_name_(source_name) {
  if (text.substr(0, k_utf8_bom.size()) == k_utf8_bom) pos_ += k_utf8_bom.size();
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

std::size_t find_ignoring_case(std::string_view text, std::string_view keyword, std::size_t from) {
  for (std::size_t at = from; at + keyword.size() <= text.size(); ++at)
    if (equal_ignoring_case(text.substr(at, keyword.size()), keyword)) return at;
  return std::string_view::npos;
}

std::string_view BvhCursor::next_token() {
  while (pos_ != end_ && is_space(*pos_)) {
    if (*pos_ == '\n') ++line_;
    ++pos_;
  }
  const char* start = pos_;
  while (pos_ != end_ && !is_space(*pos_)) ++pos_;
  return {start, static_cast<size_t>(pos_ - start)};
}

std::string_view BvhCursor::rest_of_line() {
  const char* start = pos_;
  while (pos_ != end_ && *pos_ != '\n') ++pos_;
  std::string_view line{start, static_cast<size_t>(pos_ - start)};
  if (pos_ != end_) {
    ++pos_;
    ++line_;
  }
  return trim(line);
}

std::string_view BvhCursor::rest_of_line_to_brace() {
  const char* start = pos_;
  for (const char* p = pos_; p != end_ && *p != '\n'; ++p)
    if (*p == '{' && (p == start || is_blank(p[-1]))) {
      pos_ = p;
      return trim({start, static_cast<size_t>(p - start)});
    }
  return rest_of_line();
}

std::string_view BvhCursor::next_line(int* line_number) {
  while (pos_ != end_) {
    int number = line_;
    std::string_view line = rest_of_line();
    if (!line.empty()) {
      if (line_number) *line_number = number;
      return line;
    }
  }
  if (line_number) *line_number = line_;
  return {};
}

void BvhCursor::fail(const std::string& message) const { fail_at(line_, message); }

void BvhCursor::fail_at(long line, const std::string& message) const {
  throw Error(ErrorKind::read, source_name_ + ":" + std::to_string(line) + ": " + message);
}

}  // namespace footfix::bvh_detail
