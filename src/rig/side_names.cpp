#include "side_names.h"

#include <cctype>
#include <string>
#include <vector>

namespace footfix::rig_detail {
namespace {

// Splits at non-alphanumerics and camel-case boundaries: "LHipJoint" -> L, Hip, Joint;
// "UpperLeg_L" -> Upper, Leg, L; "lThigh" -> l, Thigh.
std::vector<std::string> name_tokens(std::string_view name) {
  std::vector<std::string> tokens;
  std::string current;
  auto flush = [&] {
    if (!current.empty()) tokens.push_back(current);
    current.clear();
  };
  for (size_t i = 0; i < name.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(name[i]);
    if (!std::isalnum(c)) {
      flush();
      continue;
    }
    bool upper = std::isupper(c);
    if (upper && !current.empty()) {
      unsigned char prev = static_cast<unsigned char>(name[i - 1]);
      bool next_lower = i + 1 < name.size() && std::islower(static_cast<unsigned char>(name[i + 1]));
      if (std::islower(prev) || (std::isupper(prev) && next_lower)) flush();
    }
    current.push_back(static_cast<char>(std::tolower(c)));
  }
  flush();
  return tokens;
}

}  // namespace

std::optional<Side> side_from_name(std::string_view name) {
  int left = 0, right = 0;
  for (const auto& t : name_tokens(name)) {
    if (t == "left" || t == "l" || t == "lf" || t == "lft") ++left;
    if (t == "right" || t == "r" || t == "rt" || t == "rgt") ++right;
  }
  if (left > 0 && right == 0) return Side::left;
  if (right > 0 && left == 0) return Side::right;
  return std::nullopt;
}

}  // namespace footfix::rig_detail
