// Checks of option values whose failure CLI11 would word poorly (a range to 300 digits).
#pragma once

#include <string>

#include "cli11_fwd.h"

namespace CLI {
class Validator;
}  // namespace CLI

namespace footfix::cli {

/// A validator of a finite number over 0: "--max-slide must be a positive number of cm/s, got
/// '-1'" otherwise (`unit` names what the number counts).
CLI::Validator positive_number(const std::string& unit);

}  // namespace footfix::cli
