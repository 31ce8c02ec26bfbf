#include "control_escape.h"

#include <cstddef>
#include <cstdio>
#include <utility>

namespace footfix::cli {
namespace {

void append_hex_byte(std::string& out, unsigned char c) {
  static const char k_digits[] = "0123456789abcdef";
  out += "\\x";
  out += k_digits[c >> 4];
  out += k_digits[c & 15];
}

void append_codepoint_escape(std::string& out, unsigned cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\u%04x", cp);
  out += buf;
}

/// Length of the valid UTF-8 sequence at `s[i]` and its code point; 0 if invalid.
std::size_t decode_utf8(std::string_view s, size_t i, unsigned& cp) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  unsigned c = b(0);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  static const unsigned k_min[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < k_min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

/// Code points that change how the rest of a line is shown: line/paragraph separators and the
/// bidirectional overrides and isolates.
bool is_layout_control(unsigned cp) {
  return cp == 0x2028 || cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/// Unicode whitespace that .NET's String.TrimStart() removes (GitHub's runner trims a line with it
/// before it looks for "::"), among the characters escape_for_console leaves as they are.
bool is_unicode_space(unsigned cp) {
  return cp == ' ' || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x202F || cp == 0x205F ||
         cp == 0x3000;
}

/// Writes the second '#' of every "##" in `text` as `escaped_hash`.
std::string break_double_hashes(std::string text, std::string_view escaped_hash) {
  for (std::size_t at = 0; (at = text.find("##", at)) != std::string::npos; at += 1 + escaped_hash.size())
    text.replace(at + 1, 1, escaped_hash);
  return text;
}

/// Breaks the runners' log commands in already escaped text (see escape_for_console).
std::string break_ci_commands(std::string text) {
  std::size_t lead = 0;
  unsigned cp = 0;
  for (std::size_t n; lead < text.size() && (n = decode_utf8(text, lead, cp)) != 0 && is_unicode_space(cp);) lead += n;
  if (text.compare(lead, 2, "::") == 0) text.replace(lead, 1, "\\x3a");
  return break_double_hashes(std::move(text), "\\x23");
}

}  // namespace

std::string json_for_console(std::string json_text) { return break_double_hashes(std::move(json_text), "\\u0023"); }

std::string escape_for_console(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    unsigned cp = 0;
    size_t n = decode_utf8(text, i, cp);
    if (n == 0) {
      append_hex_byte(out, static_cast<unsigned char>(text[i]));
      ++i;
      continue;
    }
    if (cp == '\n') out += "\\n";
    else if (cp == '\r') out += "\\r";
    else if (cp == '\t') out += "\\t";
    else if (cp == 0x1B) out += "\\e";
    else if (cp < 0x20 || cp == 0x7F) append_hex_byte(out, static_cast<unsigned char>(cp));
    else if ((cp >= 0x80 && cp <= 0x9F) || is_layout_control(cp) || cp == 0xFFFE || cp == 0xFFFF)
      append_codepoint_escape(out, cp);  // U+FFFE and U+FFFF: not characters, and invalid in XML
    else out.append(text.substr(i, n));
    i += n;
  }
  return break_ci_commands(std::move(out));
}

}  // namespace footfix::cli
