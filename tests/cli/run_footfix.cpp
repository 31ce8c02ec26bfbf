#include "cli/run_footfix.h"

#include <unistd.h>

#include <algorithm>
#include <random>
#include <stdexcept>

namespace footfix::test {
namespace fs = std::filesystem;

namespace {

constexpr const char* k_setpriv = "/usr/bin/setpriv";

}  // namespace

BoundedRun run_footfix_bounded(const std::vector<std::string>& args, std::chrono::milliseconds bound) {
  LimitedRunOptions options;
  options.bound = bound;
  return run_footfix_limited(args, options);
}

BoundedRun run_footfix_unprivileged(const std::vector<std::string>& args, std::chrono::milliseconds bound) {
  LimitedRunOptions options;
  options.bound = bound;
  options.prefix = {k_setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"};
  return run_footfix_limited(args, options);
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
