#include "json_text.h"

namespace footfix {

int json_nesting_depth(std::string_view text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) return limit + 1;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

void refuse_deep_json(std::string_view text, const std::string& what, ErrorKind kind) {
  if (json_nesting_depth(text) > k_max_json_nesting)
    fail(kind, what + ": JSON nested deeper than " + std::to_string(k_max_json_nesting) + " levels");
}

}  // namespace footfix
