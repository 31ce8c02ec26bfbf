// Runs the real `footfix` executable (FOOTFIX_EXE) for CLI tests.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace footfix::test {

struct RunResult {
  int exit_code = -1;  ///< -1 when the process did not exit normally
  std::string output;  ///< stdout and stderr
};

/// Runs `footfix ARGS` through the shell (quote paths with quoted()).
inline RunResult run_footfix(const std::string& args) {
  RunResult r;
  std::string command = FOOTFIX_EXE;
  command.append(" ").append(args).append(" 2>&1");
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) r.output.append(buffer, n);
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

/// A fresh, empty temporary directory unique to this process and `name`.
inline std::filesystem::path fresh_temp_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("footfix_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace footfix::test
