// Command-line options for every contact setting (generated from contact_setting_fields()), so
// `annotate` and `clean` accept the same names: --speed-threshold-mps (or --speed-threshold), ...
#pragma once

#include <nlohmann/json.hpp>

#include "cli11_fwd.h"
#include "footfix/contacts/contact_settings.h"

namespace footfix::cli {

struct ContactOptions {
  nlohmann::json overrides = nlohmann::json::object();  ///< only the settings given on the command line

  /// Adds one option per contact setting to `cmd`, in the "Contact settings" group.
  void add_to(CLI::App& cmd);
  /// Applies the command-line values over `settings`. Throws Error(usage) for invalid values.
  void apply(ContactSettings& settings) const;
};

}  // namespace footfix::cli
