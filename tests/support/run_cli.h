// Runs the real `footfix` executable (FOOTFIX_EXE) for CLI tests.
#pragma once

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/limited_run.h"

namespace footfix::test {

struct RunResult {
  int exit_code = -1;  ///< -1 when the process did not exit normally
  std::string output;  ///< stdout and stderr, in the order written
};

/// The words of a command line written with quoted(): split at spaces, with '...' and "..."
/// quoting. Anything a shell would interpret beyond that is refused (the line is not run
/// through a shell).
inline std::vector<std::string> command_words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(word), word.clear(), in_word = false;
    } else if (c == '\'' || c == '"') {
      const size_t close = line.find(c, i + 1);
      if (close == std::string::npos) throw std::invalid_argument("unclosed quote in: " + line);
      word.append(line, i + 1, close - i - 1);
      in_word = true;
      i = close;
    } else if (std::string("|&;<>$`\\*?").find(c) != std::string::npos) {
      throw std::invalid_argument(std::string("shell syntax '") + c + "' in a test command: " + line);
    } else {
      word.push_back(c);
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

/// Runs `footfix ARGS` (quote paths with quoted()) for at most 5 minutes.
inline RunResult run_footfix(const std::string& args) {
  LimitedRunOptions options;
  options.bound = std::chrono::minutes(5);
  options.merge_output = true;
  const LimitedRun run = run_footfix_limited(command_words(args), options);
  RunResult r;
  r.exit_code = run.exit_code;
  r.output = run.out;
  if (run.timed_out) r.output += "\n[killed after " + std::to_string(run.seconds) + " s]";
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
