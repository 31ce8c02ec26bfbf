#include "support/limited_run.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

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

void set_limit(int resource, long long value) {
  if (value <= 0) return;
  rlimit r{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
  ::setrlimit(resource, &r);
}

/// Forks and executes `prefix` + FOOTFIX_EXE + `args` with stdout and stderr into the given files
/// ("" = /dev/null; err_path "=out" shares stdout's file).
pid_t start(const std::vector<std::string>& args, const LimitedRunOptions& options, const std::string& out_path,
            const std::string& err_path) {
  // Everything the child needs is prepared before fork: after it only async-signal-safe calls.
  std::vector<std::string> argv_storage = options.prefix;
  argv_storage.push_back(FOOTFIX_EXE);
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
  const std::string out_file = out_path.empty() ? "/dev/null" : out_path;
  const bool shared_err = err_path == "=out";
  const std::string err_file = err_path.empty() ? "/dev/null" : err_path;

  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    int in = ::open("/dev/null", O_RDONLY);
    int out = ::open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = shared_err ? out : ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0) ::_exit(127);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    if (options.file_size_limit > 0) ::signal(SIGXFSZ, SIG_IGN);  // kept across exec: writes past the limit fail with EFBIG
    set_limit(RLIMIT_FSIZE, options.file_size_limit);
    set_limit(RLIMIT_NOFILE, options.open_file_limit);
    set_limit(RLIMIT_STACK, options.stack_limit);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  return pid;
}

}  // namespace

LimitedRun run_footfix_limited(const std::vector<std::string>& args, const LimitedRunOptions& options) {
  TempDir capture;
  const std::string out_path = (capture / "stdout").string();
  const std::string err_path = options.merge_output ? "=out" : (capture / "stderr").string();
  const auto begin = std::chrono::steady_clock::now();
  const pid_t pid = start(args, options, out_path, err_path);
  LimitedRun r;
  int status = 0;
  rusage usage{};
  for (;;) {
    pid_t done = ::wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) break;
    if (std::chrono::steady_clock::now() - begin > options.bound) {
      ::kill(pid, SIGKILL);
      ::wait4(pid, &status, 0, &usage);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  r.peak_rss_kb = usage.ru_maxrss;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.out = slurp(out_path);
  if (!options.merge_output) r.err = slurp(err_path);
  return r;
}

int start_footfix(const std::vector<std::string>& args, const std::vector<std::string>& env) {
  LimitedRunOptions options;
  options.env = env;
  return start(args, options, "", "");
}

bool wait_until_stopped(int pid, std::chrono::milliseconds bound) {
  const auto end = std::chrono::steady_clock::now() + bound;
  while (std::chrono::steady_clock::now() < end) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG | WUNTRACED);
    if (done == pid) return WIFSTOPPED(status);
    if (done < 0) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

}  // namespace footfix::test
