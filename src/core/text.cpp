#include "footfix/core/text.h"

#include <cstdint>

namespace footfix {
namespace {

/// Length of the valid UTF-8 sequence at s[i] (1..4), or 0 if the byte there starts none.
/// Overlong forms, surrogates and code points above U+10FFFF are invalid.
std::size_t utf8_sequence(std::string_view s, std::size_t i, std::uint32_t& code_point) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) {
    code_point = b0;
    return 1;
  }
  std::size_t n = 0;
  std::uint32_t cp = 0, min = 0;
  if ((b0 & 0xE0) == 0xC0) n = 2, cp = b0 & 0x1Fu, min = 0x80;
  else if ((b0 & 0xF0) == 0xE0) n = 3, cp = b0 & 0x0Fu, min = 0x800;
  else if ((b0 & 0xF8) == 0xF0) n = 4, cp = b0 & 0x07u, min = 0x10000;
  else return 0;
  if (s.size() - i < n) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  code_point = cp;
  return n;
}

void append_hex(std::string& out, unsigned char c) {
  constexpr const char* k_digits = "0123456789abcdef";
  out += "\\x";
  out += k_digits[c >> 4];
  out += k_digits[c & 15];
}

}  // namespace

std::string printable(std::string_view s, std::size_t max_bytes) {
  const bool cut = s.size() > max_bytes;
  if (cut) s = s.substr(0, max_bytes);
  std::string out;
  out.reserve(s.size() + 3);
  for (std::size_t i = 0; i < s.size();) {
    std::uint32_t cp = 0;
    std::size_t n = utf8_sequence(s, i, cp);
    const bool control = n == 0 || cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F);
    if (control) {
      for (std::size_t k = 0; k < (n == 0 ? 1 : n); ++k) append_hex(out, static_cast<unsigned char>(s[i + k]));
      i += n == 0 ? 1 : n;
      continue;
    }
    if (cp == '\\') out += '\\';
    out.append(s.substr(i, n));
    i += n;
  }
  if (cut) out += "...";
  return out;
}

}  // namespace footfix
