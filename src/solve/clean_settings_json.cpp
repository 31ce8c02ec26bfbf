#include "solve/clean_settings_json.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <sstream>
#include <string>

#include "../core/nearest_name.h"
#include "footfix/core/error.h"
#include "footfix/core/text_location.h"
#include "footfix/core/read_file.h"
#include "../core/json_text.h"

namespace footfix {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& where, const std::string& what) { fail(ErrorKind::usage, where + ": " + what); }

// Ranges of the solve and IK settings (documented in clean_settings_json.h). The upper factor
// bounds keep the fast solver's weights k / (1 - k) finite and its banded system well
// conditioned (hard_factor = 1 gives a condition number around 1e17); the iteration bound keeps
// the reference solver's run time (iterations x frames) within minutes.
struct Range {
  double min, max;
};
constexpr Range k_soft_factor{0.005, 0.45};
constexpr Range k_hard_factor{0.05, 0.99};
constexpr Range k_softness_m{0.0005, 0.05};
constexpr Range k_max_foot_pitch_deg{0, 60};
constexpr Range k_pelvis_height{0, 100};
constexpr Range k_swing_blend_s{0, 1};
constexpr Range k_short_swing_s{0, 1};
constexpr Range k_max_pop_ratio{1.05, 100};  // or 0: off
constexpr std::int64_t k_max_reference_iterations = 100000;

std::string range_text(Range r) {
  std::ostringstream text;
  text << "in [" << r.min << ", " << r.max << "]";
  return text.str();
}

double number(const json& j, const char* key, double current, Range range, const std::string& where) {
  if (!j.contains(key)) return current;
  const std::string rule = std::string(key) + " must be a number " + range_text(range);
  if (!j[key].is_number()) bad(where, rule);
  const double value = j[key].get<double>();
  if (!(value >= range.min && value <= range.max)) {  // NaN fails both comparisons
    std::ostringstream got;
    got << ", got " << value;
    bad(where, rule + got.str());
  }
  return value;
}

int iterations(const json& n, const std::string& where) {
  const std::string rule =
      "reference_iterations must be an integer in [1, " + std::to_string(k_max_reference_iterations) + "]";
  // get<int> would wrap 4294967297 to 1: range-check the 64-bit value first.
  if (!n.is_number_integer()) bad(where, rule);
  const bool in_range = n.is_number_unsigned()
                            ? n.get<std::uint64_t>() >= 1 &&
                                  n.get<std::uint64_t>() <= static_cast<std::uint64_t>(k_max_reference_iterations)
                            : n.get<std::int64_t>() >= 1 && n.get<std::int64_t>() <= k_max_reference_iterations;
  if (!in_range)
    bad(where, rule + ", got " + n.dump());
  return static_cast<int>(n.get<std::int64_t>());
}

void only_keys(const json& j, std::initializer_list<const char*> keys, const std::string& where) {
  if (!j.is_object()) bad(where, "must be a JSON object");
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (const char* k : keys) known = known || key == k;
    if (!known) bad(where, "unknown key '" + key + "'" + did_you_mean(key, std::vector<std::string>(keys.begin(), keys.end())));
  }
}

}  // namespace

OfflineSolver parse_offline_solver(const std::string& name) {
  if (name == "fast") return OfflineSolver::fast;
  if (name == "reference") return OfflineSolver::reference;
  fail(ErrorKind::usage, "solver must be 'fast' or 'reference', got '" + name + "'");
}

const char* to_string(OfflineSolver solver) { return solver == OfflineSolver::fast ? "fast" : "reference"; }

CleanSettings clean_settings_from_json(const json& j, const std::string& where) {
  only_keys(j, {"contacts", "solve", "ik", "pops"}, where);
  CleanSettings s;
  if (j.contains("contacts")) s.contacts = contact_settings_from_json(j["contacts"], s.contacts, where);
  if (j.contains("solve")) {
    const json& v = j["solve"];
    std::string w = where + ": solve";
    only_keys(v, {"solver", "reference_iterations", "soft_factor", "hard_factor", "reach_limit", "swing_blend_s",
                   "short_swing_s", "pelvis_height"}, w);
    if (v.contains("solver")) {
      if (!v["solver"].is_string()) bad(w, "solver must be a string");
      s.solve.solver = parse_offline_solver(v["solver"].get<std::string>());
    }
    if (v.contains("reference_iterations")) s.solve.reference_iterations = iterations(v["reference_iterations"], w);
    s.solve.soft_factor = number(v, "soft_factor", s.solve.soft_factor, k_soft_factor, w);
    s.solve.hard_factor = number(v, "hard_factor", s.solve.hard_factor, k_hard_factor, w);
    if (v.contains("reach_limit")) {
      if (!v["reach_limit"].is_boolean()) bad(w, "reach_limit must be true or false");
      if (v["reach_limit"].get<bool>()) use_reach_limit(s.solve);
    }
    // After reach_limit (which turns the blend off): a value given here wins.
    s.solve.swing_blend_s = number(v, "swing_blend_s", s.solve.swing_blend_s, k_swing_blend_s, w);
    s.solve.fast_short_swing_s = number(v, "short_swing_s", s.solve.fast_short_swing_s, k_short_swing_s, w);
    s.solve.fast_pelvis_height = number(v, "pelvis_height", s.solve.fast_pelvis_height, k_pelvis_height, w);
  }
  if (j.contains("ik")) {
    std::string w = where + ": ik";
    only_keys(j["ik"], {"softness_m", "max_foot_pitch_deg"}, w);
    s.ik.softness_m = number(j["ik"], "softness_m", s.ik.softness_m, k_softness_m, w);
    s.ik.max_foot_pitch_deg = number(j["ik"], "max_foot_pitch_deg", s.ik.max_foot_pitch_deg, k_max_foot_pitch_deg, w);
  }
  if (j.contains("pops")) {
    std::string w = where + ": pops";
    only_keys(j["pops"], {"max_ratio"}, w);
    const json& v = j["pops"];
    const bool off = v.contains("max_ratio") && v["max_ratio"].is_number() && v["max_ratio"].get<double>() == 0;
    s.pops.max_ratio = off ? 0 : number(v, "max_ratio", s.pops.max_ratio, k_max_pop_ratio, w);
  }
  s.validate();
  return s;
}

CleanSettings clean_settings_from_json_file(const std::string& path) {
  const std::string text = read_file(path);
  refuse_deep_json(text, path, ErrorKind::usage);
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    // e.byte counts the bytes read, the offending one included.
    fail(ErrorKind::usage, path + ": not valid JSON at " + text_location(text, e.byte > 0 ? e.byte - 1 : 0));
  }
  return clean_settings_from_json(j, path);
}

json clean_settings_to_json(const CleanSettings& s) {
  return {{"contacts", contact_settings_to_json(s.contacts)},
          {"solve",
           {{"solver", to_string(s.solve.solver)},
            {"reference_iterations", s.solve.reference_iterations},
            {"soft_factor", s.solve.soft_factor},
            {"hard_factor", s.solve.hard_factor},
            {"reach_limit", s.solve.fast_reach_weight > 0},
            {"swing_blend_s", s.solve.swing_blend_s},
            {"short_swing_s", s.solve.fast_short_swing_s},
            {"pelvis_height", s.solve.fast_pelvis_height}}},
          {"ik", {{"softness_m", s.ik.softness_m}, {"max_foot_pitch_deg", s.ik.max_foot_pitch_deg}}},
          {"pops", {{"max_ratio", s.pops.max_ratio}}}};
}

}  // namespace footfix
