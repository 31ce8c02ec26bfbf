// Runs the built `footfix` binary (FOOTFIX_EXE) under stated bounds for the security tests: a
// wall-clock bound (killed with SIGKILL after it), extra environment variables, optional
// resource limits (file size, stack, open files), and the child's peak RSS from wait4's rusage.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace footfix::test {

struct LimitedRunOptions {
  std::chrono::milliseconds bound = std::chrono::seconds(30);
  std::vector<std::string> env;      ///< "NAME=value" added to the environment
  long long file_size_limit = 0;     ///< RLIMIT_FSIZE in bytes (SIGXFSZ ignored: writes fail EFBIG); 0 = none
  long long stack_limit = 0;         ///< RLIMIT_STACK in bytes; 0 = inherited
  long long open_file_limit = 0;     ///< RLIMIT_NOFILE; 0 = inherited
};

struct LimitedRun {
  int exit_code = -1;      ///< -1 if killed by a signal
  int signal = 0;
  bool timed_out = false;
  std::string out, err;
  double seconds = 0;
  long peak_rss_kb = 0;    ///< the child's peak resident set (ru_maxrss)
};

LimitedRun run_footfix_limited(const std::vector<std::string>& args, const LimitedRunOptions& options = {});

}  // namespace footfix::test
