#include "contact_options.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>

#include "contacts/contact_settings_json.h"

namespace footfix::cli {
namespace {

/// "--speed-threshold-mps" and, without its unit suffix, "--speed-threshold".
std::string option_names(const std::string& key) {
  std::string name = key;
  std::replace(name.begin(), name.end(), '_', '-');
  std::string names = "--" + name;
  for (const char* unit : {"-mps", "-m", "-s"}) {
    std::string u = unit;
    if (name.size() > u.size() && name.compare(name.size() - u.size(), u.size(), u) == 0) {
      names += ",--" + name.substr(0, name.size() - u.size());
      break;
    }
  }
  return names;
}

/// A default as a person writes it: 0.0833 rather than 0.08333333333333333 (3 significant digits).
std::string format_default(const nlohmann::json& value) {
  if (!value.is_number_float()) return value.dump();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", value.get<double>());
  return buf;
}

}  // namespace

void ContactOptions::add_to(CLI::App& cmd) {
  const nlohmann::json defaults = contact_settings_to_json(ContactSettings{});
  for (const ContactSettingField& field : contact_setting_fields()) {
    std::string key = field.key;
    std::string help = std::string(field.help) + " [" + (field.number ? contact_setting_range(field) + ", " : "") +
                       "default: " + format_default(defaults[key]) + "]";
    if (field.flag)
      cmd.add_option_function<bool>(option_names(key), [this, key](const bool& v) { overrides[key] = v; }, help)
          ->group("Contact settings");
    else
      cmd.add_option_function<double>(option_names(key), [this, key](const double& v) { overrides[key] = v; }, help)
          ->group("Contact settings");
  }
}

void ContactOptions::apply(ContactSettings& settings) const {
  settings = contact_settings_from_json(overrides, settings, "command line");
}

}  // namespace footfix::cli
