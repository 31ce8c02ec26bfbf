#include "support/limited_run.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "cli/run_footfix.h"

extern char** environ;

namespace footfix::test {
namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

LimitedRun run_footfix_limited(const std::vector<std::string>& args, const LimitedRunOptions& options) {
  TempDir capture;
  const std::string out_path = (capture / "stdout").string(), err_path = (capture / "stderr").string();
  // Everything the child needs is prepared before fork: after it only async-signal-safe calls.
  std::vector<std::string> argv_storage{FOOTFIX_EXE};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_storage;
  for (char** e = environ; *e; ++e) env_storage.emplace_back(*e);
  env_storage.insert(env_storage.end(), options.env.begin(), options.env.end());
  std::vector<char*> envp;
  for (auto& e : env_storage) envp.push_back(e.data());
  envp.push_back(nullptr);

  const auto start = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    int in = ::open("/dev/null", O_RDONLY);
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0) ::_exit(127);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    if (options.file_size_limit > 0) {
      ::signal(SIGXFSZ, SIG_IGN);  // kept across exec: writes past the limit fail with EFBIG
      rlimit r{static_cast<rlim_t>(options.file_size_limit), static_cast<rlim_t>(options.file_size_limit)};
      ::setrlimit(RLIMIT_FSIZE, &r);
    }
    if (options.open_file_limit > 0) {
      rlimit r{static_cast<rlim_t>(options.open_file_limit), static_cast<rlim_t>(options.open_file_limit)};
      ::setrlimit(RLIMIT_NOFILE, &r);
    }
    if (options.stack_limit > 0) {
      rlimit r{static_cast<rlim_t>(options.stack_limit), static_cast<rlim_t>(options.stack_limit)};
      ::setrlimit(RLIMIT_STACK, &r);
    }
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  LimitedRun r;
  int status = 0;
  rusage usage{};
  for (;;) {
    pid_t done = ::wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) break;
    if (std::chrono::steady_clock::now() - start > options.bound) {
      ::kill(pid, SIGKILL);
      ::wait4(pid, &status, 0, &usage);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.peak_rss_kb = usage.ru_maxrss;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  return r;
}

}  // namespace footfix::test
