// The one way tests run the built `footfix` binary (FOOTFIX_EXE): arguments passed as they are
// (no shell), stdin from /dev/null, stdout and stderr captured, always under a wall-clock bound
// (killed with SIGKILL after it), with optional extra environment variables, a program to run it
// through (setpriv), resource limits, and the child's peak RSS from wait4's rusage.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace footfix::test {

struct LimitedRunOptions {
  std::chrono::milliseconds bound = std::chrono::seconds(30);
  std::vector<std::string> env;      ///< "NAME=value" added to the environment
  std::vector<std::string> prefix;   ///< a program and its arguments that run footfix (setpriv ...)
  bool merge_output = false;         ///< stderr into stdout (`out`), in the order written
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

/// Starts FOOTFIX_EXE with `args` and the extra environment `env` (output discarded) and returns
/// its pid without waiting: for tests that signal the process themselves.
int start_footfix(const std::vector<std::string>& args, const std::vector<std::string>& env = {});

/// Waits until process `pid` (a child) has stopped itself, e.g. at a FOOTFIX_TEST_STOP_AT point.
/// False if it exited instead or `bound` passed.
bool wait_until_stopped(int pid, std::chrono::milliseconds bound = std::chrono::seconds(60));

}  // namespace footfix::test
