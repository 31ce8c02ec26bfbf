// Where test data lives. The core suite uses data/ (bundled, redistributable clips); corpus tests
// use ../shared/data/clips and skip themselves (GTEST_SKIP, reported) when it is absent.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace footfix::test {

inline std::filesystem::path data_clip(const std::string& name) {
  return std::filesystem::path(FOOTFIX_DATA_DIR) / "clips" / name;
}
inline std::filesystem::path shared_clips_dir() {
  return std::filesystem::path(FOOTFIX_SHARED_DIR) / "data" / "clips";
}
inline bool have_shared_clips() { return std::filesystem::is_directory(shared_clips_dir()); }

}  // namespace footfix::test

/// Skips the current test (reported as skipped) when ../shared is not beside the checkout.
#define FOOTFIX_REQUIRE_SHARED_CLIPS()                                                \
  do {                                                                                \
    if (!::footfix::test::have_shared_clips())                                        \
      GTEST_SKIP() << "../shared/data/clips not present; corpus test skipped";       \
  } while (0)
