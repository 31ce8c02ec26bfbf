#include "footfix/solve/clean_settings_json.h"

#include <nlohmann/json.hpp>

#include <climits>
#include <cstdint>

#include "footfix/core/error.h"
#include "footfix/core/text_location.h"
#include "footfix/io/atomic_file.h"

namespace footfix {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& where, const std::string& what) { fail(ErrorKind::usage, where + ": " + what); }

double number(const json& j, const char* key, double current, const std::string& where) {
  if (!j.contains(key)) return current;
  if (!j[key].is_number()) bad(where, std::string(key) + " must be a number");
  return j[key].get<double>();
}

void only_keys(const json& j, std::initializer_list<const char*> keys, const std::string& where) {
  if (!j.is_object()) bad(where, "must be a JSON object");
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (const char* k : keys) known = known || key == k;
    if (!known) bad(where, "unknown key '" + key + "'");
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
  only_keys(j, {"contacts", "solve", "ik"}, where);
  CleanSettings s;
  if (j.contains("contacts")) s.contacts = contact_settings_from_json(j["contacts"], s.contacts, where + ": contacts");
  if (j.contains("solve")) {
    const json& v = j["solve"];
    std::string w = where + ": solve";
    only_keys(v, {"solver", "reference_iterations", "soft_factor", "hard_factor"}, w);
    if (v.contains("solver")) {
      if (!v["solver"].is_string()) bad(w, "solver must be a string");
      s.solve.solver = parse_offline_solver(v["solver"].get<std::string>());
    }
    if (v.contains("reference_iterations")) {
      const json& n = v["reference_iterations"];
      // get<int> would wrap 4294967297 to 1: range-check the 64-bit value first.
      if (!n.is_number_integer() || (n.is_number_unsigned() && n.get<std::uint64_t>() > INT_MAX) ||
          (!n.is_number_unsigned() && (n.get<std::int64_t>() > INT_MAX || n.get<std::int64_t>() < INT_MIN)))
        bad(w, "reference_iterations must be an integer (at most 2147483647)");
      s.solve.reference_iterations = n.get<int>();
    }
    s.solve.soft_factor = number(v, "soft_factor", s.solve.soft_factor, w);
    s.solve.hard_factor = number(v, "hard_factor", s.solve.hard_factor, w);
  }
  if (j.contains("ik")) {
    std::string w = where + ": ik";
    only_keys(j["ik"], {"softness_m"}, w);
    s.ik.softness_m = number(j["ik"], "softness_m", s.ik.softness_m, w);
  }
  s.validate();
  return s;
}

CleanSettings clean_settings_from_json_file(const std::string& path) {
  const std::string text = read_file(path);
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
            {"hard_factor", s.solve.hard_factor}}},
          {"ik", {{"softness_m", s.ik.softness_m}}}};
}

}  // namespace footfix
