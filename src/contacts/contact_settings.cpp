#include "footfix/contacts/contact_settings.h"
#include "contacts/contact_settings_json.h"

#include <nlohmann/json.hpp>

#include <array>
#include <sstream>
#include <string>

#include "../core/nearest_name.h"
#include "footfix/core/error.h"

namespace footfix {
namespace {

using S = ContactSettings;

constexpr bool k_exclusive = true;

const std::array<ContactSettingField, 15> k_fields{{
    {"speed_threshold_mps", "contact joint speed below which a foot is still (m/s)", &S::speed_threshold_mps, nullptr,
     0.01, 5},
    {"body_speed_fraction", "tolerated foot speed along the body's travel, as a fraction of the pelvis horizontal speed (0 = off)",
     &S::body_speed_fraction, nullptr, 0, 2},
    {"body_speed_window_s", "averaging window of the pelvis speed (s)", &S::body_speed_window_s, nullptr, 0.01, 5},
    {"ground_velocity_window_s", "window of the ground velocity estimate (s); 0 = the ground stands still",
     &S::ground_velocity_window_s, nullptr, 0, 10},
    {"denoise_speed_fraction",
     "capture noise left in the feet's velocities, as a fraction of speed_threshold_mps, after smoothing (0 = off)",
     &S::denoise_speed_fraction, nullptr, 0, 1},
    {"max_denoise_sigma_s", "longest Gaussian sigma of the noise smoothing (s)", &S::max_denoise_sigma_s, nullptr, 0.01,
     0.5},
    {"height_threshold_m", "max height of the contact joint above the ground under it (m)", &S::height_threshold_m,
     nullptr, 0.005, 1},
    {"ground_window_s", "window of the local ground estimate (s); 0 = one flat floor", &S::ground_window_s, nullptr, 0,
     10},
    {"majority_window_s", "majority-vote filter window (s)", &S::majority_window_s, nullptr, 0, 2, k_exclusive},
    {"smoothing_sigma_s", "Gaussian smoothing sigma (s)", &S::smoothing_sigma_s, nullptr, 0, 1, k_exclusive},
    {"contact_threshold", "smoothed value a contact must reach", &S::contact_threshold, nullptr, 0, 1, k_exclusive},
    {"release_threshold", "smoothed value a contact extends over (at most contact_threshold)", &S::release_threshold,
     nullptr, 0, 1, k_exclusive},
    {"upsample_low_fps", "cubic upsampling of low frame rate clips before detection", nullptr, &S::upsample_low_fps},
    {"upsample_max_fps", "clips at or below this rate are upsampled (Hz)", &S::upsample_max_fps, nullptr, 1, 240},
    {"upsample_target_fps", "rate upsampled clips reach at least (Hz)", &S::upsample_target_fps, nullptr, 1, 240},
}};

[[noreturn]] void bad_value(const char* key, const std::string& rule, double value) {
  std::ostringstream message;
  message << "contacts: " << key << " must be " << rule << ", got " << value;
  fail(ErrorKind::usage, message.str());
}

bool in_range(const ContactSettingField& f, double value) {
  // Written so that NaN fails every comparison and is refused.
  bool above_min = f.min_exclusive ? value > f.min : value >= f.min;
  return above_min && value <= f.max;
}

}  // namespace

std::span<const ContactSettingField> contact_setting_fields() {
  return k_fields;
}

std::string contact_setting_range(const ContactSettingField& f) {
  std::ostringstream text;
  if (f.min_exclusive)
    text << "> " << f.min << " and <= " << f.max;
  else
    text << "in [" << f.min << ", " << f.max << "]";
  return text.str();
}

void ContactSettings::validate() const {
  for (const ContactSettingField& f : k_fields) {
    if (!f.number || f.number == &S::release_threshold) continue;
    const double value = this->*(f.number);
    if (!in_range(f, value)) bad_value(f.key, contact_setting_range(f), value);
  }
  if (!(release_threshold > 0 && release_threshold <= contact_threshold)) {
    std::ostringstream rule;
    rule << "> 0 and <= contact_threshold (" << contact_threshold << ")";
    bad_value("release_threshold", rule.str(), release_threshold);
  }
}

ContactSettings contact_settings_from_json(const nlohmann::json& j, const ContactSettings& base,
                                           const std::string& where) {
  if (!j.is_object()) fail(ErrorKind::usage, where + ": contact settings must be a JSON object");
  ContactSettings s = base;
  for (const auto& [key, value] : j.items()) {
    const ContactSettingField* field = nullptr;
    for (const auto& f : contact_setting_fields())
      if (key == f.key) field = &f;
    if (!field) {
      std::vector<std::string> keys;
      for (const auto& f : contact_setting_fields()) keys.emplace_back(f.key);
      fail(ErrorKind::usage, where + ": unknown contact setting '" + key + "'" + did_you_mean(key, keys));
    }
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
