#include "cli/run_footfix.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace footfix::test {
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

constexpr const char* k_setpriv = "/usr/bin/setpriv";

// posix_spawn of `prefix` + FOOTFIX_EXE + `args` with stdout/stderr sent to the given files
// ("" = /dev/null).
int spawn(const std::vector<std::string>& args, const std::string& out_path, const std::string& err_path,
          const std::vector<std::string>& prefix = {}) {
  std::vector<std::string> argv_storage = prefix;
  argv_storage.push_back(FOOTFIX_EXE);
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.empty() ? "/dev/null" : out_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.empty() ? "/dev/null" : err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("posix_spawn " + argv_storage[0] + " failed");
  return pid;
}

BoundedRun run_bounded(const std::vector<std::string>& args, std::chrono::milliseconds bound,
                       const std::vector<std::string>& prefix) {
  TempDir capture;
  const fs::path out_path = capture / "stdout", err_path = capture / "stderr";
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = spawn(args, out_path.string(), err_path.string(), prefix);
  BoundedRun r;
  int status = 0;
  for (;;) {
    pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (std::chrono::steady_clock::now() - start > bound) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  return r;
}

}  // namespace

BoundedRun run_footfix_bounded(const std::vector<std::string>& args, std::chrono::milliseconds bound) {
  return run_bounded(args, bound, {});
}

BoundedRun run_footfix_unprivileged(const std::vector<std::string>& args, std::chrono::milliseconds bound) {
  return run_bounded(args, bound, {k_setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"});
}

bool can_run_unprivileged() {
  // As user nobody the binary and the test data must be reachable (a checkout under /root is
  // not): probe once with a real read of a test clip.
  static const bool ok = [] {
    if (::geteuid() != 0 || ::access(k_setpriv, X_OK) != 0) return false;
    std::vector<std::string> args{"inspect", FOOTFIX_TESTS_DIR};
    args.back().append("/data/bad/one_frame.bvh");
    return run_footfix_unprivileged(args, std::chrono::seconds(30)).exit_code == 0;
  }();
  return ok;
}

int spawn_footfix(const std::vector<std::string>& args) { return spawn(args, "", ""); }

TempDir::TempDir() {
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    fs::path p = fs::temp_directory_path() / ("footfix-test-" + std::to_string(::getpid()) + "-" +
                                              std::to_string(rd()));
    std::error_code ec;
    if (fs::create_directory(p, ec)) {
      path_ = p;
      return;
    }
  }
  throw std::runtime_error("cannot create a temporary directory");
}

TempDir::~TempDir() {
  std::error_code ec;
  // A test may have made something read-only; give permissions back so removal works.
  for (auto it = fs::recursive_directory_iterator(path_, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
  fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
  fs::remove_all(path_, ec);
}

std::vector<std::string> TempDir::entries() const {
  std::vector<std::string> names;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(path_, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    names.push_back(fs::relative(it->path(), path_).string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace footfix::test
