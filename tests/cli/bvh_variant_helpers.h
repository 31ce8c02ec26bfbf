// What the BVH variant tests share: the bundled walk as text, text edits, and cleaning a variant
// through the binary with a check of the contacts it writes.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_test_helpers.h"
#include "footfix/core/read_file.h"
#include "support/paths.h"

namespace footfix::test {

inline std::string walk_text() { return read_file(data_clip("cmu_07_01_walk.bvh")); }

/// Cleans `text` as `name` into dir/out/ with `extra` options; returns the run.
inline BoundedRun clean_text(const TempDir& dir, const std::string& name, const std::string& text,
                             const std::vector<std::string>& extra = {}) {
  write_text(dir / name, text);
  std::vector<std::string> args{"clean", (dir / name).string(), "-o", (dir / "out").string() + "/"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_footfix_bounded(args);
}

/// `text` with every `from` replaced by `to` (plain text, not a pattern: std::regex draws a false
/// -Wmaybe-uninitialized from GCC 12 in the sanitized build).
inline std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) text.replace(at, from.size(), to);
  return text;
}

/// Every number in `text` (the words that end in a digit), in order.
inline std::vector<double> numbers_of(const std::string& text) {
  std::vector<double> numbers;
  std::istringstream words(text);
  for (std::string word; words >> word;)
    if (std::isdigit(static_cast<unsigned char>(word.back()))) numbers.push_back(std::stod(word));
  return numbers;
}

/// The contacts JSON that cleaning `name` wrote into dir/out/.
inline nlohmann::json cleaned_contacts(const TempDir& dir, const std::string& name) {
  const std::string stem = name.substr(0, name.rfind('.'));
  return nlohmann::json::parse(read_file(dir / "out" / (stem + ".contacts.json")));
}

/// Contact intervals of each foot, left then right.
inline std::vector<nlohmann::json> contact_intervals(const nlohmann::json& contacts) {
  std::vector<nlohmann::json> out;
  for (const auto& foot : contacts.at("feet")) out.push_back(foot.at("intervals"));
  return out;
}

/// The legs `inspect --json` finds in the clip at `path` (its "legs" object).
inline nlohmann::json inspected_legs(const std::filesystem::path& path) {
  auto r = run_footfix_bounded({"inspect", "--json", path.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return {};
  nlohmann::json doc = nlohmann::json::parse(r.out);
  if (doc.is_array()) doc = doc.at(0);
  return doc["legs"];
}

/// Expects the clean of `name` to have succeeded with contacts on both feet and a readable output.
inline void expect_cleaned_with_contacts(const TempDir& dir, const std::string& name, const BoundedRun& run) {
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto feet = contact_intervals(cleaned_contacts(dir, name));
  ASSERT_EQ(feet.size(), 2u);
  EXPECT_FALSE(feet[0].empty()) << "no left contacts";
  EXPECT_FALSE(feet[1].empty()) << "no right contacts";
  auto again = run_footfix_bounded({"inspect", (dir / "out" / name).string()});
  EXPECT_EQ(again.exit_code, 0) << "the cleaned file does not read back: " << again.err;
}

}  // namespace footfix::test
