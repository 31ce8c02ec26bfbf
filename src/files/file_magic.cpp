#include "file_magic.h"

#include <algorithm>
#include <array>
#include <utility>

namespace footfix::io_detail {
namespace {

constexpr std::size_t k_sniff_bytes = 4096;

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

}  // namespace

std::string_view foreign_format(std::string_view bytes) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 14> k_magics{{
      {"Kaydara FBX Binary", "a binary FBX file"},
      {"; FBX", "an ASCII FBX file"},
      {"glTF", "a binary glTF file"},
      {"PK\x03\x04", "a ZIP archive"},
      {"\x1f\x8b", "gzip data"},
      {"\xff\xfe", "UTF-16 text"},
      {"\xfe\xff", "UTF-16 text"},
      {"\x7f" "ELF", "an executable"},
      {"%PDF", "a PDF document"},
      {"\x89PNG", "a PNG image"},
      {"\xff\xd8\xff", "a JPEG image"},
      {"BZh", "bzip2 data"},
      {"\xfd" "7zXZ", "xz data"},
      {"7z\xbc\xaf", "a 7-Zip archive"},
  }};
  for (const auto& [magic, name] : k_magics)
    if (starts_with(bytes, magic)) return name;
  std::string_view head = bytes.substr(0, k_sniff_bytes);
  std::size_t first = head.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && (head[first] == '{' || head[first] == '['))
    return "JSON text (a glTF file?)";
  // UTF-16 without a byte-order mark: every other byte is NUL.
  if (head.size() >= 4 && head[1] == '\0' && head[3] == '\0' && head[0] != '\0') return "UTF-16 text";
  const auto control = std::count_if(head.begin(), head.end(), [](char c) {
    unsigned char u = static_cast<unsigned char>(c);
    return u == 0 || (u < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v');
  });
  if (control > 0) return "binary data";
  return {};
}

std::string not_a(std::string_view what, std::string_view bytes) {
  std::string message = "not " + std::string(what);
  std::string_view found = foreign_format(bytes);
  if (!found.empty()) message += " (" + std::string(found) + ")";
  return message;
}

}  // namespace footfix::io_detail
