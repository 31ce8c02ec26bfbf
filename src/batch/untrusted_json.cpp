#include "batch/untrusted_json.h"

#include "../core/json_text.h"
#include "footfix/core/text_location.h"

namespace footfix {

nlohmann::json parse_untrusted_json(std::string_view text, const std::string& what, ErrorKind kind) {
  refuse_deep_json(text, what, kind);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {  // e.byte: 1-based, one past the text at its end
    fail(kind, what + ": not valid JSON at " + text_location(text, e.byte > 0 ? e.byte - 1 : 0));
  } catch (const nlohmann::json::exception&) {  // a number beyond double range (out_of_range.406)
    fail(kind, what + ": not valid JSON (a number out of range)");
  }
}

}  // namespace footfix
