#include "footfix/lock/lock_json.h"

#include <nlohmann/json.hpp>

#include <cmath>

#include "contacts/contacts_json.h"

namespace footfix {

void write_lock_json(const Clip& clip, const Rig& rig, const LockClipResult& result, const RuntimeLockSettings& settings,
                     std::ostream& out) {
  using nlohmann::ordered_json;
  ordered_json doc;
  doc["format"] = k_lock_format;
  doc["version"] = k_lock_version;
  doc["generator"] = {{"name", "footfix"}, {"version", FOOTFIX_VERSION}};
  doc["settings"] = {{"lock_distance_m", settings.lock.lock_distance_m},
                     {"unlock_distance_m", settings.lock.unlock_distance_m},
                     {"blend_time_s", settings.lock.blend_time_s},
                     {"contacts", result.offline_contacts ? "offline" : "causal"},
                     {"onset_delay_frames", result.onset_delay_frames},
                     {"release_delay_frames", result.release_delay_frames}};
  doc["clip"] = clip_facts_json(clip);
  doc["warnings"] = result.warnings;
  ordered_json feet = ordered_json::array();
  for (int s = 0; s < 2; ++s) {
    const FootLockTrack& t = result.feet[s];
    ordered_json contact = ordered_json::array(), locked = ordered_json::array(), weight = ordered_json::array(),
                 points = ordered_json::array();
    for (size_t f = 0; f < t.locked.size(); ++f) {
      contact.push_back(static_cast<int>(t.contact[f]));
      locked.push_back(static_cast<int>(t.locked[f]));
      weight.push_back(std::round(t.blend_weight[f] * 1000) / 1000);
      const Vec3& p = t.contact_point_m[f];
      points.push_back(t.has_contact_point[f] ? ordered_json::array({p.x, p.y, p.z}) : ordered_json());
    }
    const int joint = rig.legs[s].contact_joint();
    ordered_json foot;
    foot["side"] = to_string(static_cast<Side>(s));
    foot["joint"] = joint >= 0 && joint < clip.joint_count() ? clip.skeleton.names[joint] : "";
    foot["contact"] = std::move(contact);
    foot["locked"] = std::move(locked);
    foot["blend_weight"] = std::move(weight);
    foot["contact_point_m"] = std::move(points);
    feet.push_back(std::move(foot));
  }
  doc["feet"] = std::move(feet);
  write_json_pretty(doc, out);
}

}  // namespace footfix
