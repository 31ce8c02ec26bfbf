#include "json_text.h"

#include "footfix/core/text_location.h"

namespace footfix {

int json_nesting_depth(std::string_view text, int limit, size_t* past_limit_at) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
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
      if (deepest > limit) {
        if (past_limit_at) *past_limit_at = i;
        return limit + 1;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

void refuse_deep_json(std::string_view text, const std::string& what, ErrorKind kind) {
  size_t at = 0;
  if (json_nesting_depth(text, k_max_json_nesting, &at) > k_max_json_nesting)
    fail(kind, what + ": JSON nested deeper than " + std::to_string(k_max_json_nesting) + " levels at " +
                   text_location(text, at));
}

}  // namespace footfix
