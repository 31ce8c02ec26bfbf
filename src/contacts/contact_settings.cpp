#include "footfix/contacts/contact_settings.h"
#include "footfix/contacts/contact_settings_json.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <sstream>

#include "footfix/core/error.h"

namespace footfix {
namespace {

using S = ContactSettings;

const std::array<ContactSettingField, 13> k_fields{{
    {"speed_threshold_mps", "contact joint speed below which a foot is still (m/s)", &S::speed_threshold_mps},
    {"body_speed_fraction", "tolerated foot speed along the body's travel, as a fraction of the pelvis horizontal speed (0 = off)",
     &S::body_speed_fraction},
    {"body_speed_window_s", "averaging window of the pelvis speed (s)", &S::body_speed_window_s},
    {"ground_velocity_window_s", "window of the ground velocity estimate (s); 0 = the ground stands still",
     &S::ground_velocity_window_s},
    {"height_threshold_m", "max height of the contact joint above the ground under it (m)", &S::height_threshold_m},
    {"ground_window_s", "window of the local ground estimate (s); 0 = one flat floor", &S::ground_window_s},
    {"majority_window_s", "majority-vote filter window (s)", &S::majority_window_s},
    {"smoothing_sigma_s", "Gaussian smoothing sigma (s)", &S::smoothing_sigma_s},
    {"contact_threshold", "smoothed value a contact must reach (0..1]", &S::contact_threshold},
    {"release_threshold", "smoothed value a contact extends over (0..contact_threshold]", &S::release_threshold},
    {"upsample_low_fps", "cubic upsampling of low frame rate clips before detection", nullptr, &S::upsample_low_fps},
    {"upsample_max_fps", "clips at or below this rate are upsampled (Hz)", &S::upsample_max_fps},
    {"upsample_target_fps", "rate upsampled clips reach at least (Hz)", &S::upsample_target_fps},
}};

[[noreturn]] void bad_value(const char* key, const char* rule, double value) {
  std::ostringstream message;
  message << "contacts: " << key << " must be " << rule << ", got " << value;
  fail(ErrorKind::usage, message.str());
}

void require(bool ok, const char* key, const char* rule, double value) {
  if (!ok || !std::isfinite(value)) bad_value(key, rule, value);
}

}  // namespace

std::span<const ContactSettingField> contact_setting_fields() {
  return k_fields;
}

void ContactSettings::validate() const {
  require(speed_threshold_mps > 0, "speed_threshold_mps", "> 0", speed_threshold_mps);
  require(body_speed_fraction >= 0, "body_speed_fraction", ">= 0", body_speed_fraction);
  require(body_speed_window_s > 0, "body_speed_window_s", "> 0", body_speed_window_s);
  require(ground_velocity_window_s >= 0, "ground_velocity_window_s", ">= 0 (0 = off)", ground_velocity_window_s);
  require(height_threshold_m > 0, "height_threshold_m", "> 0", height_threshold_m);
  require(ground_window_s >= 0, "ground_window_s", ">= 0 (0 = flat floor)", ground_window_s);
  require(majority_window_s > 0, "majority_window_s", "> 0", majority_window_s);
  require(smoothing_sigma_s > 0, "smoothing_sigma_s", "> 0", smoothing_sigma_s);
  require(contact_threshold > 0 && contact_threshold <= 1, "contact_threshold", "in (0, 1]", contact_threshold);
  require(release_threshold > 0 && release_threshold <= contact_threshold, "release_threshold",
          "in (0, contact_threshold]", release_threshold);
  require(upsample_max_fps > 0, "upsample_max_fps", "> 0", upsample_max_fps);
  require(upsample_target_fps > 0, "upsample_target_fps", "> 0", upsample_target_fps);
}

ContactSettings contact_settings_from_json(const nlohmann::json& j, const ContactSettings& base,
                                           const std::string& where) {
  if (!j.is_object()) fail(ErrorKind::usage, where + ": contact settings must be a JSON object");
  ContactSettings s = base;
  for (const auto& [key, value] : j.items()) {
    const ContactSettingField* field = nullptr;
    for (const auto& f : contact_setting_fields())
      if (key == f.key) field = &f;
    if (!field) fail(ErrorKind::usage, where + ": unknown contact setting '" + key + "'");
    if (field->flag) {
      if (!value.is_boolean()) fail(ErrorKind::usage, where + ": '" + key + "' must be true or false");
      s.*(field->flag) = value.get<bool>();
    } else {
      if (!value.is_number()) fail(ErrorKind::usage, where + ": '" + key + "' must be a number");
      s.*(field->number) = value.get<double>();
    }
  }
  try {
    s.validate();
  } catch (const Error& e) {
    fail(ErrorKind::usage, where + ": " + e.what());
  }
  return s;
}

nlohmann::ordered_json contact_settings_to_json(const ContactSettings& settings) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& f : contact_setting_fields()) {
    if (f.flag)
      j[f.key] = settings.*(f.flag);
    else
      j[f.key] = settings.*(f.number);
  }
  return j;
}

}  // namespace footfix
