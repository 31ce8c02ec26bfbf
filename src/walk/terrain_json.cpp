// Terrain descriptions: short names and JSON (schemas/terrain.schema.json).
#include <nlohmann/json.hpp>

#include <charconv>
#include <filesystem>
#include <string>
#include <vector>

#include "footfix/core/error.h"
#include "footfix/core/read_file.h"
#include "walk_json_util.h"
#include "footfix/walk/terrain.h"

namespace footfix {
namespace {

using nlohmann::json;
using walk_json::bad;

double number(const json& j, const std::string& name, const std::string& key) {
  if (!j.is_number()) bad(name, key, "expected a number, got " + j.dump());
  return j.get<double>();
}

bool parse_kind(const std::string& s, TerrainKind& out) {
  for (TerrainKind k : {TerrainKind::flat, TerrainKind::slope, TerrainKind::hills, TerrainKind::stairs})
    if (s == to_string(k)) {
      out = k;
      return true;
    }
  return false;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts(1);
  for (char c : s) {
    if (c == sep) parts.emplace_back();
    else parts.back() += c;
  }
  return parts;
}

double parse_number(const std::string& text, const std::string& spec) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    fail(ErrorKind::usage, "--terrain " + spec + ": '" + text + "' is not a number");
  return v;
}

}  // namespace

Terrain parse_terrain_json(const std::string& text, const std::string& name) {
  const json whole = walk_json::parse_object(text, name);
  // A walk's terrain file: its "terrain" object.
  const bool walk_file = whole.contains("format") && whole.at("format") == "footfix-walk-terrain";
  if (walk_file && !(whole.contains("terrain") && whole.at("terrain").is_object()))
    bad(name, "terrain", "missing (a footfix-walk-terrain file holds its terrain there)");
  const json& j = walk_file ? whole.at("terrain") : whole;
  Terrain t;
  if (!j.contains("kind")) bad(name, "kind", "missing (flat, slope, hills or stairs)");
  if (!j.at("kind").is_string() || !parse_kind(j.at("kind").get<std::string>(), t.kind))
    bad(name, "kind", "expected flat, slope, hills or stairs, got " + j.at("kind").dump());
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    const json& v = it.value();
    if (key == "kind") continue;
    if (key == "format") {
      if (v != "footfix-terrain") bad(name, key, "expected \"footfix-terrain\"");
    } else if (key == "base_height_m") {
      t.base_height_m = number(v, name, key);
    } else if (key == "slope_deg" && t.kind == TerrainKind::slope) {
      t.slope_deg = number(v, name, key);
    } else if (key == "amplitude_m" && t.kind == TerrainKind::hills) {
      t.hill_amplitude_m = number(v, name, key);
    } else if (key == "wavelength_m" && t.kind == TerrainKind::hills) {
      t.hill_wavelength_m = number(v, name, key);
    } else if (key == "rise_m" && t.kind == TerrainKind::stairs) {
      t.stair_rise_m = number(v, name, key);
    } else if (key == "run_m" && t.kind == TerrainKind::stairs) {
      t.stair_run_m = number(v, name, key);
    } else if (key == "start_z_m" && t.kind == TerrainKind::stairs) {
      t.stair_start_z_m = number(v, name, key);
    } else if (key == "count" && t.kind == TerrainKind::stairs) {
      if (!v.is_number_integer()) bad(name, key, "expected an integer, got " + v.dump());
      t.stair_count = v.get<int>();
    } else {
      bad(name, key, std::string("unknown key for a ") + to_string(t.kind) + " terrain");
    }
  }
  t.validate(name);
  return t;
}

Terrain parse_terrain_spec(const std::string& spec) {
  std::vector<std::string> parts = split(spec, ':');
  Terrain t;
  // "stairs-down": the stairs with their rise negated, so the walk heading +Z goes down them.
  const bool down = parts[0] == "stairs-down";
  if (down) parts[0] = to_string(TerrainKind::stairs);
  if (parse_kind(parts[0], t.kind)) {
    const size_t params = parts.size() - 1;
    const bool ok = params == 0 || (t.kind == TerrainKind::slope && params == 1) ||
                    (t.kind == TerrainKind::stairs && params == 2);
    if (!ok)
      fail(ErrorKind::usage, "--terrain " + spec +
                                 ": expected flat, slope:DEG, hills, stairs, stairs:RISE:RUN, stairs-down or "
                                 "stairs-down:RISE:RUN");
    if (t.kind == TerrainKind::slope) t.slope_deg = params == 1 ? parse_number(parts[1], spec) : 10.0;
    if (t.kind == TerrainKind::stairs && params == 2) {
      t.stair_rise_m = parse_number(parts[1], spec);
      t.stair_run_m = parse_number(parts[2], spec);
      if (t.stair_rise_m < 0)
        fail(ErrorKind::usage, "--terrain " + spec + ": RISE is the step height, >= 0 (stairs-down goes down)");
    }
    if (down) t.stair_rise_m = -t.stair_rise_m;
    t.validate("--terrain " + spec);
    return t;
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(spec, ec))
    fail(ErrorKind::usage, "--terrain " + spec + ": neither flat, slope:DEG, hills, stairs, stairs-down nor a JSON file");
  return parse_terrain_json(read_file(spec), spec);
}

std::string terrain_to_json_text(const Terrain& t) {
  nlohmann::ordered_json j;
  j["format"] = "footfix-terrain";
  j["kind"] = to_string(t.kind);
  j["base_height_m"] = t.base_height_m;
  switch (t.kind) {
    case TerrainKind::flat: break;
    case TerrainKind::slope: j["slope_deg"] = t.slope_deg; break;
    case TerrainKind::hills:
      j["amplitude_m"] = t.hill_amplitude_m;
      j["wavelength_m"] = t.hill_wavelength_m;
      break;
    case TerrainKind::stairs:
      j["rise_m"] = t.stair_rise_m;
      j["run_m"] = t.stair_run_m;
      j["start_z_m"] = t.stair_start_z_m;
      j["count"] = t.stair_count;
      break;
  }
  return j.dump();
}

}  // namespace footfix
