// Located errors for the walk's JSON inputs (terrain, joint limits): "<file>: <json path>: what".
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "footfix/core/error.h"
#include "../core/json_text.h"

namespace footfix::walk_json {

[[noreturn]] inline void bad(const std::string& name, const std::string& where, const std::string& what) {
  fail(ErrorKind::usage, name + ": " + where + ": " + what);
}

/// Parses `text` as one JSON object; malformed JSON or another type is an Error(usage) naming
/// `name` and the byte offset.
inline nlohmann::json parse_object(const std::string& text, const std::string& name) {
  refuse_deep_json(text, name, ErrorKind::usage);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    fail(ErrorKind::usage, name + ": byte " + std::to_string(e.byte) + ": malformed JSON: " + e.what());
  }
  if (!j.is_object()) bad(name, "(top level)", "expected an object");
  return j;
}

}  // namespace footfix::walk_json
