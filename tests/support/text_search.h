// Substring checks shared by the tests that read outputs as text (console, reports, pages).
#pragma once

#include <cstddef>
#include <string>

namespace footfix::test {

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// Non-overlapping occurrences of `part` in `text` (`part` not empty).
inline std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

}  // namespace footfix::test
