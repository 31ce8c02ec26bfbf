#include <nlohmann/json.hpp>

#include <algorithm>

#include "footfix/core/error.h"
#include "footfix/core/read_file.h"
#include "footfix/rig/leg_rig.h"
#include "../core/json_text.h"

namespace footfix {
namespace {

using nlohmann::json;

[[noreturn]] void profile_error(const std::string& path, const std::string& what) {
  fail(ErrorKind::read, path + ": rig profile: " + what);
}

std::string string_field(const json& obj, const char* key, const std::string& path, const std::string& where) {
  if (!obj.contains(key)) return {};
  if (!obj[key].is_string()) profile_error(path, where + key + " must be a string");
  return obj[key].get<std::string>();
}

void check_keys(const json& obj, std::initializer_list<const char*> allowed, const std::string& path,
                const std::string& where) {
  for (const auto& [key, value] : obj.items()) {
    bool known = false;
    for (const char* a : allowed) known = known || key == a;
    if (!known) profile_error(path, "unknown key '" + where + key + "'");
  }
}

RigProfile::Leg parse_leg(const json& obj, const std::string& path, const std::string& where) {
  if (!obj.is_object()) profile_error(path, where + " must be an object");
  check_keys(obj, {"hip", "knee", "heel", "toe", "toe_end", "knee_side_axis"}, path, where + ".");
  RigProfile::Leg leg;
  leg.hip = string_field(obj, "hip", path, where + ".");
  leg.knee = string_field(obj, "knee", path, where + ".");
  leg.heel = string_field(obj, "heel", path, where + ".");
  leg.toe = string_field(obj, "toe", path, where + ".");
  leg.toe_end = string_field(obj, "toe_end", path, where + ".");
  if (obj.contains("knee_side_axis")) {
    const json& a = obj["knee_side_axis"];
    if (!a.is_array() || a.size() != 3 || !a[0].is_number() || !a[1].is_number() || !a[2].is_number())
      profile_error(path, where + ".knee_side_axis must be an array of 3 numbers");
    Vec3 v{a[0].get<double>(), a[1].get<double>(), a[2].get<double>()};
    if (!is_finite(v) || length(v) < 1e-9) profile_error(path, where + ".knee_side_axis must be a non-zero vector");
    leg.knee_side_ls = v;
  }
  return leg;
}

}  // namespace

RigProfile read_rig_profile(const std::string& path) { return parse_rig_profile(read_file(path), path); }

RigProfile parse_rig_profile(const std::string& text, const std::string& path) {
  refuse_deep_json(text, path, ErrorKind::usage);
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    // Located by line: e.byte is 1-based, the offset just past the offending character.
    const size_t end = std::min<size_t>(e.byte, text.size());
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(end), '\n');
    std::string why = e.what();
    why = why.substr(why.find("] ") == std::string::npos ? 0 : why.find("] ") + 2);
    fail(ErrorKind::read, path + ":" + std::to_string(line) + ": rig profile: not valid JSON (" + why + ")");
  } catch (const json::exception& e) {  // a number beyond double range (out_of_range.406)
    fail(ErrorKind::read, path + ": rig profile: not valid JSON (" + e.what() + ")");
  }
  if (!doc.is_object()) profile_error(path, "top level must be an object");
  check_keys(doc, {"pelvis", "translation_joint", "left", "right", "meters_per_unit", "up"}, path, "");
  RigProfile p;
  p.pelvis = string_field(doc, "pelvis", path, "");
  p.translation_joint = string_field(doc, "translation_joint", path, "");
  if (doc.contains("left")) p.legs[0] = parse_leg(doc["left"], path, "left");
  if (doc.contains("right")) p.legs[1] = parse_leg(doc["right"], path, "right");
  if (doc.contains("meters_per_unit")) {
    if (!doc["meters_per_unit"].is_number() || !(doc["meters_per_unit"].get<double>() > 0))
      profile_error(path, "meters_per_unit must be a positive number");
    p.meters_per_unit = doc["meters_per_unit"].get<double>();
  }
  if (doc.contains("up")) {
    Axis a;
    if (!doc["up"].is_string() || !parse_axis(doc["up"].get<std::string>(), a))
      profile_error(path, "up must be one of x, y, z, -x, -y, -z");
    p.up = a;
  }
  return p;
}

}  // namespace footfix
