// Joint-limits profile JSON (schemas/joint_limits.schema.json).
#include <nlohmann/json.hpp>

#include <string>

#include "footfix/core/error.h"
#include "footfix/core/read_file.h"
#include "walk_json_util.h"
#include "footfix/walk/joint_limits.h"

namespace footfix {
namespace {

using nlohmann::json;
using walk_json::bad;

AngleRange parse_range(const json& j, const std::string& name, const std::string& where) {
  if (!j.is_array() || j.size() != 2 || !j[0].is_number() || !j[1].is_number())
    bad(name, where, "expected [min, max] in degrees, got " + j.dump());
  const double lo = j[0].get<double>(), hi = j[1].get<double>();
  if (!std::isfinite(lo) || !std::isfinite(hi) || lo < -180 || hi > 180)
    bad(name, where, "angles must lie in [-180, 180] degrees, got " + j.dump());
  if (lo > hi) bad(name, where, "min " + j[0].dump() + " is greater than max " + j[1].dump());
  return {lo * k_deg_to_rad, hi * k_deg_to_rad};
}

void parse_joint(const json& j, JointLimit& limit, const std::string& name, const std::string& joint) {
  if (!j.is_object()) bad(name, joint, "expected an object, got " + j.dump());
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string where = joint + "." + it.key();
    if (it.key() == "twist_deg") limit.twist = parse_range(it.value(), name, where);
    else if (it.key() == "swing_x_deg") limit.swing_x = parse_range(it.value(), name, where);
    else if (it.key() == "swing_z_deg") limit.swing_z = parse_range(it.value(), name, where);
    else bad(name, where, "unknown key (expected twist_deg, swing_x_deg, swing_z_deg)");
  }
  if (!limit.twist.contains(0) || !limit.swing_x.contains(0) || !limit.swing_z.contains(0))
    bad(name, joint, "every range must contain 0 (the rest pose)");
}

}  // namespace

LegLimits parse_leg_limits(const std::string& text, const std::string& name, const LegLimits& defaults) {
  const json j = walk_json::parse_object(text, name);
  LegLimits limits = defaults;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    if (key == "format") {
      if (it.value() != "footfix-joint-limits") bad(name, key, "expected \"footfix-joint-limits\"");
      continue;
    }
    int found = -1;
    for (int i = 0; i < k_leg_joint_count; ++i)
      if (key == to_string(static_cast<LegJoint>(i))) found = i;
    if (found < 0) bad(name, key, "unknown key (expected format, hip, knee, ankle, toe)");
    parse_joint(it.value(), limits.joints[found], name, key);
  }
  return limits;
}

LegLimits read_leg_limits(const std::string& path) { return parse_leg_limits(read_file(path), path); }

}  // namespace footfix
