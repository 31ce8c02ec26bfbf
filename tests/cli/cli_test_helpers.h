// Small helpers shared by the CLI contract tests: real clips copied into a TempDir, files read back.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/run_footfix.h"
#include "footfix/io/atomic_file.h"
#include "support/paths.h"

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

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// `err` without its lines about a rest pose at frame 0: the bundled walk starts with one (its
/// warning is tested in reference_pose_cli_test), variants of it keep it, and tests about other
/// warnings look past it.
inline std::string besides_rest_pose(const std::string& err) {
  std::string kept;
  for (std::size_t at = 0; at < err.size();) {
    std::size_t end = err.find('\n', at);
    end = end == std::string::npos ? err.size() : end + 1;
    const std::string line = err.substr(at, end - at);
    if (!contains(line, "frame 0 is a rest or reference pose")) kept += line;
    at = end;
  }
  return kept;
}

}  // namespace footfix::test
