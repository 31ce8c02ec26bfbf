// walk.terrain.json: the terrain and the footsteps of a generated walk.
#include <nlohmann/json.hpp>

#include <cmath>

#include "../core/json_text.h"
#include "footfix/walk/walk.h"

namespace footfix {
namespace {

double round_to(double v, double unit) { return std::round(v / unit) * unit; }

nlohmann::ordered_json vec(Vec3 v) { return {round_to(v.x, 1e-6), round_to(v.y, 1e-6), round_to(v.z, 1e-6)}; }

}  // namespace

std::string walk_terrain_json(const WalkResult& walk, const WalkSettings& settings) {
  nlohmann::ordered_json j;
  j["format"] = "footfix-walk-terrain";
  j["version"] = 1;
  j["terrain"] = nlohmann::ordered_json::parse(terrain_to_json_text(walk.terrain));
  const GaitSettings& g = settings.gait;
  j["gait"] = {{"path", to_string(g.path)},        {"speed_mps", g.speed_mps},
               {"duration_s", g.duration_s},       {"fps", settings.fps},
               {"seed", g.seed},                   {"step_period_s", round_to(walk.plan.step_period_s, 1e-6)},
               {"step_length_m", round_to(walk.plan.step_length_m, 1e-6)}};
  nlohmann::ordered_json steps = nlohmann::ordered_json::array();
  for (const Footstep& s : walk.plan.steps) {
    nlohmann::ordered_json o;
    o["index"] = s.index;
    o["side"] = to_string(s.side);
    o["state"] = to_string(s.state);
    o["phase"] = s.phase;
    const bool initial = s.state == GaitState::idle;
    o["lift_s"] = initial ? nlohmann::ordered_json() : nlohmann::ordered_json(round_to(s.lift_s, 1e-6));
    o["heel_rise_s"] = initial ? nlohmann::ordered_json() : nlohmann::ordered_json(round_to(s.roll_begin_s, 1e-6));
    o["heel_strike_s"] = initial ? nlohmann::ordered_json() : nlohmann::ordered_json(round_to(s.heel_strike_s, 1e-6));
    o["plant_s"] = initial ? nlohmann::ordered_json(0.0) : nlohmann::ordered_json(round_to(s.plant_s, 1e-6));
    o["toe_position_m"] = vec(s.toe_m);
    o["heel_sole_m"] = vec(s.heel_sole_m);
    o["ball_sole_m"] = vec(s.ball_sole_m);
    o["tip_sole_m"] = vec(s.tip_sole_m);
    o["yaw_deg"] = round_to(s.yaw_rad * k_rad_to_deg, 1e-4);
    o["pitch_deg"] = round_to(s.pitch_rad * k_rad_to_deg, 1e-4);
    o["roll_deg"] = round_to(s.roll_rad * k_rad_to_deg, 1e-4);
    if (walk.terrain.kind == TerrainKind::stairs) o["tread"] = s.tread;
    o["lift_m"] = round_to(s.lift_m, 1e-6);
    steps.push_back(o);
  }
  j["footsteps"] = steps;
  return json_text(j, 1);
}

}  // namespace footfix
