#include "number_options.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>

namespace footfix::cli {

CLI::Validator positive_number(const std::string& unit) {
  return CLI::Validator(
      [unit](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value) || value <= 0)
          return "must be a positive number of " + unit + ", got '" + text + "'";
        return "";
      },
      "POSITIVE");
}

}  // namespace footfix::cli
