// Small helpers shared by the CLI contract tests: real clips copied into a TempDir, files read back.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/run_footfix.h"
#include "footfix/files/atomic_file.h"
#include "support/paths.h"
#include "support/text_search.h"

namespace footfix::test {

/// Copies the bundled walk clip to `path` (parents created) and returns `path` as a string.
inline std::string copy_walk(const std::filesystem::path& path) {
  std::filesystem::create_directories(path.parent_path());
  std::filesystem::copy_file(data_clip("cmu_07_01_walk.bvh"), path);
  return path.string();
}

/// Writes `text` to `path` (parents created) and returns `path` as a string.
inline std::string write_text(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

}  // namespace footfix::test
